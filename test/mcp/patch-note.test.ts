/**
 * patch_note over both gateways, with REST's PATCH rules: it needs the revision (sent, or the session's last read);
 * a stale one is refused and the patched note kept as .bak; a target that is not there is a clear error.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { sha256Token, visibleFiles } from "../helpers/vault-files";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

const NOTE = "---\ntags: [a]\n---\n# Plan\n\nIntro\n\n## Tasks\n\n- one\n- two ^blk\n\n## Done\n\n- zero\n";
const APPENDED = NOTE.replace("- two ^blk\n", "- two ^blk\n- three\n");

describe.each(SUBJECT_NAMES)("patch_note over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, { "Plan.md": NOTE }, (subject, client) => {
		s = subject;
		mcp = client;
	});

	const onDisk = async (path: string) => (await readFile(join(s.dir, path))).toString("utf8");
	const appendTask = (extra: Record<string, unknown> = {}) =>
		mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan::Tasks",
			operation: "append",
			content: "- three",
			...extra,
		});

	it("appends to a heading's section with the current revision, and returns the new one", async () => {
		const result = await appendTask({ revision: sha256Token(NOTE) });
		expect(result.isError).toBe(false);
		expect(result.structured).toEqual({ path: "Plan.md", revision: sha256Token(APPENDED) });
		expect(await onDisk("Plan.md")).toBe(APPENDED);
	});

	it("uses the session's last read when no revision is sent", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		expect((await appendTask()).isError).toBe(false);
		expect(await onDisk("Plan.md")).toBe(APPENDED);
	});

	it("refuses a stale revision, keeping the patched note as a .bak and the person's note as it is", async () => {
		const changed = NOTE.replace("Intro", "Intro, edited by the person");
		await mcp.tool("read_note", { path: "Plan.md" });
		await s.edit("Plan.md", changed);
		const stale = await appendTask({ revision: sha256Token(NOTE) });
		expect(stale.isError).toBe(true);
		expect(stale.details).toMatchObject({
			error: "stale-revision",
			sentRevision: sha256Token(NOTE),
			currentRevision: sha256Token(changed),
		});
		expect(stale.prose).toContain(`call patch_note again with revision="${sha256Token(changed)}"`);
		// The .bak holds what the patch would have made of the note as it is now.
		expect(await onDisk(stale.details!.backupPath as string)).toBe(
			changed.replace("- two ^blk\n", "- two ^blk\n- three\n"),
		);
		expect(await onDisk("Plan.md")).toBe(changed);
	});

	it("refuses a tokenless patch held to a stale read, and one with no read at all, naming patch_note in the next step", async () => {
		const unread = await appendTask();
		expect(unread.isError).toBe(true);
		expect(unread.details).toMatchObject({ error: "precondition-required" });
		expect(unread.prose).toContain("then call patch_note with the revision it returned");

		await mcp.tool("read_note", { path: "Plan.md" });
		await s.edit("Plan.md", NOTE + "\nmore\n");
		const held = await appendTask();
		expect(held.details).toMatchObject({ error: "stale-revision", implicitRevision: true });
		expect(await onDisk("Plan.md")).toBe(NOTE + "\nmore\n");
	});

	it("says a missing heading is missing, offers create_target_if_missing, and creates it when asked", async () => {
		const missing = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan::Later",
			operation: "append",
			content: "- someday",
			revision: sha256Token(NOTE),
		});
		expect(missing.isError).toBe(true);
		expect(missing.prose).toContain("Not patched:");
		expect(missing.prose).toContain("create_target_if_missing: true");
		expect(missing.details).toEqual({
			error: "target-not-found",
			reason: "target-not-found",
			path: "Plan.md",
			currentRevision: sha256Token(NOTE),
		});
		expect(await visibleFiles(s.dir)).toEqual(["Plan.md"]);

		const created = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan::Later",
			operation: "append",
			content: "- someday",
			revision: sha256Token(NOTE),
			create_target_if_missing: true,
		});
		expect(created.isError).toBe(false);
		expect(await onDisk("Plan.md")).toMatch(/\n## Later\n+- someday\n$/);
	});

	it("patches frontmatter (a JSON value with json: true), a block, and deletes a section", async () => {
		const tagged = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "frontmatter",
			target: "tags",
			operation: "append",
			content: '"b"',
			json: true,
			revision: sha256Token(NOTE),
		});
		expect(tagged.isError).toBe(false);
		expect(await onDisk("Plan.md")).toContain("tags: [a, b]\n");
		const block = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "block",
			target: "blk",
			operation: "replace",
			content: "- TWO",
			revision: tagged.structured!.revision,
		});
		expect(block.isError).toBe(false);
		expect(await onDisk("Plan.md")).toContain("- TWO ^blk\n");
		const deleted = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan::Done",
			operation: "delete",
			revision: block.structured!.revision,
		});
		expect(deleted.isError).toBe(false);
		expect(await onDisk("Plan.md")).not.toContain("- zero");
	});

	it("answers a missing note and missing content with what to do instead", async () => {
		const missing = await mcp.tool("patch_note", {
			path: "Nope.md",
			target_type: "heading",
			target: "A",
			operation: "append",
			content: "x",
			revision: sha256Token("some other note\n"),
		});
		expect(missing.prose).toContain('There is no note at "Nope.md"; patch_note changes an existing note');
		const noContent = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan",
			operation: "append",
			revision: sha256Token(NOTE),
		});
		expect(noContent.isError).toBe(true);
		expect(noContent.prose).toContain('operation "append" needs content');
		expect(await onDisk("Plan.md")).toBe(NOTE);
	});

	it("renames a heading (scope marker), moves a section (scope parent) and splices into one block (within)", async () => {
		const renamed = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan::Done",
			operation: "replace",
			scope: "marker",
			content: "Finished",
			revision: sha256Token(NOTE),
		});
		expect(renamed.isError, renamed.prose).toBe(false);
		const afterRename = NOTE.replace("## Done", "## Finished");
		expect(await onDisk("Plan.md")).toBe(afterRename);
		const moved = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan::Finished",
			operation: "replace",
			scope: "parent",
			destination: { parent: ["Plan"], place: "first" },
			revision: renamed.structured!.revision,
		});
		expect(moved.isError, moved.prose).toBe(false);
		const afterMove =
			"---\ntags: [a]\n---\n# Plan\n\nIntro\n\n## Finished\n\n- zero\n\n## Tasks\n\n- one\n- two ^blk\n";
		expect(await onDisk("Plan.md")).toBe(afterMove);
		const spliced = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan::Tasks",
			operation: "append",
			within: -1,
			content: "\n- three",
			revision: moved.structured!.revision,
		});
		expect(spliced.isError, spliced.prose).toBe(false);
		expect(await onDisk("Plan.md")).toBe(afterMove.replace("- two ^blk", "- two ^blk\n- three"));
	});

	it("refuses a duplicate append with reject_if_content_preexists, and an instruction outside the algebra, writing nothing", async () => {
		const again = await appendTask({
			content: "- one",
			reject_if_content_preexists: true,
			revision: sha256Token(NOTE),
		});
		expect(again.isError).toBe(true);
		expect(again.prose).toContain("already in the target");
		const outside = await appendTask({ scope: "marker", revision: sha256Token(NOTE) });
		expect(outside.isError).toBe(true);
		expect(outside.prose).toContain('Scope "marker"');
		expect(await onDisk("Plan.md")).toBe(NOTE);
	});

	it("appends table rows given as JSON, and reports a heading capped at level 6 as a warning", async () => {
		await s.edit(
			"Plan.md",
			NOTE.replace("- two ^blk\n", "- two ^blk\n\n###### Six\n") + "\n| A | B |\n|---|---|\n| 1 | 2 |\n^tbl\n",
		);
		await mcp.tool("read_note", { path: "Plan.md" });
		const rows = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "block",
			target: "tbl",
			operation: "append",
			json: true,
			content: '[["3", "4"]]',
		});
		expect(rows.isError, rows.prose).toBe(false);
		expect(await onDisk("Plan.md")).toContain("| 1 | 2 |\n| 3 | 4 |\n^tbl\n");
		// Moved one level down, the level-6 heading under Tasks would be a level 7: written at 6, with a warning.
		const deep = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan::Tasks",
			operation: "replace",
			scope: "parent",
			destination: { parent: ["Plan", "Done"], place: "last" },
			revision: rows.structured!.revision,
		});
		expect(deep.isError, deep.prose).toBe(false);
		expect(deep.structured).toMatchObject({ warnings: [{ code: "heading-depth-overflow" }] });
		expect(await onDisk("Plan.md")).toContain("### Tasks\n\n- one\n- two ^blk\n\n###### Six\n");
	});
});
