// @vitest-environment happy-dom
/** Each key's scope in the settings tab (ui/settings-scopes.ts): its three lists, edited per key, and what they mean. */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import type { App as ObsidianApp, Plugin as ObsidianPlugin } from "obsidian";
import { App, Plugin, Setting, TextAreaComponent } from "../obsidian-stub";
import { compileKeyScope } from "../../src/core/key-scope";
import type { ScopeSummary } from "../../src/service/scopes/scope-summary";
import { DEFAULT_SETTINGS, type AgentKey } from "../../src/settings";
import { RevisionGuardSettingTab, type SettingsHost } from "../../src/ui/settings-tab";
import { globLines, summarySentence } from "../../src/ui/settings-scopes";

let dir: string;
let names: MockInstance;
let saves: AgentKey[][];

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rg-settings-scopes-"));
	saves = [];
	// Every Setting that is named is recorded (the spy calls through), so a test can find it again by its name.
	names = vi.spyOn(Setting.prototype, "setName");
});

afterEach(() => {
	vi.restoreAllMocks();
	rmSync(dir, { recursive: true, force: true });
});

/** The tab over `keys`, its host counting with the real compile over a fixed list of notes. */
function open(keys: AgentKey[], summary?: (key: AgentKey) => Promise<ScopeSummary | null>): SettingsHost {
	const host: SettingsHost = {
		settings: { ...structuredClone(DEFAULT_SETTINGS), keys },
		saveSettings: async () => void saves.push(structuredClone(host.settings.keys)),
		restartServer: async () => undefined,
		serverStatus: () => "Listening",
		...(summary ? { scopeSummary: summary } : {}),
	};
	const app = new App(dir);
	const tab = new RevisionGuardSettingTab(
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
	return host;
}

const NOTES = ["Projects/a.md", "Projects/b.md", "Drafts/c.md", "Private/d.md"];

/** Counts as the service does, over NOTES (the service's own count is tested in test/service/scope-summary.test.ts). */
async function count(key: AgentKey): Promise<ScopeSummary> {
	const compiled = compileKeyScope(
		key.name,
		{ read: key.read, write: key.write, propose: key.propose },
		{ caseInsensitive: false },
	);
	if (!compiled.ok) return { kind: "not-served", problem: compiled.problem };
	const { ruleOf } = await import("../../src/core/key-scope");
	const access = NOTES.map((path) => ruleOf(compiled.scope, path).access);
	return {
		kind: "counted",
		notes: NOTES.length,
		see: access.filter((a) => a !== "hidden").length,
		change: access.filter((a) => a === "write").length,
		propose: access.filter((a) => a === "propose").length,
	};
}

const named = (name: string) => {
	const found = (names.mock.contexts as Setting[]).filter((setting) => setting.nameText === name);
	expect(found, name).toHaveLength(1);
	return found[0]!;
};
const area = (name: string) =>
	named(name).controls.find((control) => control.kind === "textarea")!.component as TextAreaComponent;
/** The person types `text` into the list, then leaves it (which applies it at once). */
const typeInto = async (name: string, text: string) => {
	await area(name).change(text);
	area(name).blur();
	await settled();
};
const description = (name: string) =>
	named(name).settingEl.querySelector(".setting-item-description")?.textContent ?? "";
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a key's scope in the settings tab", () => {
	it("shows each key's three lists, one glob per line, with the defaults of a key from before scopes", async () => {
		open(
			[
				{ name: "agent", key: "a".repeat(43), created: "2026-01-01" },
				{
					name: "scoped",
					key: "s".repeat(43),
					created: "2026-01-01",
					read: ["Projects/**", "Drafts/**"],
					write: [],
					propose: ["Drafts/**"],
				},
			],
			count,
		);
		expect(area("What agent can see").getValue()).toBe("**");
		expect(area("What agent can change").getValue()).toBe("**");
		expect(area("Where agent only proposes").getValue()).toBe("");
		expect(area("What scoped can see").getValue()).toBe("Projects/**\nDrafts/**");
		await settled();
		expect(description("What agent may do")).toBe("This key can see 4 notes and change 4.");
		expect(description("What scoped may do")).toBe("This key can see 3 notes, change 0, and propose changes to 1.");
	});

	it("saves an edited list, one glob per line, and counts again", async () => {
		const host = open([{ name: "scoped", key: "s".repeat(43), created: "2026-01-01" }], count);
		await typeInto("What scoped can change", "  Projects/**  \n\nDrafts/c.md\n");
		expect(host.settings.keys[0]!.write).toEqual(["Projects/**", "Drafts/c.md"]);
		expect(saves.at(-1)![0]!.write).toEqual(["Projects/**", "Drafts/c.md"]);
		await typeInto("Where scoped only proposes", "Drafts/**");
		expect(description("What scoped may do")).toBe("This key can see 4 notes, change 2, and propose changes to 1.");
	});

	it("says a key whose lists are not valid is not served, and why, naming the field", async () => {
		open([{ name: "broken", key: "b".repeat(43), created: "2026-01-01", write: "Projects/**" }], count);
		expect(area("What broken can change").getValue()).toBe("Projects/**");
		await settled();
		expect(description("What broken may do")).toContain("This key is not served until its lists are fixed.");
		expect(description("What broken may do")).toContain('The write list of the key "broken"');
		await typeInto("What broken can change", "Projects/**\n*.{md,txt}");
		expect(description("What broken may do")).toContain("position 2");
	});

	it("keeps only the newest count when the person types faster than a count finishes", async () => {
		const pending: { key: AgentKey; resolve: (summary: ScopeSummary) => void }[] = [];
		open(
			[{ name: "scoped", key: "s".repeat(43), created: "2026-01-01" }],
			(key) => new Promise((resolve) => pending.push({ key: structuredClone(key), resolve })),
		);
		await settled();
		void typeInto("What scoped can see", "Projects/**");
		await settled();
		// The newer count answers first; the older one, answering late, must not overwrite it.
		pending[1]!.resolve({ kind: "counted", notes: 4, see: 2, change: 2, propose: 0 });
		await settled();
		pending[0]!.resolve({ kind: "counted", notes: 4, see: 4, change: 4, propose: 0 });
		await settled();
		expect(description("What scoped may do")).toBe("This key can see 2 notes and change 2.");
	});

	it("applies a list once the person stops typing: no save, no count and no scope change for each keystroke", async () => {
		vi.useFakeTimers();
		try {
			const counts: string[][] = [];
			const host = open(
				[{ name: "scoped", key: "s".repeat(43), created: "2026-01-01" }],
				async (key) => (counts.push([...((key.write as string[] | undefined) ?? ["**"])]), count(key)),
			);
			await vi.advanceTimersByTimeAsync(0);
			expect(counts).toEqual([["**"]]);
			// "*/Drafts/**" typed a key at a time passes through "*", which would let the key change every note at the root.
			for (const typed of ["*", "*/", "*/D", "*/Drafts/**"]) {
				await area("What scoped can change").change(typed);
				await vi.advanceTimersByTimeAsync(100);
			}
			expect(saves).toEqual([]);
			expect(host.settings.keys[0]!.write).toBeUndefined();
			await vi.advanceTimersByTimeAsync(1000);
			expect(saves).toHaveLength(1);
			expect(host.settings.keys[0]!.write).toEqual(["*/Drafts/**"]);
			expect(counts).toEqual([["**"], ["*/Drafts/**"]]);
		} finally {
			vi.useRealTimers();
		}
	});
});

describe("the words", () => {
	it("reads one glob per line, leaving out blank lines and spaces", () => {
		expect(globLines("a/**\r\n\n  b/*.md  \n")).toEqual(["a/**", "b/*.md"]);
		expect(globLines("")).toEqual([]);
	});

	it("says what the counts mean", () => {
		expect(summarySentence({ kind: "counted", notes: 812, see: 812, change: 40, propose: 120 })).toBe(
			"This key can see 812 notes, change 40, and propose changes to 120.",
		);
		expect(summarySentence({ kind: "counted", notes: 1, see: 1, change: 0, propose: 0 })).toBe(
			"This key can see 1 note and change 0.",
		);
	});
});
