/** search_notes over both gateways: words found in names and contents, best first, paged, never a revision. */
import { describe, expect, it } from "vitest";
import { changeTagOf, partTokenOf } from "../../src/core/revision-tokens";
import { sha256Token } from "../helpers/vault-files";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES } from "./subjects";

const NOTES = {
	"Budget.md": "# Budget\n\nThe budget for Q3, and the budget for Q4.\n",
	"Projects/Plan.md": "The plan needs a budget.\n",
	"Projects/Plan.20261121-101500.bak.md": "An agent's refused budget.\n",
	"Other.md": "Nothing here.\n",
};

describe.each(SUBJECT_NAMES)("search_notes over the %s gateway", (name) => {
	let mcp: Connected;
	eachMcpSubject(name, NOTES, (_subject, client) => (mcp = client));

	it("finds the notes holding every word, with where each occurs, and no revision", async () => {
		const result = await mcp.tool("search_notes", { query: "budget", context_length: 5 });
		expect(result.isError).toBe(false);
		const { results, total } = result.structured as {
			results: {
				path: string;
				score: number;
				matches: { source: string; start: number; end: number; context: string }[];
			}[];
			total: number;
		};
		expect(results.map((hit) => hit.path).sort()).toEqual(["Budget.md", "Projects/Plan.md"]);
		expect(total).toBe(2);
		const budget = results.find((hit) => hit.path === "Budget.md")!;
		expect(budget.matches[0]).toEqual({ source: "filename", start: 0, end: 6, context: "Budget" });
		expect(budget.matches[1]).toEqual({ source: "content", start: 2, end: 8, context: "# Budget\n\nThe" });
		for (const content of Object.values(NOTES))
			for (const token of [sha256Token(content), partTokenOf(sha256Token(content)), changeTagOf(sha256Token(content))])
				expect(result.text).not.toContain(token);
		expect((await mcp.tool("search_notes", { query: "budget plan" })).structured).toMatchObject({
			results: [{ path: "Projects/Plan.md" }],
			total: 1,
		});
	});

	it("leaves .bak notes out unless asked", async () => {
		expect((await mcp.tool("search_notes", { query: "refused" })).structured).toEqual({ results: [], total: 0 });
		expect((await mcp.tool("search_notes", { query: "refused", include_backups: true })).structured).toMatchObject({
			results: [{ path: "Projects/Plan.20261121-101500.bak.md" }],
		});
	});

	it("pages with nextCursor, and refuses a cursor from another search", async () => {
		const first = (await mcp.tool("search_notes", { query: "budget", limit: 1 })).structured as {
			results: { path: string }[];
			nextCursor: string;
			total: number;
		};
		expect(first.results).toHaveLength(1);
		expect(first.total).toBe(2);
		const second = (await mcp.tool("search_notes", { query: "budget", limit: 1, cursor: first.nextCursor }))
			.structured as { results: { path: string }[]; nextCursor?: string };
		expect(second.results).toHaveLength(1);
		expect(second.nextCursor).toBeUndefined();
		expect([first.results[0]!.path, second.results[0]!.path].sort()).toEqual(["Budget.md", "Projects/Plan.md"]);
		const wrong = await mcp.tool("search_notes", { query: "plan", cursor: first.nextCursor });
		expect(wrong.isError).toBe(true);
		expect(wrong.prose).toContain("does not belong to this search");
	});
});
