/**
 * POST /search/simple/ and POST /search/ over both stacks, with the Local REST API 5.1 integration suite's own cases
 * (search.test.ts there: its fixture, terms, shapes, status codes and error codes) and what we add: the path policy,
 * .bak notes, bounded pages, no revision in any answer, and Dataview (a focused fake of its API) inside Obsidian.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { changeTagOf, partTokenOf } from "../../../src/core/revision-tokens";
import { lraFields, PROBLEM_TYPES, type ProblemName } from "../../../src/http/problems";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { writeVaultFile } from "../../helpers/vault-files";
import { simpleSearchCalls } from "../../obsidian-stub";
import { STACKS, TWO_KEYS, type Stack } from "../stacks";

forbidServerErrors(["dataview-unavailable"]);

const FIXTURE_PATH = "__integration_tests__/fixture.md";
const FIXTURE = `---
title: Integration Test Fixture
tags:
  - integration-fixture
  - test-tag
priority: 42
active: true
---

# Alpha

Primary content of Alpha. #inline-tag

A second paragraph with unique text: xylophone-alpha-unique.

# Beta

Content in Beta. xylophone-beta-unique. ^beta-block

See [[Other note]] and [[Nowhere]].
`;
const VAULT: Record<string, string> = {
	[FIXTURE_PATH]: FIXTURE,
	"Other note.md": "Links back to [[fixture]]. xylophone-alpha-unique again.\n",
	"Other note.20261121-101500.bak.md": "A refused copy: xylophone-alpha-unique.\n",
	".obsidian/snippets/x.md": "xylophone-alpha-unique in config\n",
	".hidden/secret.md": "xylophone-alpha-unique hidden\n",
	".revision-guard/secret.md": "xylophone-alpha-unique in the headless host's own folder\n",
};

interface SimpleHitJson {
	filename: string;
	score: number;
	matches: { match: { start: number; end: number; source: string }; context: string }[];
}

const simple = (query: string, params = "") =>
	s.api(`/search/simple/?query=${encodeURIComponent(query)}${params}`, { method: "POST" });
const logic = (query: unknown, params = "") =>
	s.api(`/search/${params}`, {
		method: "POST",
		headers: { "Content-Type": "application/vnd.olrapi.jsonlogic+json" },
		body: JSON.stringify(query),
	});
const filenames = (res: CallResult) => res.json<{ filename: string }[]>().map((hit) => hit.filename);

/** A problem with the Local REST API's errorCode for the same failure, and a `message` led by what happened (as every error's). */
function expectProblem(
	res: CallResult,
	status: number,
	name: ProblemName,
	errorCode: number,
): { detail: string; message: string } {
	expect(res.status, res.text).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status, errorCode });
	const body = res.json<{ detail: string; message: string }>();
	expect(body.message.startsWith(`${PROBLEM_TYPES[name].title}. `), body.message).toBe(true);
	expect(body.message).toContain(body.detail);
	return body;
}

