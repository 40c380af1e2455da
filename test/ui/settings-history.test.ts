// @vitest-environment happy-dom
/** History settings: how many agent writes stay undoable, and adding the backup folder to Obsidian's excluded files, with consent. */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App, type ButtonComponent, Setting, type ValueComponent } from "../obsidian-stub";
import { DEFAULT_SETTINGS, type RevisionGuardSettings } from "../../src/settings";
import { displayHistorySettings } from "../../src/ui/settings-history";
import type { SettingsHost } from "../../src/ui/settings-tab";

let dir: string;
let app: App;
let settings: RevisionGuardSettings;
let host: SettingsHost;
let made: Setting[];
let answer: boolean;
let asked: string[];
let container: HTMLElement;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rg-settings-history-"));
	app = new App(dir);
	settings = structuredClone(DEFAULT_SETTINGS);
	host = {
		settings,
		saveSettings: async () => undefined,
		restartServer: async () => undefined,
		serverStatus: () => "",
	};
	made = [];
	asked = [];
	answer = true;
	vi.spyOn(Setting.prototype, "setName").mockImplementation(function (this: Setting, name: string) {
		made.push(this);
		this.nameText = name;
		this.settingEl.createDiv({ cls: "setting-item-name", text: name });
		return this;
	});
});

afterEach(() => {
	vi.restoreAllMocks();
	rmSync(dir, { recursive: true, force: true });
});

function display(): void {
	made = [];
	container = document.createElement("div");
	const confirm = (message: string) => {
		asked.push(message);
		return Promise.resolve(answer);
	};
	displayHistorySettings(container, host, app as unknown as ObsidianApp, confirm, display);
}

function setting(name: string): Setting {
	const found = made.find((candidate) => candidate.nameText === name);
	if (!found) throw new Error(`no setting "${name}"`);
	return found;
}

const description = (name: string) =>
	setting(name).settingEl.querySelector(".setting-item-description")?.textContent ?? "";
const exclusion = "Hide .bak notes from search and the graph";

describe("history settings", () => {
	it("saves how many agent writes stay undoable, ignoring what is not a whole number", async () => {
		display();
		const text = setting("Agent writes kept undoable").controls[0]!.component as ValueComponent<string>;
		await text.change("-1");
		await text.change("");
		expect(settings.undoAgentWrites).toBe(DEFAULT_SETTINGS.undoAgentWrites);
		await text.change("500");
		expect(settings.undoAgentWrites).toBe(500);
	});

	it("asks for a backup folder first when .bak notes are kept beside their notes", () => {
		settings.backupFolder = "";
		display();
		expect(description(exclusion)).toContain("Set a backup folder above first");
		expect(setting(exclusion).controls).toEqual([]);
	});

	it("adds the backup folder to Obsidian's excluded files only after the person agrees, keeping the filters already there", async () => {
		settings.backupFolder = "Agent backups";
		app.vault.setConfig("userIgnoreFilters", ["Archive/"]);
		display();
		const button = setting(exclusion).controls[0]!.component as ButtonComponent;
		answer = false;
		button.buttonEl.click();
		await new Promise((resolve) => setTimeout(resolve, 1));
		expect(asked).toHaveLength(1);
		expect(app.vault.getConfig("userIgnoreFilters")).toEqual(["Archive/"]);
		answer = true;
		button.buttonEl.click();
		await new Promise((resolve) => setTimeout(resolve, 1));
		expect(app.vault.getConfig("userIgnoreFilters")).toEqual(["Archive/", "Agent backups/"]);
		expect(description(exclusion)).toContain("is in Obsidian's excluded files");
	});

	it("says how to do it by hand when Obsidian does not offer its settings to plugins", () => {
		settings.backupFolder = "Agent backups";
		(app.vault as unknown as { getConfig?: unknown }).getConfig = undefined;
		display();
		expect(description(exclusion)).toContain("Settings → Files and links → Excluded files");
	});
});
