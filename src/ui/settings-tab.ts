/** The settings tab: where a person finds the port, the agent keys and every guard option. */
import { normalizePath, Notice, PluginSettingTab, Setting, type App, type Plugin } from "obsidian";
import { generateKey } from "../core/keys";
import type { AgentKey, RevisionGuardSettings } from "../settings";
import type { ScopeSummary } from "../service/scopes/scope-summary";
import { displayKeyScope } from "./settings-scopes";
import {
	displayConflictSettings,
	displayNetworkSettings,
	displayNoteTypeSettings,
	displayTokenlessSettings,
} from "./settings-sections";
import { ConfirmModal } from "./confirm-modal";
import { displayHistorySettings } from "./settings-history";
import { displayCommandSettings, renameCommandKey } from "./settings-commands";

/** What the tab needs from the plugin, so the tab can be tested without the whole plugin. */
export interface SettingsHost {
	settings: RevisionGuardSettings;
	saveSettings(): Promise<void>;
	/** Applies a changed port (or key set) to the running server. */
	restartServer(): Promise<void>;
	/** One line for the person: where the API listens, or why it does not. */
	serverStatus(): string;
	/** Names of keys made on another device: listed in the synced settings, usable only there. */
	keysOnOtherDevices?(): string[];
	/** What a key's lists mean in this vault (counted without freezing Obsidian); null while the vault is not open. */
	scopeSummary?(key: AgentKey): Promise<ScopeSummary | null>;
}

export class RevisionGuardSettingTab extends PluginSettingTab {
	constructor(
		app: App,
		plugin: Plugin,
		private readonly host: SettingsHost,
	) {
		super(app, plugin);
	}

	display(): void {
		const { containerEl } = this;
		containerEl.empty();
		const { settings } = this.host;

		// The first section has no heading (Obsidian's guidelines): the tab's own title names it.
		new Setting(containerEl).setName("Status").setDesc(this.host.serverStatus());
		new Setting(containerEl)
			.setName("Port")
			.setDesc("Agents connect to http://127.0.0.1:<port>. Apply restarts the server.")
			.addText((text) =>
				text.setValue(String(settings.port)).onChange(async (value) => {
					const port = Number(value);
					if (!Number.isInteger(port) || port < 1024 || port > 65535) return;
					settings.port = port;
					await this.host.saveSettings();
				}),
			)
			.addButton((button) =>
				button.setButtonText("Apply").onClick(async () => {
					await this.host.restartServer();
					this.display();
				}),
			);

		displayNetworkSettings(containerEl, this.host);
		this.displayKeys(containerEl);
		displayCommandSettings(containerEl, this.host);

		new Setting(containerEl).setName("Protection").setHeading();
		new Setting(containerEl)
			.setName("Require a revision token on updates")
			.setDesc(
				"Agents must send back the revision they read to change or delete a note. When off, " +
					"a write without one that would erase most of a note is still refused.",
			)
			.addToggle((toggle) =>
				toggle.setValue(settings.requireToken).onChange(async (value) => {
					settings.requireToken = value;
					await this.host.saveSettings();
				}),
			);
		new Setting(containerEl)
			.setName("Backup folder")
			.setDesc("Where refused writes are kept as .bak notes. Leave empty to keep each one beside its note.")
			.addText((text) =>
				text
					.setPlaceholder("Beside the note")
					.setValue(settings.backupFolder)
					.onChange(async (value) => {
						const folder = value.trim().replace(/^\/+|\/+$/g, "");
						settings.backupFolder = folder === "" ? "" : normalizePath(folder);
						await this.host.saveSettings();
					}),
			);
		this.numberSetting(
			containerEl,
			"Merge base storage (MB)",
			"Recent note versions are kept as merge bases up to this size; the least recently used go first.",
			"baseStoreCapMB",
			1,
		);
		this.numberSetting(
			containerEl,
			"Read validity window (minutes)",
			"Refuse tokens an agent read longer ago than this. 0 turns the window off.",
			"readValidityMinutes",
			0,
		);
		this.numberSetting(
			containerEl,
			"Largest request body (MB)",
			"Bigger requests are refused before anything is written.",
			"maxBodyMB",
			1,
		);
		this.numberSetting(
			containerEl,
			"Largest diff in an answer (KB)",
			"Diffs and merge previews sent to agents are cut at a line boundary past this size; " +
				"the agent is told how to fetch the rest.",
			"maxDiffKB",
			1,
		);
		displayTokenlessSettings(containerEl, this.host);
		displayNoteTypeSettings(containerEl, this.host);
		displayConflictSettings(containerEl, this.host);
		displayHistorySettings(
			containerEl,
			this.host,
			this.app,
			(message) => new ConfirmModal(this.app, message, "Add").ask(),
			() => this.display(),
		);
	}

