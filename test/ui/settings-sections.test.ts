// @vitest-environment happy-dom
/** Conflict handling, note types and the listen address, driven through the obsidian stub's components. */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { DropdownComponent, Setting, ValueComponent } from "../obsidian-stub";
import { DEFAULT_SETTINGS, type RevisionGuardSettings } from "../../src/settings";
import {
	displayConflictSettings,
	displayNetworkSettings,
	displayNoteTypeSettings,
	displayTokenlessSettings,
} from "../../src/ui/settings-sections";
import type { SettingsHost } from "../../src/ui/settings-tab";

let settings: RevisionGuardSettings;
let saves: number;
let made: Setting[];
let host: SettingsHost;

beforeEach(() => {
	settings = structuredClone(DEFAULT_SETTINGS);
	saves = 0;
	made = [];
	host = {
		settings,
		saveSettings: async () => void saves++,
		restartServer: async () => undefined,
		serverStatus: () => "",
	};
	const spy = vi.spyOn(Setting.prototype, "setName");
	spy.mockImplementation(function (this: Setting, name: string) {
		made.push(this);
		this.nameText = name;
		return this;
	});
});

function control<T>(name: string, kind: string): T {
	const setting = made.find((candidate) => candidate.nameText === name);
	if (!setting) throw new Error(`no setting "${name}"`);
	return setting.controls.find((candidate) => candidate.kind === kind)!.component as T;
}

describe("conflict settings", () => {
	it("offers the three conflict actions, notice first, and saves the choice", async () => {
		displayConflictSettings(document.createElement("div"), host);
		const dropdown = control<DropdownComponent>("When an agent's write is refused", "dropdown");
		expect(Object.keys(dropdown.options)).toEqual(["notice", "open", "queue"]);
		expect(dropdown.getValue()).toBe("notice");
		await dropdown.change("open");
		expect(settings.conflictAction).toBe("open");
		expect(saves).toBe(1);
	});

	it("saves what happens to the .bak after resolving, and the automatic merge switch", async () => {
		displayConflictSettings(document.createElement("div"), host);
		await control<DropdownComponent>("After resolving, the agent's .bak note", "dropdown").change("trash");
		await control<ValueComponent<boolean>>("Let agents ask for an automatic merge", "toggle").change(false);
		expect(settings).toMatchObject({ backupAfterResolve: "trash", allowAutoMerge: false });
	});
});

describe("note types", () => {
	it("adds and removes .canvas and .txt, never markdown", async () => {
		displayNoteTypeSettings(document.createElement("div"), host);
		await control<ValueComponent<boolean>>("Serve canvas files (.canvas)", "toggle").change(true);
		await control<ValueComponent<boolean>>("Serve plain text files (.txt)", "toggle").change(true);
		expect(settings.noteExtensions).toEqual(["md", "canvas", "txt"]);
		await control<ValueComponent<boolean>>("Serve canvas files (.canvas)", "toggle").change(false);
		expect(settings.noteExtensions).toEqual(["md", "txt"]);
	});
});

describe("listen address", () => {
	it("accepts an address, ignores anything else, and marks a non-loopback choice with a warning as you type", async () => {
		const container = document.createElement("div");
		displayNetworkSettings(container, host);
		const text = control<ValueComponent<string>>("Listen address", "text");
		await text.change("localhost; rm -rf /");
		expect(settings.bindAddress).toBe("127.0.0.1");
		expect(container.querySelector(".revision-guard-warning")).toBeNull();
		await text.change("192.168.1.5");
		expect(settings.bindAddress).toBe("192.168.1.5");
		expect(container.querySelector(".revision-guard-warning")).not.toBeNull();
		await text.change("127.0.0.1");
		expect(container.querySelector(".revision-guard-warning")).toBeNull();
	});
});

describe("allowed web origins", () => {
	it("keeps only well-formed origins, never a wildcard", async () => {
		displayNetworkSettings(document.createElement("div"), host);
		await control<ValueComponent<string>>("Allowed web origins", "text").change(
			"http://localhost:3000/, *, javascript:alert(1), https://notes.example",
		);
		expect(settings.allowedOrigins).toEqual(["http://localhost:3000", "https://notes.example"]);
	});
});

describe("tokenless clients", () => {
	it("turns the protection off and on, and keeps only whole positive caps", async () => {
		displayTokenlessSettings(document.createElement("div"), host);
		await control<ValueComponent<boolean>>("Protect clients that send no revision", "toggle").change(false);
		expect(settings.protectTokenlessClients).toBe(false);
		const cap = control<ValueComponent<string>>("Remembered reads", "text");
		for (const bad of ["", "0", "-5", "2.5", "lots"]) await cap.change(bad);
		expect(settings.readLedgerCap).toBe(DEFAULT_SETTINGS.readLedgerCap);
		await cap.change("500");
		expect(settings.readLedgerCap).toBe(500);
	});
});
