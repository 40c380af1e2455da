/** Test stub of the `obsidian` module (types-only on npm). Keep it minimal; see README.md here. */
import { createRequire } from "module";
import { installDomHelpers } from "./dom";

installDomHelpers();

export {
	App,
	EmbeddedEditorView,
	FileManager,
	MarkdownView,
	SecretStorage,
	View,
	Workspace,
	WorkspaceLeaf,
	type AppOptions,
} from "./app";
export {
	apiVersion,
	CliRegistry,
	requireApiVersion,
	setApiVersion,
	type CliData,
	type CliFlag,
	type CliFlags,
	type CliHandler,
} from "./cli";
export { SimClock, settle } from "./clock";
export { Editor, type EditorChange, type EditorPosition, type EditorTransaction } from "./editor";
export { Events, type EventRef } from "./events";
export { normalizePath, TAbstractFile, TFile, TFolder } from "./files";
export {
	ButtonComponent,
	Component,
	DropdownComponent,
	Modal,
	Notice,
	Plugin,
	PluginSettingTab,
	Setting,
	TextAreaComponent,
	ValueComponent,
	type PluginManifest,
} from "./plugin";
export { DataAdapter } from "./adapter";
export { Vault, type TrashOption, type WriteRecord } from "./vault";
export { OutsideWorld } from "./watcher";
export { getAllTags, MetadataCache, type CachedMetadata } from "./metadata-cache";
export { MarkdownRenderer } from "./renderer";
export { prepareSimpleSearch, simpleSearchCalls, type SearchResult } from "./search";
export { Commands, type StubCommand } from "./commands";
/**
 * Obsidian hands plugins its own moment: the stub hands out the moment installed with Obsidian's typings (loaded by
 * name, as the lint rules reserve importing it to Obsidian itself).
 */
export const moment = loadModule()("moment") as typeof import("moment");

/** Works both where vitest runs the stub as a module and in the bench, which bundles it as CommonJS (no import.meta there). */
function loadModule(): NodeJS.Require {
	return typeof require === "function" ? require : createRequire(__filename);
}
export const Platform = { isDesktop: true, isMobile: false, isDesktopApp: true };