let dir: string;
let s: Stack;
afterEach(async () => {
	await s.close();
	await rm(dir, { recursive: true, force: true });
});

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("search over %s", (stack) => {
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-search-"));
		for (const [path, content] of Object.entries(VAULT)) await writeVaultFile(dir, path, content);
		s = await STACKS[stack](dir);
	});

	describe("POST /search/simple/ (the Local REST API suite's cases)", () => {
		it("finds the fixture by a unique content term, with the match shape LRA clients read", async () => {
			const res = await simple("xylophone-alpha-unique");
			expect(res.status).toBe(200);
			expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
			const hit = res.json<SimpleHitJson[]>().find((item) => item.filename === FIXTURE_PATH)!;
			expect(hit.matches.length).toBeGreaterThan(0);
			const [first] = hit.matches;
			expect(first!.match.source).toBe("content");
			expect(FIXTURE.slice(first!.match.start, first!.match.end)).toBe("xylophone-alpha-unique");
			expect(first!.context).toContain("xylophone-alpha-unique");
			expect(typeof hit.score).toBe("number");
		});

		it("respects contextLength", async () => {
			const hit = (await simple("xylophone-beta-unique", "&contextLength=10"))
				.json<SimpleHitJson[]>()
				.find((item) => item.filename === FIXTURE_PATH)!;
			for (const match of hit.matches)
				expect(match.context.length).toBeLessThanOrEqual(10 * 2 + "xylophone-beta-unique".length);
			expect(hit.matches[0]!.context).toBe(" in Beta. xylophone-beta-unique. ^beta-bl");
		});

		it("answers [] when nothing matches, 400 (errorCode 40090) without ?query=, 401 without a key", async () => {
			const none = await simple("zzzzzz-no-match-zzzzzz");
			expect(none.status).toBe(200);
			expect(none.json()).toEqual([]);
			const missing = expectProblem(await s.api("/search/simple/", { method: "POST" }), 400, "invalid-search", 40090);
			expect(missing.message.slice(0, 200)).toMatch(
				/^The search request is incomplete\. Send POST \/search\/simple\/\?query=/,
			);
			expectProblem(await s.api("/search/simple/?query=a&query=b", { method: "POST" }), 400, "invalid-search", 40090);
			expect((await s.api("/search/simple/?query=x", { method: "POST", headers: { Authorization: "" } })).status).toBe(
				401,
			);
		});

		it("matches a note's name, reported against the name", async () => {
			const hit = (await simple("other")).json<SimpleHitJson[]>().find((item) => item.filename === "Other note.md")!;
			expect(hit.matches[0]).toEqual({ match: { start: 0, end: 5, source: "filename" }, context: "Other note" });
		});
	});

	describe("POST /search/ with JsonLogic (the Local REST API suite's cases)", () => {
		it("finds the fixture by path, by tag and by a frontmatter number", async () => {
			expect(filenames(await logic({ "==": [{ var: "path" }, FIXTURE_PATH] }))).toEqual([FIXTURE_PATH]);
			expect(filenames(await logic({ in: ["integration-fixture", { var: "tags" }] }))).toEqual([FIXTURE_PATH]);
			expect(filenames(await logic({ in: ["inline-tag", { var: "tags" }] }))).toEqual([FIXTURE_PATH]);
			expect(filenames(await logic({ "==": [{ var: "frontmatter.priority" }, 42] }))).toEqual([FIXTURE_PATH]);
		});

		it("answers 400 with errorCode 40012 for another Content-Type, and 40011 without one", async () => {
			expectProblem(
				await s.api("/search/", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" }),
				400,
				"search-content-type",
				40012,
			);
			expectProblem(await s.api("/search/", { method: "POST", body: "{}" }), 400, "search-content-type", 40011);
			expect(
				(
					await s.api("/search/", {
						method: "POST",
						headers: { Authorization: "", "Content-Type": "application/vnd.olrapi.jsonlogic+json" },
						body: "[]",
					})
				).status,
			).toBe(401);
		});

		it("returns each note's result, with links, backlinks and unresolved links as the note's metadata has them", async () => {
			// Backlinks come from Obsidian's resolved links, of the notes it has indexed.
			await s.app?.metadataCache.settled();
			const res = await logic({
				if: [
					{ "==": [{ var: "path" }, FIXTURE_PATH] },
					{ cat: [{ var: "links" }, "|", { var: "unresolvedLinks" }, "|", { var: "backlinks" }] },
					false,
				],
			});
			expect(res.json()).toEqual([{ filename: FIXTURE_PATH, result: "Other note.md|Nowhere|Other note.md" }]);
			expect(filenames(await logic({ glob: ["__integration_tests__/*", { var: "path" }] }))).toEqual([FIXTURE_PATH]);
			expect(filenames(await logic({ regexp: ["xylophone-(alpha|beta)", { var: "content" }] }))).toEqual([
				"Other note.md",
				FIXTURE_PATH,
			]);
		});

		it("refuses a query it cannot evaluate: 400 with errorCode 40070 and the reason", async () => {
			expect(
				expectProblem(await logic({ method: [{ var: "path" }, "toString"] }), 400, "invalid-search-query", 40070)
					.detail,
			).toContain("Unrecognized operation method");
			expect(
				expectProblem(await logic({ regexp: ["(x)\\1", { var: "path" }] }), 400, "invalid-search-query", 40070).detail,
			).toContain("back-references");
			const notJson = await s.api("/search/", {
				method: "POST",
				headers: { "Content-Type": "application/vnd.olrapi.jsonlogic+json; charset=utf-8" },
				body: "{nope",
			});
			// As the Local REST API answers a body its Content-Type does not parse (40015).
			expect(expectProblem(notJson, 400, "invalid-search-query", 40015).detail).toContain("not JSON");
		});
	});

	it("never searches or names hidden, config or the host's own folders, and .bak notes only when asked", async () => {
		const everywhere = [
			"/search/simple/?query=xylophone-alpha-unique",
			"/search/simple/?query=xylophone-alpha-unique&includeBackups=true",
		];
		expect(filenames(await s.api(everywhere[0]!, { method: "POST" })).sort()).toEqual(["Other note.md", FIXTURE_PATH]);
		expect(filenames(await s.api(everywhere[1]!, { method: "POST" })).sort()).toEqual([
			"Other note.20261121-101500.bak.md",
			"Other note.md",
			FIXTURE_PATH,
		]);
		const all = await logic({ var: "path" }, "?includeBackups=true");
		expect(filenames(all).sort()).toEqual(["Other note.20261121-101500.bak.md", "Other note.md", FIXTURE_PATH]);
	});

	it("hands out no revision, part token or change tag in any answer", async () => {
		const answers = [await simple("xylophone-alpha-unique"), await logic({ var: "" }), await simple("other")];
		for (const res of answers) {
			expect(res.headers.etag).toBeUndefined();
			for (const content of Object.values(VAULT)) {
				const revision = revisionOf(content);
				for (const token of [revision, partTokenOf(revision), changeTagOf(revision)])
					expect(res.text).not.toContain(token);
			}
		}
	});

	it("pages a long answer: Search-Total, and Search-Next-Cursor to send back as ?cursor=", async () => {
		const first = await logic({ var: "path" }, "?limit=1");
		expect(first.headers["search-total"]).toBe("2");
		expect(filenames(first)).toEqual(["Other note.md"]);
		const cursor = first.headers["search-next-cursor"] as string;
		const second = await logic({ var: "path" }, `?limit=1&cursor=${encodeURIComponent(cursor)}`);
		expect(filenames(second)).toEqual([FIXTURE_PATH]);
		expect(second.headers["search-next-cursor"]).toBeUndefined();
		expectProblem(await logic({ var: "tags" }, `?cursor=${encodeURIComponent(cursor)}`), 400, "invalid-search", 40090);
		expectProblem(await logic({ var: "tags" }, "?limit=0"), 400, "invalid-search", 40090);
	});
});

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("links in a search over %s", (stack) => {
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-search-"));
		await writeVaultFile(dir, "Plan.md", "See [[data.csv]], ![[pic.png]], [[Goals]], [[Nowhere]] and [[Secret]].\n");
		await writeVaultFile(dir, "Projects/Goals.md", "Back to [[Plan]].\n");
		await writeVaultFile(dir, "data.csv", "a,b\n");
		await writeVaultFile(dir, "pic.png", "png");
		await writeVaultFile(dir, ".hidden/Secret.md", "hidden\n");
		s = await STACKS[stack](dir);
	});

	it("are the note JSON's: any file a link reaches (not only notes and images), nothing in a hidden folder", async () => {
		await s.app?.metadataCache.settled();
		const fields = ["links", "unresolvedLinks", "backlinks"] as const;
		const res = await logic({
			if: [{ "==": [{ var: "path" }, "Plan.md"] }, fields.map((field) => ({ var: field })), false],
		});
		const note = (await s.api("/vault/Plan.md", { headers: { Accept: "application/vnd.olrapi.note+json" } })).json<
			Record<(typeof fields)[number], string[]>
		>();
		expect([...note.links].sort()).toEqual(["Projects/Goals.md", "data.csv", "pic.png"]);
		const [hit] = res.json<{ filename: string; result: string[][] }[]>();
		expect(hit!.filename).toBe("Plan.md");
		expect(hit!.result.map((values) => [...values].sort())).toEqual(fields.map((field) => [...note[field]].sort()));
	});
});

