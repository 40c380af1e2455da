/** Revision Guard for Obsidian: wiring only. The behaviour lives in core/, service/, http/, vault/ and ui/. */
import { Notice, normalizePath, Plugin } from "obsidian";
import type { Timers } from "./core/timers";
import type { RevisionGuard } from "./host/revision-guard";
import { NEW_INSTALL_BACKUP_FOLDER, withDefaults, type AgentKey, type RevisionGuardSettings } from "./settings";
import type { ScopeSummary } from "./service/scopes/scope-summary";
import type { ConflictUi } from "./ui/conflict-ui";
import { RevisionGuardSettingTab } from "./ui/settings-tab";
import { ConflictStatusBar } from "./ui/status-bar";
import { keysKeptElsewhere, withKeyValues, withoutKeyValues, type Secrets, type StoredKey } from "./vault/key-secrets";
import type { Host } from "./host/start-host";
import { PluginMarker } from "./host/running-marker";
import { registerCliCommands } from "./cli/register";
import { HistoryUi } from "./ui/history-ui";
import { ProposalUi } from "./ui/proposal-ui";

/** Vaults bigger than this get a progress notice while start-up reconciles them. */
const RECONCILE_NOTICE_THRESHOLD = 2000;

export default class RevisionGuardPlugin extends Plugin {
	settings!: RevisionGuardSettings;
	guard: RevisionGuard | null = null;
	private host: Host | null = null;
	private startError: string | null = null;
	private lifecycle: Promise<void> = Promise.resolve();
	private statusBar: ConflictStatusBar | null = null;
	private conflictUi: ConflictUi | null = null;
	private historyUi: HistoryUi | null = null;
	private proposalUi: ProposalUi | null = null;
	/** Says, while the plugin runs, that it serves this vault: the headless host then refuses to serve it too. */
	private marker: PluginMarker | null = null;
	/** Set once the plugin is disabled, so a start-up still under way stops instead of opening a port. */
	private unloaded = false;
	/** The keys as `data.json` last held them (to blank the secrets of revoked ones). */
	private storedKeys: StoredKey[] = [];
	private readonly timers: Timers = {
		schedule: (callback, ms) => window.setTimeout(callback, ms),
		cancel: (handle) => window.clearTimeout(handle as number),
	};

	override async onload(): Promise<void> {
		const stored = (await this.loadData()) as { keys?: StoredKey[] } | null;
		this.storedKeys = stored?.keys ?? [];
		this.settings = withDefaults(withKeyValues(stored, this.secrets()));
		// A new install keeps .bak notes in one folder (see NEW_INSTALL_BACKUP_FOLDER); existing settings are kept as they are.
		if (stored === null) this.settings.backupFolder = NEW_INSTALL_BACKUP_FOLDER;
		// Keys an older version kept in data.json go to secret storage now (a first key is made when the host starts).
		if (this.storedKeys.some((key) => typeof key.key === "string") && this.secrets()) await this.saveSettings();
		this.addSettingTab(new RevisionGuardSettingTab(this.app, this, this));
		this.statusBar = new ConflictStatusBar(this.addStatusBarItem(), () => this.showConflicts());
		this.statusBar.update(null);
		this.addCommand({ id: "show-conflicts", name: "Show agent conflicts", callback: () => this.showConflicts() });
		const historyUi = new HistoryUi(this.app, this.addStatusBarItem());
		this.historyUi = historyUi;
		for (const command of historyUi.commands()) this.addCommand(command);
		const proposalUi = new ProposalUi(this.app, this.addStatusBarItem());
		this.proposalUi = proposalUi;
		for (const command of proposalUi.commands()) this.addCommand(command);
		this.addCommand({
			id: "copy-api-key",
			name: "Copy the first agent key",
			callback: async () => {
				const key = this.settings.keys[0];
				if (!key) return new Notice("There are no agent keys; add one in settings.");
				await navigator.clipboard.writeText(key.key);
				new Notice(`Copied the key for ${key.name}.`);
			},
		});
		// Obsidian 1.12.2+: guarded commands for the Obsidian CLI, answering once the host has started.
		registerCliCommands(
			this,
			() => this.host?.guard.notes ?? null,
			(error) => console.error("Revision Guard: CLI command failed", error),
		);
		// Obsidian may quit without unloading plugins: save what is pending (best effort, as Obsidian allows).
		this.registerEvent(
			this.app.workspace.on("quit", (tasks) => {
				tasks.add(async () => this.guard?.persistence.flush());
				// The marker goes with Obsidian, so a headless host started afterwards is not refused.
				tasks.add(() => this.removeMarker());
			}),
		);
		// Events fired while the vault loads are not edits; start tracking once the layout is ready, and never inside
		// onload (a plugin enabled in a running Obsidian sees the layout ready at once): the start waits a turn.
		this.app.workspace.onLayoutReady(() => {
			this.lifecycle = this.afterATurn().then(() => this.start());
		});
	}

	override onunload(): void {
		this.unloaded = true;
		const starting = this.lifecycle;
		// Nobody awaits an unload: a last save that failed is reported here, never left as an unhandled rejection.
		this.lifecycle = this.stop()
			.catch((error: unknown) => console.error("Revision Guard: could not save its state while closing", error))
			.then(() => starting);
	}

	/** Resolves once start-up, and a shut-down under way, have finished (a test waits on it before removing a vault). */
	whenSettled(): Promise<void> {
		return this.lifecycle;
	}

