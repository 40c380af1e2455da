/**
 * Settings for history and undo: how many agent writes stay undoable first, and keeping .bak notes out of the way.
 * Obsidian's "Excluded files" list is not public API (vault.getConfig / setConfig of "userIgnoreFilters"): it is
 * used only when present, only after the person agreed, and only to add the backup folder.
 */
import { Setting, type App } from "obsidian";
import type { SettingsHost } from "./settings-tab";

type VaultConfig = { getConfig?: (key: string) => unknown; setConfig?: (key: string, value: unknown) => void };

export function displayHistorySettings(
	containerEl: HTMLElement,
	host: SettingsHost,
	app: App,
	confirm: (message: string) => Promise<boolean>,
	redisplay: () => void,
): void {
	const { settings } = host;
	new Setting(containerEl).setName("History and undo").setHeading();
	new Setting(containerEl)
		.setName("Agent writes kept undoable")
		.setDesc(
			"The text before and after this many of the latest agent writes (and the texts open " +
				"conflicts need) is kept before anything else in the merge base storage, so undoing " +
				"them keeps working. Older versions stay restorable while the storage has room.",
		)
		.addText((text) =>
			text.setValue(String(settings.undoAgentWrites)).onChange(async (value) => {
				const count = value.trim() === "" ? Number.NaN : Number(value);
				if (!Number.isInteger(count) || count < 0) return;
				settings.undoAgentWrites = count;
				await host.saveSettings();
			}),
		);
	const exclusion = new Setting(containerEl).setName("Hide .bak notes from search and the graph");
	const folder = settings.backupFolder;
	const config = app.vault as unknown as VaultConfig;
	if (folder === "")
		return void exclusion.setDesc(
			"Set a backup folder above first: .bak notes kept beside their notes cannot be excluded as one folder.",
		);
	if (typeof config.getConfig !== "function" || typeof config.setConfig !== "function") {
		return void exclusion.setDesc(`Add "${folder}/" under Settings → Files and links → Excluded files.`);
	}
	const filters = excludedFilters(config);
	if (filters.includes(`${folder}/`) || filters.includes(folder))
		return void exclusion.setDesc(`"${folder}" is in Obsidian's excluded files.`);
	exclusion
		.setDesc(
			`Adds "${folder}/" to Obsidian's excluded files, so search, the graph and the quick ` +
				`switcher skip .bak notes. Dataview and Tasks queries need their own filter for the folder.`,
		)
		.addButton((button) =>
			button.setButtonText("Add to excluded files").onClick(async () => {
				if (
					!(await confirm(
						`Add "${folder}/" to Obsidian's excluded files (Settings → Files and links)? You ` +
							`can remove it there at any time.`,
					))
				)
					return;
				config.setConfig!("userIgnoreFilters", [...excludedFilters(config), `${folder}/`]);
				redisplay();
			}),
		);
}

function excludedFilters(config: VaultConfig): string[] {
	const value = config.getConfig?.("userIgnoreFilters");
	return Array.isArray(value) ? value.filter((filter): filter is string => typeof filter === "string") : [];
}
