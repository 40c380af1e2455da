// @vitest-environment happy-dom
/** The settings tab, driven through the obsidian stub's Setting, text, toggle and button components. */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import type { App as ObsidianApp, Plugin as ObsidianPlugin } from "obsidian";
import { App, ButtonComponent, Notice, Plugin, Setting, ValueComponent } from "../obsidian-stub";
import { DEFAULT_SETTINGS, type AgentKey, type RevisionGuardSettings } from "../../src/settings";
import { RevisionGuardSettingTab, type SettingsHost } from "../../src/ui/settings-tab";

const KEY_A = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaAAAA";
const KEY_B = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbBBBB";
const OLD_DATE = "2020-01-02T03:04:05.000Z";
const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}$/;

interface FakeHost extends SettingsHost {
	saves: RevisionGuardSettings[];
	restarts: number;
	status: string;
}

let dir: string;
let host: FakeHost;
let tab: RevisionGuardSettingTab;
/** Every call that marks a Setting (name or control), so the Setting objects can be found again. */
let spies: MockInstance[];

function makeHost(keys: AgentKey[]): FakeHost {
	const fake: FakeHost = {
		settings: { ...structuredClone(DEFAULT_SETTINGS), keys },
		saves: [],
		restarts: 0,
		status: "Listening on http://127.0.0.1:27125",
		saveSettings: async () => {
			fake.saves.push(structuredClone(fake.settings));
		},
		restartServer: async () => {
			fake.restarts++;
			fake.status = "Listening on http://127.0.0.1:4000";
		},
		serverStatus: () => fake.status,
	};
	return fake;
}

function open(keys: AgentKey[] = [{ name: "agent", key: KEY_A, created: OLD_DATE }]): void {
	host = makeHost(keys);
	const app = new App(dir);
	const plugin = new Plugin(app, {
		id: "revision-guard",
		name: "Revision Guard",
		version: "0.0.0",
		minAppVersion: "1.0.0",
	});
	// tsc checks against Obsidian's real types; at run time "obsidian" is the stub (see vitest.config.ts).
	tab = new RevisionGuardSettingTab(app as unknown as ObsidianApp, plugin as unknown as ObsidianPlugin, host);
	tab.display();
}

/** The Settings currently shown, in display order (settings from an earlier display() are detached). */
function shown(): Setting[] {
	const made = new Set(spies.flatMap((spy) => spy.mock.contexts as Setting[]));
	const elements = [...tab.containerEl.querySelectorAll(".setting-item")];
	return elements.map((element) => {
		const setting = [...made].find((candidate) => candidate.settingEl === element);
		if (!setting) throw new Error("a setting element without a recorded Setting");
		return setting;
	});
}

function setting(name: string): Setting {
	const found = shown().filter((candidate) => candidate.nameText === name);
	expect(found, `settings named "${name}"`).toHaveLength(1);
	return found[0]!;
}

function textOf(target: Setting): ValueComponent<string> {
	const control = target.controls.find((candidate) => candidate.kind === "text");
	if (!control) throw new Error(`"${target.nameText}" has no text field`);
	return control.component as ValueComponent<string>;
}

function toggleOf(target: Setting): ValueComponent<boolean> {
	const control = target.controls.find((candidate) => candidate.kind === "toggle");
	if (!control) throw new Error(`"${target.nameText}" has no toggle`);
	return control.component as ValueComponent<boolean>;
}

function buttonOf(target: Setting, label: string): ButtonComponent {
	const button = target.controls
		.filter((candidate) => candidate.kind === "button")
		.map((candidate) => candidate.component as ButtonComponent)
		.find((candidate) => candidate.buttonEl.textContent === label);
	if (!button) throw new Error(`"${target.nameText}" has no "${label}" button`);
	return button;
}

async function click(button: ButtonComponent): Promise<void> {
	expect(button.clickHandler).not.toBeNull();
	await button.clickHandler!();
}

