/** list_tags over both gateways: the vault's tags with counts (nested tags for their parents), in bounded pages. */
import { describe, expect, it } from "vitest";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

const NOTES = {
	"Plan.md": "---\ntags: [project]\n---\n#work/tasks and #work\n",
	"Other.md": "#project #alpha\n```\n#in-code\n```\n",
	".hidden/Secret.md": "#hidden\n",
};

describe.each(SUBJECT_NAMES)("list_tags over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, NOTES, (subject, client) => {
		s = subject;
		mcp = client;
	});

	it("lists every tag with its count, sorted by name, and no token of any note", async () => {
		await s.indexed();
		const result = await mcp.tool("list_tags", {});
		expect(result.isError, result.text).toBe(false);
		expect(result.structured).toEqual({
			tags: [
				{ name: "alpha", count: 1 },
				{ name: "project", count: 2 },
				{ name: "work", count: 2 },
				{ name: "work/tasks", count: 1 },
			],
		});
		expect(JSON.parse(result.text)).toEqual(result.structured);
	});

	it("pages with limit and after, `next` naming where the next page starts", async () => {
		await s.indexed();
		const first = await mcp.tool("list_tags", { limit: 3 });
		expect(first.structured).toEqual({
			tags: [
				{ name: "alpha", count: 1 },
				{ name: "project", count: 2 },
				{ name: "work", count: 2 },
			],
			next: "work",
		});
		const second = await mcp.tool("list_tags", { limit: 3, after: "work" });
		expect(second.structured).toEqual({ tags: [{ name: "work/tasks", count: 1 }] });
	});

	it("refuses a limit outside 1 to 2000 as invalid arguments", async () => {
		for (const limit of [0, 2001, 1.5]) {
			const result = await mcp.tool("list_tags", { limit });
			expect(result.isError, String(limit)).toBe(true);
		}
	});
});
