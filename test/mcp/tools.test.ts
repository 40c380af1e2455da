/** The other tools over both gateways: append, delete, list, changes, conflict status (with its long-poll), merge: "auto", bad paths. */
import { changeTagOf, partTokenOf } from "../../src/core/revision-tokens";
import { mkdir, readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { allFiles, sha256Token, visibleFiles } from "../helpers/vault-files";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

const PLAN = "# Plan\n\n- one\n- two\n- three\n";

describe.each(SUBJECT_NAMES)("MCP tools over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, { "Plan.md": PLAN }, (subject, client) => {
		s = subject;
		mcp = client;
	});

	const onDisk = async (path: string) => (await readFile(join(s.dir, path))).toString("utf8");

	/** A refused write, so there is a conflict to look at. */
	async function refusedWrite(): Promise<{ conflictId: string; backupPath: string }> {
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		await s.edit("Plan.md", PLAN + "- four\n");
		const stale = await mcp.tool("write_note", {
			path: "Plan.md",
			content: "agent\n",
			revision: read.structured!.revision,
		});
		expect(stale.isError).toBe(true);
		return stale.details as { conflictId: string; backupPath: string };
	}

	it("append_note appends without a revision, creates a missing note, and its revision counts as this session's read", async () => {
		const appended = await mcp.tool("append_note", { path: "Plan.md", content: "- four\n" });
		// The session never read Plan.md: it saw only what it appended, so it is handed a part token, and its append
		// does not stand for a read of the whole note.
		expect(appended.structured).toEqual({ path: "Plan.md", revision: partTokenOf(sha256Token(PLAN + "- four\n")) });
		expect(await onDisk("Plan.md")).toBe(PLAN + "- four\n");
		const blind = await mcp.tool("write_note", { path: "Plan.md", content: "rewritten\n" });
		expect(blind.details).toMatchObject({ error: "precondition-required" });
		expect(blind.prose).toContain("showed only part of it");
		expect(await onDisk("Plan.md")).toBe(PLAN + "- four\n");
		const created = await mcp.tool("append_note", { path: "Log.md", content: "first\n" });
		expect(created.structured).toEqual({ path: "Log.md", revision: sha256Token("first\n") });
		// Appending read nothing, but the session knows what it wrote, so a tokenless write on top of it is checked against that.
		expect((await mcp.tool("write_note", { path: "Log.md", content: "rewritten\n" })).isError).toBe(false);
		expect(await onDisk("Log.md")).toBe("rewritten\n");
	});

	it("delete_note needs the revision: missing → invalid input, stale → refused and kept, fresh → trashed", async () => {
		const missing = await mcp.tool("delete_note", { path: "Plan.md" });
		expect(missing.isError).toBe(true);
		expect(missing.text).toContain("revision");
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		await s.edit("Plan.md", PLAN + "- four\n");
		const stale = await mcp.tool("delete_note", { path: "Plan.md", revision: read.structured!.revision });
		expect(stale.isError).toBe(true);
		expect(stale.prose).toContain("nothing was deleted");
		expect(stale.prose).toContain(`delete_note with revision="${sha256Token(PLAN + "- four\n")}"`);
		expect(stale.details).toMatchObject({ error: "stale-revision", currentRevision: sha256Token(PLAN + "- four\n") });
		expect(await onDisk("Plan.md")).toBe(PLAN + "- four\n");

		const deleted = await mcp.tool("delete_note", { path: "Plan.md", revision: sha256Token(PLAN + "- four\n") });
		expect(deleted.structured).toEqual({ path: "Plan.md", deleted: true });
		expect(await visibleFiles(s.dir)).toEqual([]);
		expect((await allFiles(s.dir)).some((path) => path.startsWith(".trash/"))).toBe(true);
		const gone = await mcp.tool("delete_note", { path: "Plan.md", revision: sha256Token(PLAN + "- four\n") });
		expect(gone.isError).toBe(true);
		expect(gone.prose).toContain("There is no note");
	});

	it("write_note creates a note again after this session deleted it: no revision needed, no .bak", async () => {
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		expect((await mcp.tool("delete_note", { path: "Plan.md", revision: read.structured!.revision })).isError).toBe(
			false,
		);
		const again = await mcp.tool("write_note", { path: "Plan.md", content: "back\n" });
		expect(again.isError, again.text).toBe(false);
		expect(again.structured).toMatchObject({ path: "Plan.md", created: true });
		expect(await onDisk("Plan.md")).toBe("back\n");
		expect(await visibleFiles(s.dir)).toEqual(["Plan.md"]);
	});

	it("list_notes lists one folder's notes with change tags, and its sub-folders, but nothing hidden or not a note", async () => {
		await s.create("Projects/Alpha.md", "alpha\n");
		await s.create("Projects/Deep/Beta.md", "beta\n");
		await s.create("Projects/image.png", "not a note");
		await mkdir(join(s.dir, ".hidden"), { recursive: true });
		const root = await mcp.tool("list_notes", {});
		expect(root.structured).toMatchObject({ folder: "", folders: ["Projects"] });
		// A listing shows no content: each note comes with its change tag, never a revision.
		const rootNotes = root.structured!.notes as { path: string; changeTag: string; size: number; mtime: number }[];
		expect(rootNotes.map((note) => [note.path, note.changeTag, note.size])).toEqual([
			["Plan.md", changeTagOf(sha256Token(PLAN)), Buffer.byteLength(PLAN)],
		]);
		expect(root.text).not.toContain(sha256Token(PLAN));
		expect(rootNotes[0]!.mtime).toBeGreaterThan(0);
		const projects = await mcp.tool("list_notes", { folder: "Projects" });
		expect(projects.structured).toMatchObject({
			folder: "Projects",
			folders: ["Projects/Deep"],
			notes: [{ path: "Projects/Alpha.md", changeTag: changeTagOf(sha256Token("alpha\n")) }],
		});
		expect((projects.structured!.notes as unknown[]).length).toBe(1);
		expect((await mcp.tool("list_notes", { folder: "Nope" })).prose).toContain("There is no folder");
		expect((await mcp.tool("list_notes", { folder: "../outside" })).isError).toBe(true);
		expect((await mcp.tool("list_notes", { folder: ".obsidian" })).prose).toContain("not served");
	});

	it("note_changes gives the diff from a revision to the note now", async () => {
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		await s.edit("Plan.md", PLAN.replace("- two", "- TWO"));
		const changes = await mcp.tool("note_changes", { path: "Plan.md", since: read.structured!.revision });
		expect(changes.structured).toMatchObject({
			path: "Plan.md",
			since: sha256Token(PLAN),
			revision: sha256Token(PLAN.replace("- two", "- TWO")),
			changed: true,
		});
		expect(changes.structured!.diff).toContain("-- two\n+- TWO\n");
		const unknown = await mcp.tool("note_changes", { path: "Plan.md", since: "x".repeat(43) });
		expect(unknown.isError).toBe(true);
		expect(unknown.prose).toContain("not retained");
	});

	it("conflict_status shows the record, and with wait returns as soon as the conflict is dismissed", async () => {
		const { conflictId, backupPath } = await refusedWrite();
		const now = await mcp.tool("conflict_status", { id: conflictId });
		expect(now.structured).toMatchObject({
			id: conflictId,
			path: "Plan.md",
			reason: "stale",
			backupPath,
			agent: "test-agent",
			status: "open",
		});

		const started = Date.now();
		const waiting = mcp.tool("conflict_status", { id: conflictId, wait: 20 });
		setTimeout(() => s.guard.resolver.dismiss(conflictId), 150);
		const settled = await waiting;
		expect(settled.structured).toMatchObject({ id: conflictId, status: "dismissed" });
		expect(settled.structured!.resolvedAt).toEqual(expect.any(String));
		expect(Date.now() - started).toBeLessThan(10_000);

		const timedOut = await mcp.tool("conflict_status", { id: conflictId, wait: 0.1 });
		expect(timedOut.structured).toMatchObject({ status: "dismissed" });
		expect((await mcp.tool("conflict_status", { id: conflictId, wait: 61 })).isError).toBe(true);
		expect((await mcp.tool("conflict_status", { id: "c-nope" })).prose).toContain("There is no conflict");
	});

	it('write_note with merge: "auto" writes a clean merge of a stale write, and refuses an overlapping one with a preview', async () => {
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		await s.edit("Plan.md", PLAN.replace("- one", "- one (person)"));
		const merged = await mcp.tool("write_note", {
			path: "Plan.md",
			content: PLAN.replace("- three", "- three (agent)"),
			revision: read.structured!.revision,
			merge: "auto",
		});
		const expected = "# Plan\n\n- one (person)\n- two\n- three (agent)\n";
		expect(merged.isError).toBe(false);
		// The agent has not seen the merge: a part token (it can patch; read_note before replacing).
		expect(merged.structured).toEqual({
			path: "Plan.md",
			revision: partTokenOf(sha256Token(expected)),
			created: false,
			merged: true,
		});
		expect(await onDisk("Plan.md")).toBe(expected);

		await s.edit("Plan.md", expected.replace("- two", "- two (person)"));
		const clash = await mcp.tool("write_note", {
			path: "Plan.md",
			content: expected.replace("- two", "- two (agent)"),
			revision: sha256Token(expected),
			merge: "auto",
		});
		expect(clash.isError).toBe(true);
		expect(clash.prose).toContain("could not be merged automatically");
		expect(clash.details!.mergePreview).toContain("<<<<<<<");
		expect(await onDisk(clash.details!.backupPath as string)).toBe(expected.replace("- two", "- two (agent)"));
		expect(await onDisk("Plan.md")).toBe(expected.replace("- two", "- two (person)"));
	});

	it("refuses paths the REST validator refuses, with its reason, reading and writing nothing", async () => {
		const cases: [string, string][] = [
			["../outside.md", "`.` and `..` segments are not allowed."],
			["/abs.md", "relative to the vault"],
			[".obsidian/app.md", "not served"],
			["notes/a.txt", "Only notes"],
			["a\\b.md", "Backslashes"],
		];
		for (const [path, reason] of cases) {
			for (const [tool, args] of [
				["read_note", { path }],
				["write_note", { path, content: "x\n" }],
				["append_note", { path, content: "x\n" }],
				["delete_note", { path, revision: "r" }],
				["note_changes", { path, since: "r" }],
				["edit_note", { path, edits: [{ old_string: "a", new_string: "b" }] }],
				["patch_note", { path, target_type: "heading", target: "A", operation: "append", content: "x", revision: "r" }],
			] as const) {
				const result = await mcp.tool(tool, args);
				expect(result.isError, `${tool} ${path}`).toBe(true);
				expect(result.prose, `${tool} ${path}`).toContain(reason);
				expect(result.prose).toContain("Nothing was read or written.");
			}
		}
		expect(await visibleFiles(s.dir)).toEqual(["Plan.md"]);
	});

	it("turns the gateway's refusal of a path (a folder in the way) into a tool error", async () => {
		await s.folder("Folder.md");
		const result = await mcp.tool("write_note", { path: "Folder.md", content: "x\n" });
		expect(result.isError).toBe(true);
		expect(result.prose).toBe('"Folder.md" is a folder, not a note. Nothing was read or written.');
	});

	it("takes a revision in ETag form too (quoted, as REST sends it), for writes, deletes and changes", async () => {
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		const etag = `"${read.structured!.revision as string}"`;
		const written = await mcp.tool("write_note", { path: "Plan.md", content: PLAN + "- four\n", revision: etag });
		expect(written.isError).toBe(false);
		expect((await mcp.tool("note_changes", { path: "Plan.md", since: etag })).structured).toMatchObject({
			since: sha256Token(PLAN),
			changed: true,
		});
		expect(
			(await mcp.tool("delete_note", { path: "Plan.md", revision: `"${written.structured!.revision as string}"` }))
				.structured,
		).toEqual({ path: "Plan.md", deleted: true });
	});

	it("reading a missing note says how to create it", async () => {
		const result = await mcp.tool("read_note", { path: "Missing.md" });
		expect(result.isError).toBe(true);
		expect(result.prose).toContain("call write_note without a revision");
	});
});
