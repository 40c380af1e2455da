/** Test stub of the `obsidian` module (types-only on npm). Keep it minimal; see README.md here. */
import { installDomHelpers } from "./dom";

installDomHelpers();

export { App, FileManager, MarkdownView, View, Workspace, WorkspaceLeaf } from "./app";
export { Events, type EventRef } from "./events";
export { normalizePath, TAbstractFile, TFile, TFolder } from "./files";
export { ButtonComponent, Component, DropdownComponent, Modal, Notice, Plugin, PluginSettingTab, Setting, ValueComponent, type PluginManifest } from "./plugin";
export { DataAdapter, Vault } from "./vault";
export const Platform = { isDesktop: true, isMobile: false, isDesktopApp: true };
