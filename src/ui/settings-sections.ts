/** Settings sections beyond the basics: conflict handling, note types, and the listen address. */
import { Setting } from "obsidian";
import type { RevisionGuardSettings } from "../settings";
import type { SettingsHost } from "./settings-tab";

/** Optional note types an agent may read and write, besides markdown. */
const EXTRA_NOTE_TYPES: { extension: string; name: string }[] = [
	{ extension: "canvas", name: "Serve canvas files (.canvas)" },
	{ extension: "txt", name: "Serve plain text files (.txt)" },
];

export function displayConflictSettings(containerEl: HTMLElement, host: SettingsHost): void {
	const { settings } = host;
	new Setting(containerEl).setName("Conflicts").setHeading();
	new Setting(containerEl)
		.setName("When an agent's write is refused")
		.setDesc("Open the merge window at once, show a notice with a resolve button, or only count it in the status bar.")
		.addDropdown((dropdown) =>
			dropdown
				.addOptions({ notice: "Show a notice", open: "Open the merge window", queue: "Only count it" })
				.setValue(settings.conflictAction)
				.onChange(async (value) => {
					settings.conflictAction = value as RevisionGuardSettings["conflictAction"];
					await host.saveSettings();
				}),
		);
	new Setting(containerEl)
		.setName("After resolving, the agent's .bak note")
		.setDesc(
			"Keep it, or move it to the trash once you resolve the conflict in the merge window " +
				"or accept the proposal. A .bak you edited, and a rejected proposal's, are always kept.",
		)
		.addDropdown((dropdown) =>
			dropdown
				.addOptions({ keep: "Keep it", trash: "Move it to the trash" })
				.setValue(settings.backupAfterResolve)
				.onChange(async (value) => {
					settings.backupAfterResolve = value as RevisionGuardSettings["backupAfterResolve"];
					await host.saveSettings();
				}),
		);
	new Setting(containerEl)
		.setName("Let agents ask for an automatic merge")
		.setDesc(
			"An agent whose revision is stale may ask to merge instead of being refused. Only " +
				"clean merges are written; anything that overlaps is still refused and kept.",
		)
		.addToggle((toggle) =>
			toggle.setValue(settings.allowAutoMerge).onChange(async (value) => {
				settings.allowAutoMerge = value;
				await host.saveSettings();
			}),
		);
	new Setting(containerEl)
		.setName("Merge what other programs drop")
		.setDesc(
			"When a program that saves files directly (an agent's file tool, a script, a sync " +
				"tool) writes over edits saved before it, merge them back at once when the merge is " +
				"clean. Either way the dropped text is kept as a .bak note and you are told.",
		)
		.addToggle((toggle) =>
			toggle.setValue(settings.autoMergeOutsideSaves).onChange(async (value) => {
				settings.autoMergeOutsideSaves = value;
				await host.saveSettings();
			}),
		);
}

export function displayTokenlessSettings(containerEl: HTMLElement, host: SettingsHost): void {
	const { settings } = host;
	new Setting(containerEl)
		.setName("Protect clients that send no revision")
		.setDesc(
			"Many agent tools write without a revision. Hold each one to the version it last " +
				"read: its write goes through only if nobody changed the note since. When off, such " +
				"writes are refused until they send one.",
		)
		.addToggle((toggle) =>
			toggle.setValue(settings.protectTokenlessClients).onChange(async (value) => {
				settings.protectTokenlessClients = value;
				await host.saveSettings();
			}),
		);
	new Setting(containerEl)
		.setName("Remembered reads")
		.setDesc(
			"How many note reads are remembered for that; the oldest are forgotten first, and " +
				"a forgotten read only means the client must read again.",
		)
		.addText((text) =>
			text.setValue(String(settings.readLedgerCap)).onChange(async (value) => {
				const cap = Number(value);
				if (value.trim() === "" || !Number.isInteger(cap) || cap < 1) return;
				settings.readLedgerCap = cap;
				await host.saveSettings();
			}),
		);
}

export function displayNoteTypeSettings(containerEl: HTMLElement, host: SettingsHost): void {
	const { settings } = host;
	for (const type of EXTRA_NOTE_TYPES) {
		new Setting(containerEl)
			.setName(type.name)
			.setDesc("Markdown notes are always served. Other files never are.")
			.addToggle((toggle) =>
				toggle.setValue(settings.noteExtensions.includes(type.extension)).onChange(async (value) => {
					const others = settings.noteExtensions.filter((extension) => extension !== type.extension);
					settings.noteExtensions = value ? [...others, type.extension] : others;
					await host.saveSettings();
				}),
			);
	}
}

export function displayNetworkSettings(containerEl: HTMLElement, host: SettingsHost): void {
	const { settings } = host;
	const setting = new Setting(containerEl)
		.setName("Listen address")
		.setDesc(
			"127.0.0.1 keeps the API on this computer. Another address exposes it to your network, " +
				"where keys travel unencrypted. Apply with the port's button.",
		)
		.addText((text) =>
			text
				.setPlaceholder("127.0.0.1")
				.setValue(settings.bindAddress)
				.onChange(async (value) => {
					const address = value.trim();
					if (!/^[0-9a-fA-F.:]+$/.test(address)) return;
					settings.bindAddress = address;
					await host.saveSettings();
					// Only the warning is updated while typing; redrawing the tab would take the focus away.
					setting.settingEl.toggleClass("revision-guard-warning", address !== "127.0.0.1");
				}),
		);
	if (settings.bindAddress !== "127.0.0.1") setting.setClass("revision-guard-warning");
	new Setting(containerEl)
		.setName("Allowed web origins")
		.setDesc(
			"Web pages may not call the API. List the origins of pages you trust with your notes, separated by commas.",
		)
		.addText((text) =>
			text
				.setPlaceholder("None")
				.setValue(settings.allowedOrigins.join(", "))
				.onChange(async (value) => {
					// "*" is never accepted: a grant always names one origin.
					settings.allowedOrigins = value
						.split(",")
						.map((origin) => origin.trim().replace(/\/+$/, ""))
						.filter((origin) => /^https?:\/\/[^\s/]+$/.test(origin));
					await host.saveSettings();
				}),
		);
}