describe("Dataview DQL", () => {
	const dql = (query: string) =>
		s.api("/search/", {
			method: "POST",
			headers: { "Content-Type": "application/vnd.olrapi.dataview.dql+txt" },
			body: query,
		});

	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-search-"));
		for (const [path, content] of Object.entries(VAULT)) await writeVaultFile(dir, path, content);
	});

	it("headless: 501 dataview-unavailable saying why and what to send instead", async () => {
		s = await STACKS["node filesystem"](dir);
		const problem = expectProblem(await dql("TABLE priority FROM #test-tag"), 501, "dataview-unavailable", 50100);
		expect(problem.detail).toContain("headless host");
		expect(problem.detail).toContain("JsonLogic");
	});

	it("in Obsidian without Dataview: 501 naming the plugin", async () => {
		s = await STACKS.obsidian(dir);
		expect(
			expectProblem(await dql("TABLE priority FROM #test-tag"), 501, "dataview-unavailable", 50100).detail,
		).toContain("Dataview plugin");
	});

	it("in Obsidian with Dataview: its TABLE rows as {filename, result}, in its order, never a hidden or .bak note", async () => {
		s = await STACKS.obsidian(dir);
		const link = (path: string) => ({ path, embed: false, type: "file" });
		const query = vi.fn(async (source: string) => {
			if (source.startsWith("LIST")) return { successful: true as const, value: { type: "list", values: [] } };
			if (source.startsWith("TABLE WITHOUT ID"))
				return { successful: true as const, value: { type: "table", headers: ["priority"], values: [[42]] } };
			if (!source.startsWith("TABLE")) return { successful: false as const, error: "PARSING FAILED" };
			return {
				successful: true as const,
				value: {
					type: "table",
					headers: ["Note", "priority", "due"],
					values: [
						[link(FIXTURE_PATH), 42, { toJSON: () => "2026-12-01T00:00:00.000Z" }],
						[link("Other note.md"), null, undefined],
						[link(".hidden/secret.md"), 1, null],
						[link("Other note.20261121-101500.bak.md"), 2, null],
					],
				},
			};
		});
		s.app!.plugins.plugins.dataview = { api: { query, settings: { tableIdColumnName: "Note" } } };
		const res = await dql("TABLE priority, due FROM #test-tag");
		expect(res.status).toBe(200);
		expect(res.json()).toEqual([
			{ filename: FIXTURE_PATH, result: { priority: 42, due: "2026-12-01T00:00:00.000Z" } },
			{ filename: "Other note.md", result: { priority: null, due: null } },
		]);
		expect(query).toHaveBeenCalledWith("TABLE priority, due FROM #test-tag");
		expect(expectProblem(await dql("LIST FROM #x"), 400, "invalid-search-query", 40070).detail).toContain("Only TABLE");
		expect(expectProblem(await dql("TABLE WITHOUT ID priority"), 400, "invalid-search-query", 40070).detail).toContain(
			"WITHOUT ID",
		);
		expect(expectProblem(await dql("nonsense"), 400, "invalid-search-query", 40070).detail).toContain("PARSING FAILED");
	});

	it("is not run for a key that may read only part of the vault: a DQL column can show any note's values", async () => {
		const limitedKey = "limited-key-0123456789abcdef0123456789abcdef";
		s = await STACKS.obsidian(dir, {
			settings: {
				keys: [...TWO_KEYS, { name: "limited", key: limitedKey, created: "2026-01-01", read: ["Other note.md"] }],
			},
		});
		const query = vi.fn(async () => ({
			successful: true as const,
			value: {
				type: "table",
				headers: ["Note", "links"],
				values: [[{ path: "Other note.md", embed: false, type: "file" }, [{ path: FIXTURE_PATH }]]],
			},
		}));
		s.app!.plugins.plugins.dataview = { api: { query, settings: { tableIdColumnName: "Note" } } };
		const res = await s.api("/search/", {
			method: "POST",
			headers: { "Content-Type": "application/vnd.olrapi.dataview.dql+txt", Authorization: `Bearer ${limitedKey}` },
			body: "TABLE file.outlinks AS links",
		});
		expect(expectProblem(res, 403, "scope-forbidden", 40300).detail).toContain("JsonLogic");
		expect(query).not.toHaveBeenCalled();
		// A key that reads the whole vault still runs it.
		expect((await dql("TABLE file.outlinks AS links")).status).toBe(200);
	});
});

