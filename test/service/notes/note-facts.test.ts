import { describe, expect, it } from "vitest";
import { MAX_RENDERED_MARKDOWN, NoteFacts } from "../../../src/service/notes/note-facts";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import type { NoteIndex } from "../../../src/vault/note-index";

/** Every note visible: these tests are about the search and facts themselves, not a key's scope. */
const ALL = (): boolean => true;

const policy = { configDir: ".obsidian", noteExtensions: ["md"], deniedFolders: ["Private"] };
const settings = { ...DEFAULT_SETTINGS, backupFolder: "Agent backups" };

/** An index that answers with fixed facts, and records which notes `include` admitted. */
function fakeIndex(overrides: Partial<NoteIndex> = {}): NoteIndex & { admitted: string[] } {
	const candidates = [
		"a.md",
		"Private/b.md",
		"a.20260101-000000.bak.md",
		"Agent backups/a.md",
		".hidden/c.md",
		"d.txt",
		"e.md",
	];
	const admitted: string[] = [];
	return {
		admitted,
		async tagUses(include) {
			admitted.push(...candidates.filter(include));
			return [["x", "y/z"], ["x"]];
		},
		async links(_path, linkpaths, include) {
			admitted.push(...candidates.filter(include));
			return {
				links: ["Plans/a.md", "Private/secret.md", ".obsidian/x.md", "pic.png"],
				unresolvedLinks: [...linkpaths],
				backlinks: ["e.md"],
			};
		},
		...overrides,
	};
}

describe("NoteFacts", () => {
	it("counts tags of served markdown notes only: no denied, hidden or config folder, no .bak note", async () => {
		const index = fakeIndex();
		const facts = new NoteFacts({ index, pathPolicy: () => policy, settings: () => settings });
		expect(await facts.tags(ALL)).toEqual([
			{ name: "x", count: 2 },
			{ name: "y", count: 1 },
			{ name: "y/z", count: 1 },
		]);
		expect(index.admitted).toEqual(["a.md", "e.md"]);
	});

	it("reads the links out of the content it is given, and shows none leading into a folder that is never served", async () => {
		const index = fakeIndex();
		const facts = new NoteFacts({ index, pathPolicy: () => policy, settings: () => settings });
		expect(await facts.links(ALL, "a.md", "[[One]] and [two](Two.md)\n")).toEqual({
			links: ["Plans/a.md", "pic.png"],
			unresolvedLinks: ["One", "Two.md"],
			backlinks: ["e.md"],
		});
		expect(index.admitted).toEqual(["a.md", "e.md"]);
	});

	it("renders through the index when it can, and says why when it cannot", async () => {
		const plain = new NoteFacts({ index: fakeIndex(), pathPolicy: () => policy, settings: () => settings });
		expect(await plain.renderHtml("a.md", "# A")).toEqual({ kind: "unavailable" });
		const rendering = new NoteFacts({
			index: fakeIndex({
				renderHtml: async (_path, markdown, max) => (markdown.length > max / 1000 ? null : `<p>${markdown}</p>`),
			}),
			pathPolicy: () => policy,
			settings: () => settings,
		});
		expect(await rendering.renderHtml("a.md", "hi")).toEqual({ kind: "html", html: "<p>hi</p>" });
		expect(await rendering.renderHtml("a.md", "x".repeat(MAX_RENDERED_MARKDOWN + 1))).toEqual({
			kind: "too-large",
			limit: "markdown",
		});
		expect(await rendering.renderHtml("a.md", "x".repeat(10_000))).toEqual({ kind: "too-large", limit: "html" });
	});
});
