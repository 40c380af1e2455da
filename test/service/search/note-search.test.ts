import { describe, expect, it } from "vitest";
import type { PathPolicy } from "../../../src/core/path";
import { revisionOf } from "../../../src/core/revision";
import { changeTagOf, partTokenOf } from "../../../src/core/revision-tokens";
import { NoteSearch, type NoteSearchDeps, type SearchPageRequest } from "../../../src/service/search/note-search";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import type { SearchHost } from "../../../src/vault/search-host";
import { MemoryGateway } from "../../helpers/memory-gateway";

/** Every note visible: these tests are about the search and facts themselves, not a key's scope. */
const ALL = (): boolean => true;

const policy: PathPolicy = { configDir: ".obsidian", noteExtensions: ["md"], deniedFolders: ["Private"] };
const all: SearchPageRequest = { limit: 1000, maxBytes: 1 << 20 };

function searchOf(
	notes: Record<string, string>,
	deps: Partial<NoteSearchDeps> = {},
	gateway = new MemoryGateway(notes),
) {
	const settings = { ...structuredClone(DEFAULT_SETTINGS), backupFolder: "" };
	return new NoteSearch({
		gateway,
		pathPolicy: () => policy,
		settings: () => settings,
		yieldToHost: async () => undefined,
		...deps,
	});
}

const VAULT = {
	"Plan.md": "---\ntags: [work]\nstatus: done\n---\n# Plan\n\nThe budget for [[Spec]] and [[Missing]].\n",
	"Projects/Spec.md": "Spec of the budget, the whole budget. #draft\nSee [[Plan]].\n",
	"Projects/Budget.md": "Numbers only.\n",
	"Plan.20261121-101500.bak.md": "The budget an agent wrote.\n",
	"Private/Secret.md": "budget secret\n",
	".hidden/Note.md": "budget hidden\n",
	"image.png": "budget",
};

describe("NoteSearch.simple", () => {
	it("finds every served note holding every word, best first, never in hidden, private or config folders, nor .bak notes", async () => {
		const page = await searchOf(VAULT).simple(ALL, "budget", 10, all);
		if (page.kind !== "page") throw new Error(page.kind);
		// Two occurrences first, then one each in path order.
		expect(page.hits.map((hit) => [hit.filename, hit.score])).toEqual([
			["Projects/Spec.md", 2],
			["Plan.md", 1],
			["Projects/Budget.md", 1],
		]);
		expect(page.hits[2]!.matches).toEqual([{ match: { start: 0, end: 6, source: "filename" }, context: "Budget" }]);
		expect(page.total).toBe(3);
		expect(page.nextCursor).toBeNull();
	});

	it("searches .bak notes when asked", async () => {
		const page = await searchOf(VAULT).simple(ALL, "agent", 10, { ...all, includeBackups: true });
		expect(page.kind === "page" && page.hits.map((hit) => hit.filename)).toEqual(["Plan.20261121-101500.bak.md"]);
	});

	it("pages with a cursor bound to its query", async () => {
		const search = searchOf(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`n${i}.md`, "word"])));
		const served: string[] = [];
		let cursor: string | undefined;
		do {
			const page = await search.simple(ALL, "word", 10, { ...all, limit: 3, ...(cursor ? { cursor } : {}) });
			if (page.kind !== "page") throw new Error(page.kind);
			served.push(...page.hits.map((hit) => hit.filename));
			cursor = page.nextCursor ?? undefined;
			if (cursor) expect(await search.simple(ALL, "other", 10, { ...all, cursor })).toEqual({ kind: "bad-cursor" });
		} while (cursor);
		expect(served).toEqual(["n0.md", "n1.md", "n2.md", "n3.md", "n4.md", "n5.md", "n6.md"]);
		expect(await search.simple(ALL, "word", 10, { ...all, cursor: "not a cursor" })).toEqual({ kind: "bad-cursor" });
	});

	it("keeps a page within its byte bound", async () => {
		const search = searchOf(
			Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`n${i}.md`, "word ".repeat(200)])),
		);
		const page = await search.simple(ALL, "word", 100, { limit: 1000, maxBytes: 64 * 1024 });
		if (page.kind !== "page") throw new Error(page.kind);
		expect(JSON.stringify(page.hits).length).toBeLessThanOrEqual(64 * 1024);
		expect(page.hits.length).toBeGreaterThan(0);
		expect(page.nextCursor).not.toBeNull();
		expect(page.total).toBe(50);
	});

	it("gives the host a turn between notes once a slice has run its time (counted, with a clock the test moves)", async () => {
		let now = 0;
		let turns = 0;
		const gateway = new MemoryGateway(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`n${i}.md`, "word"])));
		const read = gateway.read.bind(gateway);
		gateway.read = async (path) => {
			now += 10; // each note "takes" longer than a slice
			return read(path);
		};
		const search = searchOf({}, { clock: () => now, yieldToHost: async () => void turns++ }, gateway);
		await search.simple(ALL, "word", 10, all);
		expect(turns).toBe(20);
		turns = 0;
		gateway.read = read; // a clock that stands still: no slice runs out, no turn is needed
		await search.simple(ALL, "word", 10, all);
		expect(turns).toBe(0);
	});
});

