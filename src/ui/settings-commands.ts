/**
 * Which agent keys may run Obsidian commands. Off for every key by default: a command changes notes through Obsidian,
 * with no revision, so the guard cannot check it beforehand; it can only credit the key with what changed.
 */
import { Setting } from "obsidian";
import type { RevisionGuardSettings } from "../settings";
import type { SettingsHost } from "./settings-tab";

export function displayCommandSettings(containerEl: HTMLElement, host: SettingsHost): void {
	const { settings } = host;
	new Setting(containerEl)
		.setName("Obsidian commands")
		.setDesc("Agents can list the commands of Obsidian, but run one only with a key you allow here.")
		.setHeading();
	const warning = new Setting(containerEl)
		.setName("Before you allow a key")
		.setDesc(
			"A command can change or delete any note without a revision, so nothing checks it " +
				"first. Your unsaved typing is saved before it runs, and every note it changes is " +
				"listed under the key in the agent activity, where you can undo it when its earlier " +
				"text is kept. Allow only agents you trust with your whole vault.",
		);
	warning.setClass("revision-guard-warning");
	for (const agentKey of settings.keys) {
		new Setting(containerEl).setName(`Let ${agentKey.name} run commands`).addToggle((toggle) =>
			toggle.setValue(settings.commandKeys.includes(agentKey.name)).onChange(async (value) => {
				settings.commandKeys = allowing(settings, agentKey.name, value);
				await host.saveSettings();
			}),
		);
	}
}

/** The allowed key names with `name` added or removed. */
export function allowing(settings: RevisionGuardSettings, name: string, allowed: boolean): string[] {
	const others = settings.commandKeys.filter((candidate) => candidate !== name);
	return allowed ? [...others, name] : others;
}

/** A key renamed keeps its permission; a revoked one loses it (so a new key given the old name does not inherit it). */
export function renameCommandKey(settings: RevisionGuardSettings, from: string, to: string | null): void {
	if (!settings.commandKeys.includes(from)) return;
	const others = settings.commandKeys.filter((candidate) => candidate !== from);
	settings.commandKeys = to === null ? others : [...others, to];
}
