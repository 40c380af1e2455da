/** periodic_note over both gateways: the path of today's (or a day's) periodic note, and creating it from its template as the key's guarded write. */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

describe.each(SUBJECT_NAMES)("periodic_note over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, { "Templates/Daily.md": "# {{title}}\n## Log\n" }, (subject, client) => {
		s = subject;
		mcp = client;
	});

	it("names a day's note without creating it, then creates it from its template; patch_note may stand on that", async () => {
		s.settings.periodicNotes.daily = { folder: "Journal", format: "YYYY-MM-DD", template: "Templates/Daily" };
		const found = await mcp.tool("periodic_note", { period: "daily", date: "2026-03-05" });
		expect(found.structured).toEqual({ path: "Journal/2026-03-05.md", period: "daily", exists: false, created: false });
		const created = await mcp.tool("periodic_note", { period: "daily", date: "2026-03-05", create: true });
		expect(created.structured).toEqual({ path: "Journal/2026-03-05.md", period: "daily", exists: true, created: true });
		expect(await readFile(join(s.dir, "Journal/2026-03-05.md"), "utf8")).toBe("# 2026-03-05\n## Log\n");
		expect(
			(await mcp.tool("periodic_note", { period: "daily", date: "2026-03-05", create: true })).structured,
		).toMatchObject({ created: false });
		const patched = await mcp.tool("patch_note", {
			path: "Journal/2026-03-05.md",
			target_type: "heading",
			target: "2026-03-05::Log",
			operation: "append",
			content: "- done\n",
		});
		expect(patched.isError, patched.text).toBe(false);
		// The agent has not seen the template's text: replacing the note needs a read first.
		expect((await mcp.tool("write_note", { path: "Journal/2026-03-05.md", content: "blind\n" })).details).toMatchObject(
			{ error: "precondition-required" },
		);
	});

	it("refuses days that do not exist", async () => {
		const result = await mcp.tool("periodic_note", { period: "monthly", date: "2026-02-30" });
		expect(result.isError).toBe(true);
		expect(result.prose).toContain("not a day");
	});
});