describe("inside Obsidian, search uses Obsidian's own", () => {
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-search-"));
		for (const [path, content] of Object.entries(VAULT)) await writeVaultFile(dir, path, content);
		s = await STACKS.obsidian(dir);
	});

	it("simple search: prepareSimpleSearch, and its score", async () => {
		const before = simpleSearchCalls.count;
		const hits = (await simple("xylophone-alpha-unique")).json<SimpleHitJson[]>();
		expect(simpleSearchCalls.count).toBe(before + 1);
		// The simulation scores by how early the first match falls (the headless host counts occurrences).
		const fixture = hits.find((hit) => hit.filename === FIXTURE_PATH)!;
		expect(fixture.score).toBe(-("fixture\n\n".length + FIXTURE.indexOf("xylophone-alpha-unique")));
		expect(hits.map((hit) => hit.filename)).toEqual(["Other note.md", FIXTURE_PATH]);
	});

	it("JsonLogic: the metadata cache's frontmatter, tags and links", async () => {
		await s.app!.metadataCache.settled();
		const cache = vi.spyOn(s.app!.metadataCache, "getFileCache");
		expect(filenames(await logic({ in: ["inline-tag", { var: "tags" }] }))).toEqual([FIXTURE_PATH]);
		expect(cache).toHaveBeenCalled();
		// A note another program changed is seen as Obsidian sees it: not yet, until its watcher notices.
		s.app!.outside.write("Other note.md", "---\ntags: [late]\n---\n");
		expect(filenames(await logic({ in: ["late", { var: "tags" }] }))).toEqual([]);
		await s.app!.clock.runAll();
		await s.app!.metadataCache.settled();
		expect(filenames(await logic({ in: ["late", { var: "tags" }] }))).toEqual(["Other note.md"]);
	});

	it("JsonLogic: a link resolves once the file it names appears, attachments too, as Obsidian re-resolves", async () => {
		s.app!.outside.write("Later.md", "See [[later.csv]].\n");
		await s.app!.clock.runAll();
		await s.app!.metadataCache.settled();
		const unresolved = { if: [{ "==": [{ var: "path" }, "Later.md"] }, { var: "unresolvedLinks" }, false] };
		expect((await logic(unresolved)).json()).toEqual([{ filename: "Later.md", result: ["later.csv"] }]);
		s.app!.outside.write("later.csv", "a,b\n");
		await s.app!.clock.runAll();
		await s.app!.metadataCache.settled();
		expect((await logic(unresolved)).json()).toEqual([]);
		expect((await logic({ if: [{ "==": [{ var: "path" }, "Later.md"] }, { var: "links" }, false] })).json()).toEqual([
			{ filename: "Later.md", result: ["later.csv"] },
		]);
	});
});