function addKeyButton(): ButtonComponent {
	const found = shown().flatMap((candidate) =>
		candidate.controls.filter(
			(control) =>
				control.kind === "button" && (control.component as ButtonComponent).buttonEl.textContent === "Add key",
		),
	);
	expect(found).toHaveLength(1);
	return found[0]!.component as ButtonComponent;
}

function descriptionOf(target: Setting): string {
	return target.settingEl.querySelector(".setting-item-description")?.textContent ?? "";
}

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rg-settings-tab-"));
	spies = [
		vi.spyOn(Setting.prototype, "setName"),
		vi.spyOn(Setting.prototype, "addText"),
		vi.spyOn(Setting.prototype, "addToggle"),
		vi.spyOn(Setting.prototype, "addButton"),
	];
	Notice.shown.length = 0;
});

afterEach(() => {
	vi.restoreAllMocks();
	rmSync(dir, { recursive: true, force: true });
});

describe("the status line", () => {
	it("shows what the host says about the server", () => {
		open();
		expect(descriptionOf(setting("Status"))).toBe("Listening on http://127.0.0.1:27125");
	});

	it("opens the tab with no heading over the first section (Obsidian's guidelines), then headings between sections", () => {
		open();
		const all = shown();
		expect(all[0]!.nameText).toBe("Status");
		expect(all[0]!.settingEl.classList.contains("setting-item-heading")).toBe(false);
		expect(
			all.filter((candidate) => candidate.settingEl.classList.contains("setting-item-heading")).length,
		).toBeGreaterThan(0);
	});
});

describe("the port", () => {
	it("shows the current port", () => {
		open();
		expect(textOf(setting("Port")).getValue()).toBe("27125");
	});

	it.each(["abc", "", "0", "80", "1023", "65536", "99999", "3000.5", "-2000", "NaN"])(
		"ignores %j and saves nothing",
		async (value) => {
			open();
			await textOf(setting("Port")).change(value);
			expect(host.settings.port).toBe(27125);
			expect(host.saves).toEqual([]);
		},
	);

	it.each([
		["1024", 1024],
		["8080", 8080],
		["65535", 65535],
	])("accepts %s and saves it", async (value, port) => {
		open();
		await textOf(setting("Port")).change(value);
		expect(host.settings.port).toBe(port);
		expect(host.saves.map((saved) => saved.port)).toEqual([port]);
		expect(host.restarts).toBe(0);
	});

	it("restarts the server on Apply and shows the new status", async () => {
		open();
		await textOf(setting("Port")).change("4000");
		await click(buttonOf(setting("Port"), "Apply"));
		expect(host.restarts).toBe(1);
		expect(descriptionOf(setting("Status"))).toBe("Listening on http://127.0.0.1:4000");
	});
});

