/**
 * The Local REST API 5.1's search_query and search_simple at /mcp/lra, over both gateways: its arguments, its answer
 * (the JSON array of hits as text) with the same hits POST /search/ and /search/simple/ give, refusals in words, a
 * bounded answer that says how to page on, and no revision in any hit.
 */
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { changeTagOf, partTokenOf } from "../../../src/core/revision-tokens";
import { LRA_SEARCH_BYTES } from "../../../src/mcp/lra/search-operations";
import { call } from "../../helpers/http-client";
import { TEST_KEY } from "../../helpers/headless-harness";
import type { Connected } from "../mcp-client";
import type { Subject } from "../subjects";
import { eachLraSubject, jsonOf } from "./lra-client";

const NOTES: Record<string, string> = {
	"Projects/Plan.md": "---\nstatus: open\ntags: [work]\n---\n# Plan\nThe budget plan for q3. See [[Goals]].\n",
	"Goals.md": "Goals for the budget. #work\n",
	"Journal/2026-11-27.md": "Nothing here.\n",
	"Plan.20261121-101500.bak.md": "A refused copy of the budget plan.\n",
};

describe.each(["node filesystem", "obsidian"])("search_query and search_simple over the %s gateway", (name) => {
	let mcp: Connected;
	let s: Subject;
	eachLraSubject(name, NOTES, (subject, client) => {
		s = subject;
		mcp = client;
	});
	const rest = async (path: string, body?: unknown) => {
		const headers: Record<string, string> = { Authorization: `Bearer ${TEST_KEY}` };
		if (body !== undefined) headers["Content-Type"] = "application/vnd.olrapi.jsonlogic+json";
		const res = await call(s.port, path, {
			method: "POST",
			headers,
			...(body === undefined ? {} : { body: JSON.stringify(body) }),
		});
		expect(res.status, res.text).toBe(200);
		return res.json<unknown[]>();
	};

	it("search_query answers [{filename, result}] as POST /search/ does: tags, frontmatter, links, in path order", async () => {
		await s.indexed();
		const byTag = { in: ["work", { var: "tags" }] };
		expect(jsonOf<unknown[]>(await mcp.tool("search_query", { query: byTag }))).toEqual([
			{ filename: "Goals.md", result: true },
			{ filename: "Projects/Plan.md", result: true },
		]);
		const links = { if: [{ "==": [{ var: "frontmatter.status" }, "open"] }, { var: "links" }, false] };
		expect(jsonOf<unknown[]>(await mcp.tool("search_query", { query: links }))).toEqual([
			{ filename: "Projects/Plan.md", result: ["Goals.md"] },
		]);
		for (const query of [byTag, links, { glob: ["Journal/*", { var: "path" }] }])
			expect(jsonOf<unknown[]>(await mcp.tool("search_query", { query }))).toEqual(await rest("/search/", query));
	});

	it("search_simple answers [{filename, score, matches}] best first, as POST /search/simple/ does, contextLength included", async () => {
		const hits = jsonOf<{ filename: string; matches: { match: { source: string }; context: string }[] }[]>(
			await mcp.tool("search_simple", { query: "budget plan", contextLength: 5 }),
		);
		expect(hits.map((hit) => hit.filename).sort()).toEqual(["Projects/Plan.md"]);
		expect(hits[0]!.matches).toContainEqual({ match: { start: 0, end: 4, source: "filename" }, context: "Plan" });
		expect(hits[0]!.matches).toContainEqual(expect.objectContaining({ context: "\nThe budget plan" }));
		expect(jsonOf(await mcp.tool("search_simple", { query: "budget plan", contextLength: 5 }))).toEqual(
			await rest("/search/simple/?query=budget%20plan&contextLength=5"),
		);
		expect(jsonOf(await mcp.tool("search_simple", { query: "budget" }))).toEqual(
			await rest("/search/simple/?query=budget"),
		);
		expect(jsonOf(await mcp.tool("search_simple", { query: "zzzz-nothing" }))).toEqual([]);
		// Whatever width is asked, the context stays within the cap (and a negative one is none).
		const none = jsonOf<{ matches: { match: { source: string }; context: string }[] }[]>(
			await mcp.tool("search_simple", { query: "nothing", contextLength: -3 }),
		);
		expect(none[0]!.matches[0]!.context).toBe("Nothing");
	});

	it("refuses a query it cannot evaluate, in words, and searches nothing", async () => {
		const unknown = await mcp.tool("search_query", { query: { nope: [1] } });
		expect(unknown.isError).toBe(true);
		expect(unknown.prose).toContain("Unrecognized operation nope");
		const backtracking = await mcp.tool("search_query", { query: { regexp: ["(x)\\1", { var: "path" }] } });
		expect(backtracking.isError).toBe(true);
		expect(backtracking.prose).toContain("back-references");
	});

	it("never hands out a revision, part token or change tag in a hit", async () => {
		const answers = [
			await mcp.tool("search_query", { query: { cat: [{ var: "path" }, { var: "content" }] } }),
			await mcp.tool("search_simple", { query: "the" }),
		];
		for (const answer of answers) {
			expect(answer.isError).toBe(false);
			for (const content of Object.values(NOTES)) {
				const revision = revisionOf(content);
				for (const token of [revision, partTokenOf(revision), changeTagOf(revision)])
					expect(answer.text).not.toContain(token);
			}
		}
	});
});

describe.each(["node filesystem", "obsidian"])("a long search_query answer over the %s gateway", (name) => {
	let mcp: Connected;
	const big = "x".repeat(100 * 1024) + "\n";
	const notes = Object.fromEntries(
		Array.from({ length: 12 }, (_, index) => [`Big ${String(index).padStart(2, "0")}.md`, big]),
	);
	eachLraSubject(name, notes, (_subject, client) => (mcp = client));

	it("is bounded, says how many there are, and hands the cursor query_notes pages on from", async () => {
		const query = { var: "content" };
		const first = await mcp.tool("search_query", { query });
		const hits = jsonOf<{ filename: string }[]>(first);
		expect(hits.length).toBeGreaterThan(0);
		expect(hits.length).toBeLessThan(12);
		expect(first.text.length).toBeLessThan(LRA_SEARCH_BYTES * 1.5);
		const note = first.text.slice(first.prose.length + 1);
		expect(note).toContain(`Showing ${hits.length} of 12 results`);
		// query_notes pages on from there (a page of it holds one of these 100 KB results).
		const paths = hits.map((hit) => hit.filename);
		let cursor: string | undefined = JSON.parse(/"cursor": ("[^"]+")/.exec(note)![1]!) as string;
		while (cursor !== undefined) {
			const page = (await mcp.tool("query_notes", { logic: query, cursor })).structured as {
				results: { path: string }[];
				nextCursor?: string;
			};
			paths.push(...page.results.map((hit) => hit.path));
			cursor = page.nextCursor;
		}
		expect(paths).toEqual(Object.keys(notes));
	});
});
