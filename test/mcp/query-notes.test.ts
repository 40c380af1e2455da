/** query_notes over both gateways: JsonLogic over each note's metadata, Dataview only where it exists, paged. */
import { describe, expect, it } from "vitest";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES } from "./subjects";

const NOTES = {
	"Projects/Alpha.md": "---\nstatus: done\ntags: [work]\n---\n# Alpha\nSee [[Beta]].\n",
	"Projects/Beta.md": "---\nstatus: open\n---\n# Beta #work\n",
	"Journal/2026-11-27.md": "Nothing tagged.\n",
};

describe.each(SUBJECT_NAMES)("query_notes over the %s gateway", (name) => {
	let mcp: Connected;
	eachMcpSubject(name, NOTES, (_subject, client) => (mcp = client));

	it("returns each note whose JsonLogic result is not empty, with the result, in path order", async () => {
		expect((await mcp.tool("query_notes", { logic: { in: ["work", { var: "tags" }] } })).structured).toEqual({
			results: [
				{ path: "Projects/Alpha.md", result: true },
				{ path: "Projects/Beta.md", result: true },
			],
			total: 2,
		});
		expect(
			(
				await mcp.tool("query_notes", {
					logic: { if: [{ "==": [{ var: "frontmatter.status" }, "done"] }, { var: "links" }, null] },
				})
			).structured,
		).toEqual({ results: [{ path: "Projects/Alpha.md", result: ["Projects/Beta.md"] }], total: 1 });
		expect(
			(await mcp.tool("query_notes", { logic: { glob: ["Journal/*", { var: "path" }] } })).structured,
		).toMatchObject({ results: [{ path: "Journal/2026-11-27.md" }] });
		expect((await mcp.tool("query_notes", { logic: { var: "backlinks" } })).structured).toEqual({
			results: [{ path: "Projects/Beta.md", result: ["Projects/Alpha.md"] }],
			total: 1,
		});
	});

	it("pages with nextCursor", async () => {
		const first = (await mcp.tool("query_notes", { logic: { var: "path" }, limit: 2 })).structured as {
			results: { path: string }[];
			nextCursor: string;
			total: number;
		};
		expect(first.results.map((hit) => hit.path)).toEqual(["Journal/2026-11-27.md", "Projects/Alpha.md"]);
		expect(first.total).toBe(3);
		expect(
			(await mcp.tool("query_notes", { logic: { var: "path" }, limit: 2, cursor: first.nextCursor })).structured,
		).toEqual({ results: [{ path: "Projects/Beta.md", result: "Projects/Beta.md" }], total: 3 });
	});

	it("says what is wrong with a query, and asks for exactly one of logic and dql", async () => {
		const unknown = await mcp.tool("query_notes", { logic: { nope: [1] } });
		expect(unknown.isError).toBe(true);
		expect(unknown.prose).toContain("Unrecognized operation nope");
		expect(unknown.details).toEqual({ error: "invalid-query" });
		expect((await mcp.tool("query_notes", {})).prose).toContain("exactly one of `logic`");
		expect((await mcp.tool("query_notes", { logic: { var: "path" }, dql: "TABLE x" })).prose).toContain(
			"exactly one of `logic`",
		);
	});

	it("says where Dataview is missing, and offers JsonLogic", async () => {
		const result = await mcp.tool("query_notes", { dql: "TABLE status FROM #work" });
		expect(result.isError).toBe(true);
		expect(result.details).toEqual({ error: "dataview-unavailable" });
		expect(result.prose).toContain(name === "obsidian" ? "Dataview plugin is not installed" : "headless host");
		expect(result.prose).toContain("`logic`");
	});
});