describe("agent keys", () => {
	it("lists keys made on another device, saying they work only there", () => {
		host = makeHost([{ name: "agent", key: KEY_A, created: OLD_DATE }]);
		host.keysOnOtherDevices = () => ["claude", "laptop"];
		const app = new App(dir);
		tab = new RevisionGuardSettingTab(
			app as unknown as ObsidianApp,
			new Plugin(app, {
				id: "revision-guard",
				name: "Revision Guard",
				version: "0.0.0",
				minAppVersion: "1.0.0",
			}) as unknown as ObsidianPlugin,
			host,
		);
		tab.display();
		expect(descriptionOf(setting("Keys from your other devices"))).toBe(
			"claude, laptop: Obsidian keeps each key's value on the device that made it, so these work only there. Agents on this device need a key listed above.",
		);
	});

	it("shows no such line when every key is this device's", () => {
		open();
		expect(shown().filter((candidate) => candidate.nameText === "Keys from your other devices")).toHaveLength(0);
	});

	it("lists each key by name with the end of the key and its creation date", () => {
		open([
			{ name: "claude-code", key: KEY_A, created: OLD_DATE },
			{ name: "nightly", key: KEY_B, created: "2026-11-21T10:00:00.000Z" },
		]);
		expect(descriptionOf(setting("claude-code"))).toBe(`Key ending in …${KEY_A.slice(-6)}, created 2020-01-02`);
		expect(descriptionOf(setting("nightly"))).toBe(`Key ending in …${KEY_B.slice(-6)}, created 2026-11-21`);
		expect(textOf(setting("nightly")).getValue()).toBe("nightly");
	});

	it("adds a key with a fresh 43-character base64url key and a unique name, and saves", async () => {
		open();
		const before = Date.now();
		await click(addKeyButton());
		expect(host.settings.keys).toHaveLength(2);
		const added = host.settings.keys[1]!;
		expect(added.name).toBe("agent-2");
		expect(added.key).toMatch(BASE64URL_KEY);
		expect(added.key).not.toBe(KEY_A);
		expect(Date.parse(added.created)).toBeGreaterThanOrEqual(before - 1000);
		expect(Date.parse(added.created)).toBeLessThanOrEqual(Date.now() + 1000);
		expect(host.saves).toHaveLength(1);
		expect(host.saves[0]!.keys).toEqual(host.settings.keys);
		// The tab is redrawn with the new key in it.
		expect(descriptionOf(setting("agent-2"))).toContain(added.key.slice(-6));
	});

	it("never reuses a name that is taken, and every added key is different", async () => {
		open([
			{ name: "agent-2", key: KEY_A, created: OLD_DATE },
			{ name: "agent-3", key: KEY_B, created: OLD_DATE },
		]);
		await click(addKeyButton());
		await click(addKeyButton());
		const names = host.settings.keys.map((key) => key.name);
		expect(names).toEqual(["agent-2", "agent-3", "agent-4", "agent-5"]);
		expect(new Set(host.settings.keys.map((key) => key.key)).size).toBe(4);
		for (const key of host.settings.keys.slice(2)) expect(key.key).toMatch(BASE64URL_KEY);
	});

	it.each(["", "   ", "\t"])("ignores a blank rename %j", async (value) => {
		open();
		await textOf(setting("agent")).change(value);
		expect(host.settings.keys[0]!.name).toBe("agent");
		expect(host.saves).toEqual([]);
	});

	it("renames a key, trimmed, and saves", async () => {
		open();
		await textOf(setting("agent")).change("  claude-code ");
		expect(host.settings.keys[0]).toEqual({ name: "claude-code", key: KEY_A, created: OLD_DATE });
		expect(host.saves.map((saved) => saved.keys[0]!.name)).toEqual(["claude-code"]);
	});

	it("regenerates a key: a new key and creation time, saved and shown", async () => {
		open([
			{ name: "agent", key: KEY_A, created: OLD_DATE },
			{ name: "other", key: KEY_B, created: OLD_DATE },
		]);
		await click(buttonOf(setting("agent"), "Regenerate"));
		const [regenerated, other] = host.settings.keys;
		expect(regenerated!.name).toBe("agent");
		expect(regenerated!.key).toMatch(BASE64URL_KEY);
		expect(regenerated!.key).not.toBe(KEY_A);
		expect(regenerated!.created).not.toBe(OLD_DATE);
		expect(Math.abs(Date.parse(regenerated!.created) - Date.now())).toBeLessThan(5000);
		expect(other).toEqual({ name: "other", key: KEY_B, created: OLD_DATE });
		expect(host.saves).toHaveLength(1);
		expect(host.saves[0]!.keys[0]!.key).toBe(regenerated!.key);
		expect(descriptionOf(setting("agent"))).toContain(`…${regenerated!.key.slice(-6)}`);
	});

	it("revokes only the chosen key, saves, and stops showing it", async () => {
		open([
			{ name: "agent", key: KEY_A, created: OLD_DATE },
			{ name: "other", key: KEY_B, created: OLD_DATE },
		]);
		await click(buttonOf(setting("agent"), "Revoke"));
		expect(host.settings.keys).toEqual([{ name: "other", key: KEY_B, created: OLD_DATE }]);
		expect(host.saves.map((saved) => saved.keys.map((key) => key.name))).toEqual([["other"]]);
		expect(shown().filter((candidate) => candidate.nameText === "agent")).toEqual([]);
		expect(setting("other")).toBeDefined();
	});

	it("copies a key to the clipboard and says whose it is", async () => {
		const writeText = vi.fn(async (_text: string) => undefined);
		vi.stubGlobal("navigator", { clipboard: { writeText } });
		try {
			open();
			await click(buttonOf(setting("agent"), "Copy"));
		} finally {
			vi.unstubAllGlobals();
		}
		expect(writeText).toHaveBeenCalledWith(KEY_A);
		expect(Notice.shown.map((notice) => notice.message)).toEqual(["Copied the key for agent."]);
		expect(host.saves).toEqual([]);
	});
});

