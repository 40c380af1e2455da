/**
 * The guard over a plain folder, built one way for the headless host, the benchmark and the tests: the Node
 * gateway, state in `<folder>/.revision-guard/` (never served), Node's timers, tags and links parsed from the notes
 * and HTML rendered by markdown-it.
 */
import { basename, join } from "path";
import { openRevisionGuard, type RevisionGuard, type RevisionGuardOptions } from "../host/revision-guard";
import type { RevisionGuardSettings } from "../settings";
import { PackedBlobStorage } from "../vault/base-pack";
import { NodeFsGateway } from "../vault/node-fs-gateway";
import { NodeStateStorage } from "../vault/node-state-storage";
import { nodeTimers } from "./node-timers";
import { ParsedNoteIndex } from "../service/search/parsed-note-index";
import { yieldVia } from "../core/steps";
import { renderMarkdown } from "./markdown-html";

export const STATE_FOLDER = ".revision-guard";

export interface Folder {
	gateway: NodeFsGateway;
	/** The folder's own state (history, bases, conflicts, the host's settings). */
	storage: NodeStateStorage;
}

/** Where the headless gateway writes its temp files: inside the state folder, so no watcher sees them. */
export const TEMP_FOLDER = `${STATE_FOLDER}/tmp`;

export async function openFolder(folder: string): Promise<Folder> {
	const gateway = await NodeFsGateway.open(folder, ".trash", TEMP_FOLDER);
	return { gateway, storage: new NodeStateStorage(join(gateway.root, STATE_FOLDER)) };
}

/** Tuning for tests and benchmarks: a clock, shorter coalescing and save delays, and how long work yields. */
export type FolderGuardTuning = Partial<
	Pick<RevisionGuardOptions, "now" | "coalesceMs" | "persistDebounceMs" | "yieldToHost" | "onError" | "proposals">
>;

export async function openFolderGuard(
	{ gateway, storage }: Folder,
	settings: () => RevisionGuardSettings,
	tuning: FolderGuardTuning = {},
): Promise<RevisionGuard> {
	return openRevisionGuard({
		gateway,
		storage,
		// Packed, not a file per base: see base-pack.ts. A pack that cannot be opened (a file where its folder goes)
		// leaves the bases to one file each, which fail on their own and only cost merges.
		blobs: await PackedBlobStorage.open(join(gateway.root, STATE_FOLDER, "bases"), nodeTimers).catch(() => undefined),
		settings,
		configDir: ".obsidian",
		vaultName: basename(gateway.root),
		privateFolders: [STATE_FOLDER],
		timers: nodeTimers,
		// Tags and links parsed from the notes, and notes rendered by markdown-it (the plugin uses Obsidian's instead).
		noteIndex: new ParsedNoteIndex({ gateway, yieldToHost: yieldVia(nodeTimers), render: renderMarkdown }),
		...tuning,
	});
}