describe("a search too costly to finish", () => {
	it("says 40070, as the Local REST API says for a query it could not process", () => {
		expect(lraFields("search-too-costly", "Stopped.").errorCode).toBe(40070);
	});
});

describe("any input", () => {
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-search-"));
		for (const [path, content] of Object.entries(VAULT)) await writeVaultFile(dir, path, content);
		s = await STACKS["node filesystem"](dir);
	});

	const ops = [
		"var",
		"==",
		"in",
		"cat",
		"map",
		"filter",
		"reduce",
		"all",
		"some",
		"if",
		"merge",
		"substr",
		"missing",
		"glob",
		"regexp",
		"+",
		"<",
		"nope",
	];
	const query: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
		node: fc.oneof(
			{ depthSize: "small" },
			fc.jsonValue({ maxDepth: 2 }),
			fc.constantFrom("path", "content", "tags", "frontmatter.title", "", "links").map((path) => ({ var: path })),
			fc
				.tuple(fc.constantFrom("regexp", "glob"), fc.string({ maxLength: 12 }), tie("node"))
				.map(([op, pattern, value]) => ({ [op]: [pattern, value] })),
			fc.tuple(fc.constantFrom(...ops), fc.array(tie("node"), { maxLength: 3 })).map(([op, args]) => ({ [op]: args })),
		),
	})).node;

	it("answers every query and body with 200 or a 4xx problem, never a 5xx (property)", async () => {
		await fc.assert(
			fc.asyncProperty(
				query,
				fc.string({ maxLength: 20 }),
				fc.string({ maxLength: 6 }),
				async (logicQuery, words, contextLength) => {
					const byLogic = await s.api("/search/", {
						method: "POST",
						headers: { "Content-Type": "application/vnd.olrapi.jsonlogic+json" },
						body: JSON.stringify(logicQuery),
					});
					expect([200, 400], byLogic.text).toContain(byLogic.status);
					const byWords = await s.api(
						`/search/simple/?query=${encodeURIComponent(words)}&contextLength=${encodeURIComponent(contextLength)}`,
						{ method: "POST" },
					);
					expect(byWords.status, byWords.text).toBe(200);
				},
			),
			{ numRuns: 60 },
		);
	});
});