describe("Obsidian commands", () => {
	const two = (): AgentKey[] => [
		{ name: "agent", key: KEY_A, created: OLD_DATE },
		{ name: "other", key: KEY_B, created: OLD_DATE },
	];

	it("shows a warning and one toggle per key, every key off by default", () => {
		open(two());
		expect(setting("Before you allow a key").settingEl.classList.contains("revision-guard-warning")).toBe(true);
		expect(descriptionOf(setting("Before you allow a key"))).toContain("without a revision");
		expect(toggleOf(setting("Let agent run commands")).getValue()).toBe(false);
		expect(toggleOf(setting("Let other run commands")).getValue()).toBe(false);
	});

	it("allows and disallows one key by name, and saves", async () => {
		open(two());
		await toggleOf(setting("Let other run commands")).change(true);
		expect(host.settings.commandKeys).toEqual(["other"]);
		await toggleOf(setting("Let other run commands")).change(false);
		expect(host.saves.map((saved) => saved.commandKeys)).toEqual([["other"], []]);
	});

	it("keeps a renamed key's permission, and drops a revoked key's (a new key of that name does not inherit it)", async () => {
		open(two());
		host.settings.commandKeys = ["agent"];
		await textOf(setting("agent")).change("claude");
		expect(host.settings.commandKeys).toEqual(["claude"]);
		tab.display();
		expect(toggleOf(setting("Let claude run commands")).getValue()).toBe(true);
		await click(buttonOf(setting("claude"), "Revoke"));
		expect(host.settings.commandKeys).toEqual([]);
	});
});

