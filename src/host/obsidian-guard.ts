/**
 * The guard inside Obsidian: the Obsidian adapters put together, once this instance has the plugin's state folder to
 * itself (a disabled instance may still be saving: Obsidian does not wait for onunload). Evaluated with
 * plugin-start-up.ts, when the host starts.
 */
import { apiVersion, type App } from "obsidian";
import { yieldVia } from "../core/steps";
import type { Timers } from "../core/timers";
import type { RevisionGuardSettings } from "../settings";
import { ObsidianGateway } from "../vault/obsidian-gateway";
import { ObsidianNoteIndex } from "../vault/obsidian-note-index";
import { ObsidianStateStorage } from "../vault/obsidian-state-storage";
import { StateTurn } from "../vault/obsidian-state-turn";
import { ObsidianWorkspace } from "../vault/obsidian-workspace";
import { openRevisionGuard, type RevisionGuard } from "./revision-guard";

export interface ObsidianGuardOptions {
	app: App;
	/** The plugin's folder, where its state is kept. */
	pluginFolder: string;
	settings: () => RevisionGuardSettings;
	timers: Timers;
	/** True once the plugin was disabled: waiting for the state folder stops. */
	stopped: () => boolean;
	/** The plugin's register: what the gateway listens to is let go when the plugin unloads. */
	register: (cleanup: () => void) => void;
}

/** The guard over this vault, or null when the plugin was disabled before the state folder was its own. */
export async function openObsidianGuard(options: ObsidianGuardOptions): Promise<RevisionGuard | null> {
	const { app, pluginFolder, timers } = options;
	const turn = await StateTurn.take({
		adapter: app.vault.adapter,
		folder: pluginFolder,
		timers,
		stopped: options.stopped,
		warn: (message) => console.warn(message),
	});
	if (!turn) return null;
	return openRevisionGuard({
		gateway: new ObsidianGateway(app, options.register, yieldVia(timers)),
		noteIndex: new ObsidianNoteIndex(app, yieldVia(timers)),
		storage: new ObsidianStateStorage(app.vault.adapter, pluginFolder, turn, yieldVia(timers)),
		settings: options.settings,
		configDir: app.vault.configDir,
		vaultName: app.vault.getName(),
		appVersion: apiVersion,
		changeSource: { kind: "user" },
		workspace: new ObsidianWorkspace(app),
		timers,
		onError: (error) => console.error("Revision Guard:", error),
	});
}