	async saveSettings(): Promise<void> {
		const toStore = withoutKeyValues(this.settings, this.secrets(), this.storedKeys);
		this.storedKeys = toStore.keys;
		await this.saveData(toStore);
		await this.guard?.bases.setCap(this.settings.baseStoreCapMB * 1024 * 1024);
		this.guard?.reads.setCapacity(this.settings.readLedgerCap);
	}

	/** Names of keys made on another device (listed in the synced data.json, their values kept there). */
	keysOnOtherDevices(): string[] {
		return keysKeptElsewhere(this.storedKeys, this.secrets()).map((key) => key.name);
	}

	/** The settings tab's count of what a key may do (service/scopes/scope-summary.ts); null until the vault is open. */
	async scopeSummary(key: AgentKey): Promise<ScopeSummary | null> {
		return (await this.guard?.notes.scopeSummary(key)) ?? null;
	}

	serverStatus(): string {
		return this.startError ?? this.host?.listener.status(this.settings.bindAddress) ?? "Starting…";
	}

	async restartServer(): Promise<void> {
		await this.host?.listener.listen(this.settings.port, this.settings.bindAddress);
	}

	/** Resolves on a later turn of the event loop, once onload has returned to Obsidian. */
	private afterATurn(): Promise<void> {
		return new Promise((resolve) => this.timers.schedule(resolve, 0));
	}

	private async start(): Promise<void> {
		try {
			await this.open();
		} catch (error) {
			// Never leave the status on "Starting…": say what failed, here and in the settings.
			this.startError =
				`Revision Guard could not start: ${error instanceof Error ? error.message : String(error)}. ` +
				`Disable and enable the plugin to retry.`;
			console.error("Revision Guard: start-up failed", error);
			new Notice(this.startError, 0);
		}
	}

	private async open(): Promise<void> {
		const { app } = this;
		// Evaluated now, not when Obsidian loaded main.js (plugin-start-up.ts).
		const startUp = await import("./host/plugin-start-up");
		const { startHost, openObsidianGuard, ConflictUi, historyViews, proposalViews } = startUp;
		const pluginFolder = this.manifest.dir ?? normalizePath(`${app.vault.configDir}/plugins/${this.manifest.id}`);
		const marker = new PluginMarker(app.vault.adapter, pluginFolder);
		this.marker = marker;
		// A marker that cannot be written costs only that warning to the headless host, never this start.
		await marker
			.write(this.settings.port)
			.catch((error: unknown) => console.error("Revision Guard: could not write the running marker", error));
		const elsewhere = this.keysOnOtherDevices();
		let progress: Notice | null = null;
		const host = await startHost({
			settings: () => this.settings,
			saveSettings: () => this.saveSettings(),
			otherKeyNames: elsewhere,
			openGuard: () =>
				openObsidianGuard({
					app,
					pluginFolder,
					settings: () => this.settings,
					timers: this.timers,
					stopped: () => this.unloaded,
					register: (cleanup) => this.register(cleanup),
				}),
			opened: (guard) => {
				this.guard = guard;
				if (!this.statusBar) return;
				const conflictUi = new ConflictUi(app, guard.person, () => this.settings, this.statusBar);
				this.conflictUi = conflictUi;
				this.register(conflictUi.start());
				// Agents' clients may offer the person "open the merge modal" when a write is refused (MCP elicitation).
				this.register(guard.notes.mergeModal.offer((id) => conflictUi.openMerge(id)));
				if (this.historyUi) this.register(this.historyUi.start(guard.person, historyViews(app, guard.person)));
				if (this.proposalUi) this.register(this.proposalUi.start(guard.person, proposalViews(app, guard.person)));
			},
			onProgress: (done, total) => {
				if (total < RECONCILE_NOTICE_THRESHOLD) return;
				progress ??= new Notice("", 0);
				if (done === 1 || done % 500 === 0 || done === total)
					progress.setMessage(
						`Revision Guard: checked ${done} of ${total} notes for edits made while Obsidian was closed.`,
					);
			},
			warn: (message) => new Notice(message, 0),
			onError: (error) => console.error("Revision Guard: request failed", error),
			stopped: () => this.unloaded,
		});
		(progress as Notice | null)?.hide();
		if (!host) return;
		// Disabled just as it started listening: close what was opened.
		if (this.unloaded) return void (await host.close());
		this.host = host;
		if (host.firstKey && elsewhere.length > 0) {
			new Notice(
				"This vault's agent keys were made on another device, and Obsidian keeps key values " +
					"on the device that made them. A key for this device was added; copy it from the plugin's settings.",
			);
		}
	}

	/** Obsidian's secret storage, where it has one (1.11.4+). */
	private secrets(): Secrets | undefined {
		return (this.app as { secretStorage?: Secrets }).secretStorage;
	}

	private showConflicts(): void {
		if (!this.conflictUi) return void new Notice("The agent API is still starting.");
		this.conflictUi.showList();
	}

	private async stop(): Promise<void> {
		const { host, guard } = this;
		this.host = null;
		this.guard = null;
		// A host still starting is not ours yet (startHost closes its own listener and guard once it sees the stop);
		// a guard without a host is closed here.
		if (host) await host.close();
		else await guard?.close();
		this.conflictUi = null;
		await this.removeMarker();
	}

	private async removeMarker(): Promise<void> {
		const marker = this.marker;
		this.marker = null;
		await marker
			?.remove()
			.catch((error: unknown) => console.error("Revision Guard: could not remove the running marker", error));
	}
}