	private displayKeys(containerEl: HTMLElement): void {
		const { settings } = this.host;
		new Setting(containerEl)
			.setName("Agent keys")
			.setDesc("Give each agent its own key; conflicts and history name the key that made each write.")
			.setHeading();
		for (const agentKey of settings.keys) {
			new Setting(containerEl)
				.setClass("revision-guard-key")
				.setName(agentKey.name)
				.setDesc(`Key ending in …${agentKey.key.slice(-6)}, created ${agentKey.created.slice(0, 10)}`)
				.addText((text) =>
					text
						.setPlaceholder("Name")
						.setValue(agentKey.name)
						.onChange(async (value) => {
							if (value.trim() === "") return;
							renameCommandKey(settings, agentKey.name, value.trim());
							agentKey.name = value.trim();
							await this.host.saveSettings();
						}),
				)
				.addButton((button) =>
					button
						.setButtonText("Copy")
						.setTooltip("Copy the key")
						.onClick(async () => {
							await navigator.clipboard.writeText(agentKey.key);
							new Notice(`Copied the key for ${agentKey.name}.`);
						}),
				)
				.addButton((button) =>
					button
						.setButtonText("Regenerate")
						.setTooltip("Replace the key; the old one stops working")
						.onClick(async () => {
							agentKey.key = generateKey();
							agentKey.created = new Date().toISOString();
							await this.host.saveSettings();
							this.display();
						}),
				)
				.addButton((button) =>
					button
						.setButtonText("Revoke")
						.setWarning()
						.onClick(async () => {
							settings.keys = settings.keys.filter((candidate) => candidate !== agentKey);
							renameCommandKey(settings, agentKey.name, null);
							await this.host.saveSettings();
							this.display();
						}),
				);
			displayKeyScope(containerEl, this.host, agentKey);
		}
		const elsewhere = this.host.keysOnOtherDevices?.() ?? [];
		if (elsewhere.length > 0) {
			new Setting(containerEl)
				.setName("Keys from your other devices")
				.setDesc(
					`${elsewhere.join(", ")}: Obsidian keeps each key's value on the device that made ` +
						`it, so these work only there. Agents on this device need a key listed above.`,
				);
		}
		new Setting(containerEl).addButton((button) =>
			button
				.setButtonText("Add key")
				.setCta()
				.onClick(async () => {
					settings.keys.push({ name: uniqueName(settings), key: generateKey(), created: new Date().toISOString() });
					await this.host.saveSettings();
					this.display();
				}),
		);
	}

	private numberSetting(
		containerEl: HTMLElement,
		name: string,
		desc: string,
		key: "baseStoreCapMB" | "readValidityMinutes" | "maxBodyMB" | "maxDiffKB",
		min: number,
	): void {
		new Setting(containerEl)
			.setName(name)
			.setDesc(desc)
			.addText((text) =>
				text.setValue(String(this.host.settings[key])).onChange(async (value) => {
					// Number("") is 0: a field cleared to retype must not save 0 (which turns the read window off).
					const number = value.trim() === "" ? Number.NaN : Number(value);
					if (!Number.isFinite(number) || number < min) return;
					this.host.settings[key] = number;
					await this.host.saveSettings();
				}),
			);
	}
}

function uniqueName(settings: RevisionGuardSettings): string {
	for (let n = settings.keys.length + 1; ; n++) {
		const name = `agent-${n}`;
		if (!settings.keys.some((key) => key.name === name)) return name;
	}
}