describe("NoteSearch.logic", () => {
	const logic = async (query: unknown, deps: Partial<NoteSearchDeps> = {}) =>
		searchOf(VAULT, deps).logic(ALL, query, all);

	it("inside Obsidian, resolves a not yet indexed note's links by Obsidian's own resolution, not as unresolved", async () => {
		const gateway = new MemoryGateway(VAULT);
		const resolve = (linkpath: string) => ({ Spec: "Projects/Spec.md", Hidden: ".hidden/Note.md" })[linkpath] ?? null;
		const host: SearchHost = {
			prepareSimpleSearch: () => () => null,
			readText: async (path) => (await gateway.read(path))?.content ?? null,
			metadata: () => null,
			resolvedLinks: () => ({}),
			resolveLink: resolve,
			dataview: () => null,
		};
		Object.assign(gateway, { search: host });
		gateway.notes.set("Plan.md", VAULT["Plan.md"].replace("[[Missing]]", "[[Missing]], [[Hidden]]"));
		const page = await searchOf(VAULT, {}, gateway).logic(
			ALL,
			{ if: [{ "==": [{ var: "path" }, "Plan.md"] }, [{ var: "links" }, { var: "unresolvedLinks" }], false] },
			all,
		);
		expect(page).toMatchObject({ hits: [{ filename: "Plan.md", result: [["Projects/Spec.md"], ["Missing"]] }] });
	});

	it("evaluates each note's metadata as the Local REST API builds it, headless", async () => {
		expect(await logic({ in: ["work", { var: "tags" }] })).toMatchObject({
			kind: "page",
			hits: [{ filename: "Plan.md", result: true }],
		});
		expect(await logic({ "==": [{ var: "frontmatter.status" }, "done"] })).toMatchObject({
			hits: [{ filename: "Plan.md" }],
		});
		expect(await logic({ in: ["draft", { var: "tags" }] })).toMatchObject({ hits: [{ filename: "Projects/Spec.md" }] });
		expect(
			await logic({ if: [{ in: ["Projects/Spec.md", { var: "links" }] }, { var: "unresolvedLinks" }, false] }),
		).toMatchObject({ hits: [{ filename: "Plan.md", result: ["Missing"] }] });
		expect(await logic({ var: "backlinks" })).toMatchObject({
			hits: [
				{ filename: "Plan.md", result: ["Projects/Spec.md"] },
				{ filename: "Projects/Spec.md", result: ["Plan.md"] },
			],
		});
		expect(await logic({ glob: ["Projects/*", { var: "path" }] })).toMatchObject({
			hits: [{ filename: "Projects/Budget.md" }, { filename: "Projects/Spec.md" }],
		});
		expect(await logic({ regexp: ["^Numbers", { var: "content" }] })).toMatchObject({
			hits: [{ filename: "Projects/Budget.md" }],
		});
		expect(await logic({ ">": [{ var: "stat.size" }, 60] })).toMatchObject({ hits: [{ filename: "Plan.md" }] });
	});

	it("hands the whole note (its content, never a revision) to a query that asks for it", async () => {
		const answer = await logic({ var: "" });
		if (answer.kind !== "page") throw new Error(answer.kind);
		expect(answer.hits.map((hit) => hit.filename)).toEqual(["Plan.md", "Projects/Budget.md", "Projects/Spec.md"]);
		expect(Object.keys(answer.hits[0]!.result as object).sort()).toEqual([
			"backlinks",
			"content",
			"frontmatter",
			"links",
			"path",
			"stat",
			"tags",
			"unresolvedLinks",
		]);
		const text = JSON.stringify(answer);
		for (const content of Object.values(VAULT))
			for (const token of [revisionOf(content), partTokenOf(revisionOf(content)), changeTagOf(revisionOf(content))])
				expect(text).not.toContain(token);
	});

	it("refuses a query it cannot evaluate, saying why and where", async () => {
		expect(await logic({ nope: [1] })).toEqual({
			kind: "invalid-query",
			reason: "Unrecognized operation nope (while processing Plan.md).",
		});
		expect(await logic({ regexp: ["(a)\\1", { var: "path" }] })).toMatchObject({
			kind: "invalid-query",
			reason: expect.stringContaining("back-references"),
		});
		let deep: unknown = 1;
		for (let i = 0; i < 70; i++) deep = [deep];
		expect(await logic(deep)).toMatchObject({
			kind: "invalid-query",
			reason: expect.stringContaining("nested more than"),
		});
	});

	it("stops a query that does more work than its budget allows", async () => {
		expect(await logic({ regexp: ["(a|b|c|d)*z", { var: "content" }] }, { logicBudget: 100 })).toMatchObject({
			kind: "too-costly",
			reason: expect.stringContaining("stopped while processing"),
		});
	});
});

describe("NoteSearch.dql", () => {
	it("says a plain folder has no Dataview", async () => {
		expect(await searchOf(VAULT).dql(ALL, 'TABLE file.name FROM ""', all)).toEqual({
			kind: "unavailable",
			reason: "no-obsidian",
		});
	});
});