describe("protection", () => {
	it("shows and saves the revision-token requirement", async () => {
		open();
		const toggle = toggleOf(setting("Require a revision token on updates"));
		expect(toggle.getValue()).toBe(true);
		await toggle.change(false);
		expect(host.settings.requireToken).toBe(false);
		await toggle.change(true);
		expect(host.settings.requireToken).toBe(true);
		expect(host.saves.map((saved) => saved.requireToken)).toEqual([false, true]);
	});

	it.each([
		["Backups", "Backups"],
		["/Backups/Agents/", "Backups/Agents"],
		["  //Backups//  ", "Backups"],
		["/", ""],
		["", ""],
	])("saves the backup folder %j as %j", async (value, saved) => {
		open();
		host.settings.backupFolder = "previous";
		await textOf(setting("Backup folder")).change(value);
		expect(host.settings.backupFolder).toBe(saved);
		expect(host.saves.map((settings) => settings.backupFolder)).toEqual([saved]);
	});

	const numbers = [
		{
			name: "Merge base storage (MB)",
			key: "baseStoreCapMB",
			min: 1,
			valid: ["1", "128", "2.5"],
			invalid: ["0", "0.5", "-1", "abc", "NaN", "Infinity", "", " "],
		},
		{
			name: "Read validity window (minutes)",
			key: "readValidityMinutes",
			min: 0,
			valid: ["0", "15", "1.5"],
			invalid: ["-1", "-0.5", "abc", "NaN", "-Infinity", "Infinity", "", " "],
		},
		{
			name: "Largest request body (MB)",
			key: "maxBodyMB",
			min: 1,
			valid: ["1", "32"],
			invalid: ["0", "0.99", "-5", "x1", "NaN", "Infinity", "", " "],
		},
	] as const;

	for (const { name, key, valid, invalid } of numbers) {
		it(`shows "${name}" from the settings`, () => {
			open();
			expect(textOf(setting(name)).getValue()).toBe(String(DEFAULT_SETTINGS[key]));
		});

		it.each(invalid)(`ignores %j for "${name}"`, async (value) => {
			open();
			await textOf(setting(name)).change(value);
			expect(host.settings[key]).toBe(DEFAULT_SETTINGS[key]);
			expect(host.saves).toEqual([]);
		});

		it.each(valid)(`saves %j for "${name}"`, async (value) => {
			open();
			await textOf(setting(name)).change(value);
			expect(host.settings[key]).toBe(Number(value));
			expect(host.saves.map((saved) => saved[key])).toEqual([Number(value)]);
		});
	}
});

describe("wording", () => {
	/** Words that keep their capital inside a sentence. All-caps acronyms (API, MB) are always fine. */
	const PROPER_NOUNS = new Set(["Obsidian", "Revision", "Guard"]);

	function problems(text: string): string[] {
		const found: string[] = [];
		for (const sentence of text.trim().split(/(?<=[.!?])\s+/)) {
			if (/^[a-z]/.test(sentence)) found.push(`"${sentence}" starts in lower case`);
			for (const word of sentence.split(/\s+/).slice(1)) {
				const bare = word.replace(/^[^A-Za-z]+|[^A-Za-z]+$/g, "");
				if (/^[A-Z][a-z]/.test(bare) && !PROPER_NOUNS.has(bare)) found.push(`"${bare}" in "${text}" is capitalized`);
			}
		}
		return found;
	}

	it("catches Title Case (the check itself)", () => {
		expect(problems("Require A Revision Token")).not.toEqual([]);
		expect(problems("merge base storage")).not.toEqual([]);
		expect(problems("Largest request body (MB). Bigger ones are refused.")).toEqual([]);
	});

	it("writes every name, description, button, tooltip and placeholder in sentence case", () => {
		const placeholders = vi.spyOn(ValueComponent.prototype, "setPlaceholder");
		const tooltips = vi.spyOn(ButtonComponent.prototype, "setTooltip");
		open();
		const settingTexts = shown()
			.filter((candidate) => !candidate.settingEl.classList.contains("revision-guard-key"))
			.flatMap((candidate) =>
				[...candidate.settingEl.querySelectorAll(".setting-item-name, .setting-item-description")].map(
					(element) => element.textContent ?? "",
				),
			);
		const keyDescriptions = [...tab.containerEl.querySelectorAll(".revision-guard-key .setting-item-description")].map(
			(element) => element.textContent ?? "",
		);
		const buttons = [...tab.containerEl.querySelectorAll("button")].map((element) => element.textContent ?? "");
		const extras = [...placeholders.mock.calls, ...tooltips.mock.calls].map((args) => String((args as unknown[])[0]));
		const texts = [...settingTexts, ...keyDescriptions, ...buttons, ...extras];
		expect(settingTexts).toContain("Require a revision token on updates");
		expect(buttons).toEqual(expect.arrayContaining(["Apply", "Copy", "Regenerate", "Revoke", "Add key"]));
		expect(extras).toEqual(expect.arrayContaining(["Name", "Beside the note", "Copy the key"]));
		expect(texts.flatMap(problems)).toEqual([]);
	});
});
