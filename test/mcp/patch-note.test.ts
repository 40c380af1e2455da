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
		mcp.tool("patch_note", { path: "Plan.md", target_type: "heading", target: "Plan::Tasks", operation: "append", content: "- three", ...extra });

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
		expect(stale.details).toMatchObject({ error: "stale-revision", sentRevision: sha256Token(NOTE), currentRevision: sha256Token(changed) });
		expect(stale.prose).toContain(`call patch_note again with revision="${sha256Token(changed)}"`);
		// The .bak holds what the patch would have made of the note as it is now.
		expect(await onDisk(stale.details!.backupPath as string)).toBe(changed.replace("- two ^blk\n", "- two ^blk\n- three\n"));
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
		const missing = await mcp.tool("patch_note", { path: "Plan.md", target_type: "heading", target: "Plan::Later", operation: "append", content: "- someday", revision: sha256Token(NOTE) });
		expect(missing.isError).toBe(true);
		expect(missing.prose).toContain("Not patched:");
		expect(missing.prose).toContain("create_target_if_missing: true");
		expect(missing.details).toEqual({ error: "target-not-found", reason: "target-not-found", path: "Plan.md", currentRevision: sha256Token(NOTE) });
		expect(await visibleFiles(s.dir)).toEqual(["Plan.md"]);

		const created = await mcp.tool("patch_note", { path: "Plan.md", target_type: "heading", target: "Plan::Later", operation: "append", content: "- someday", revision: sha256Token(NOTE), create_target_if_missing: true });
		expect(created.isError).toBe(false);
		expect(await onDisk("Plan.md")).toMatch(/\n## Later\n+- someday\n$/);
	});

	it("patches frontmatter (a JSON value with json: true), a block, and deletes a section", async () => {
		const tagged = await mcp.tool("patch_note", { path: "Plan.md", target_type: "frontmatter", target: "tags", operation: "append", content: '"b"', json: true, revision: sha256Token(NOTE) });
		expect(tagged.isError).toBe(false);
		expect(await onDisk("Plan.md")).toContain("tags: [a, b]\n");
		const block = await mcp.tool("patch_note", { path: "Plan.md", target_type: "block", target: "blk", operation: "replace", content: "- TWO", revision: tagged.structured!.revision });
		expect(block.isError).toBe(false);
		expect(await onDisk("Plan.md")).toContain("- TWO ^blk\n");
		const deleted = await mcp.tool("patch_note", { path: "Plan.md", target_type: "heading", target: "Plan::Done", operation: "delete", revision: block.structured!.revision });
		expect(deleted.isError).toBe(false);
		expect(await onDisk("Plan.md")).not.toContain("- zero");
	});

	it("answers a missing note and missing content with what to do instead", async () => {
		const missing = await mcp.tool("patch_note", { path: "Nope.md", target_type: "heading", target: "A", operation: "append", content: "x", revision: sha256Token("some other note\n") });
		expect(missing.prose).toContain("There is no note at \"Nope.md\"; patch_note changes an existing note");
		const noContent = await mcp.tool("patch_note", { path: "Plan.md", target_type: "heading", target: "Plan", operation: "append", revision: sha256Token(NOTE) });
		expect(noContent.isError).toBe(true);
		expect(noContent.prose).toContain('operation "append" needs content');
		expect(await onDisk("Plan.md")).toBe(NOTE);
	});
});
