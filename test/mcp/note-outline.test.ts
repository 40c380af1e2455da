/**
 * note_outline over both gateways: what patch_note can target (headings with their targets, a repeated sibling with a
 * key of its own, block ids, frontmatter keys), and a part token that patch_note takes and write_note does not.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

const NOTE = "---\nstatus: draft\n---\nA paragraph ^p\n\n# Plan\n## Log\n- one\n# Plan\n## Log\n- two\n";

describe.each(SUBJECT_NAMES)("note_outline over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, { "Plan.md": NOTE }, (subject, client) => {
		s = subject;
		mcp = client;
	});
	const onDisk = () => readFile(join(s.dir, "Plan.md"), "utf8");

	it("lists each heading's target (a repeat with its own), block ids and frontmatter keys, with a part token", async () => {
		const outline = await mcp.tool("note_outline", { path: "Plan.md" });
		expect(outline.isError, outline.text).toBe(false);
		const { headings, blocks, frontmatterFields, revision } = outline.structured as {
			headings: { target: string; level: number }[];
			blocks: string[];
			frontmatterFields: string[];
			revision: string;
		};
		expect(headings.map((heading) => heading.level)).toEqual([1, 2, 1, 2]);
		expect(headings[0]!.target).toBe("Plan");
		expect(headings[1]!.target).toBe("Plan::Log");
		expect(new Set(headings.map((heading) => heading.target)).size).toBe(4);
		expect(blocks).toEqual(["p"]);
		expect(frontmatterFields).toEqual(["status"]);
		expect(revision).toMatch(/^part\./);
	});

	it("its token and targets carry patch_note to the second occurrence, and never carry write_note", async () => {
		const { headings, revision } = (await mcp.tool("note_outline", { path: "Plan.md" })).structured as {
			headings: { target: string }[];
			revision: string;
		};
		const patched = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: headings[3]!.target,
			operation: "append",
			content: "- three\n",
			revision,
		});
		expect(patched.isError, patched.text).toBe(false);
		expect(await onDisk()).toBe(NOTE.replace("- two\n", "- two\n- three\n"));
		const blind = await mcp.tool("write_note", { path: "Plan.md", content: "replaced\n", revision });
		expect(blind.isError).toBe(true);
		expect(await onDisk()).toBe(NOTE.replace("- two\n", "- two\n- three\n"));
	});

	it("says a missing note is missing", async () => {
		const missing = await mcp.tool("note_outline", { path: "Nope.md" });
		expect(missing.isError).toBe(true);
		expect(missing.text).toContain("no note");
	});
});
