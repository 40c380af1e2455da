/**
 * move_note and copy_note over both gateways: a move needs the note's revision (sent, or this session's whole read),
 * a note at the destination is replaced only with overwrite and its own revision, refusals keep nothing and say what
 * to call next, and answers hand a revision only for a note the agent had whole.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { changeTagOf } from "../../src/core/revision-tokens";
import { allFiles, sha256Token } from "../helpers/vault-files";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

const PLAN = "# Plan\n- one\n";

describe.each(SUBJECT_NAMES)("move_note and copy_note over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, { "Inbox/Plan.md": PLAN, "Other.md": "other\n" }, (subject, client) => {
		s = subject;
		mcp = client;
	});
	const onDisk = (path: string) => readFile(join(s.dir, path), "utf8").catch(() => null);

	it("moves a note this session read, without a revision, and hands back its revision", async () => {
		await mcp.tool("read_note", { path: "Inbox/Plan.md" });
		const result = await mcp.tool("move_note", { path: "Inbox/Plan.md", destination: "Projects/" });
		expect(result.isError, result.text).toBe(false);
		expect(result.structured).toEqual({
			path: "Projects/Plan.md",
			from: "Inbox/Plan.md",
			revision: sha256Token(PLAN),
			rewritten: [],
		});
		expect(await onDisk("Projects/Plan.md")).toBe(PLAN);
		expect(await onDisk("Inbox/Plan.md")).toBeNull();
		// Its read moved with it: write_note on the new path needs no revision now.
		expect((await mcp.tool("write_note", { path: "Projects/Plan.md", content: PLAN + "- two\n" })).isError).toBe(false);
	});

	it("refuses a note the agent never read (read first), one sent with a change tag, and a stale revision; nothing is kept", async () => {
		const unread = await mcp.tool("move_note", { path: "Inbox/Plan.md", destination: "Moved.md" });
		expect(unread.isError).toBe(true);
		expect(unread.details).toMatchObject({
			error: "precondition-required",
			side: "source",
			path: "Inbox/Plan.md",
			changeTag: changeTagOf(sha256Token(PLAN)),
		});
		expect(unread.prose).toContain('read_note {"path":"Inbox/Plan.md"}');
		const tagged = await mcp.tool("move_note", {
			path: "Inbox/Plan.md",
			destination: "Moved.md",
			revision: changeTagOf(sha256Token(PLAN)),
		});
		expect(tagged.details).toMatchObject({ error: "precondition-required", sentToken: "change-tag" });
		const stale = await mcp.tool("move_note", {
			path: "Inbox/Plan.md",
			destination: "Moved.md",
			revision: sha256Token("older\n"),
		});
		expect(stale.details).toMatchObject({ error: "stale-revision", side: "source" });
		expect(stale.prose).toContain("Nothing of yours was lost");
		expect(await onDisk("Inbox/Plan.md")).toBe(PLAN);
		expect(await onDisk("Moved.md")).toBeNull();
		expect((await allFiles(s.dir)).filter((path) => path.endsWith(".bak.md"))).toEqual([]);
	});

	it("never replaces a note at the destination unasked, nor without its revision; with both, it does", async () => {
		const revision = sha256Token(PLAN);
		const taken = await mcp.tool("move_note", { path: "Inbox/Plan.md", destination: "Other.md", revision });
		expect(taken.details).toMatchObject({ error: "destination-exists", side: "destination", path: "Other.md" });
		const unread = await mcp.tool("move_note", {
			path: "Inbox/Plan.md",
			destination: "Other.md",
			revision,
			overwrite: true,
		});
		expect(unread.details).toMatchObject({ error: "precondition-required", side: "destination" });
		expect(await onDisk("Other.md")).toBe("other\n");
		const moved = await mcp.tool("move_note", {
			path: "Inbox/Plan.md",
			destination: "Other.md",
			revision,
			overwrite: true,
			destination_revision: sha256Token("other\n"),
		});
		expect(moved.isError, moved.text).toBe(false);
		expect(await onDisk("Other.md")).toBe(PLAN);
	});

	it("refuses a destination outside the vault or in a hidden folder, before anything is read", async () => {
		for (const destination of ["../x.md", "/abs.md", ".hidden/x.md"]) {
			const result = await mcp.tool("move_note", { path: "Inbox/Plan.md", destination, revision: sha256Token(PLAN) });
			expect(result.details, destination).toMatchObject({ error: "invalid-destination" });
		}
		expect(await onDisk("Inbox/Plan.md")).toBe(PLAN);
	});

	it("copies a note without a revision, handing a change tag to an agent that never read it", async () => {
		const result = await mcp.tool("copy_note", { path: "Inbox/Plan.md", destination: "Copy.md" });
		expect(result.isError, result.text).toBe(false);
		expect(result.structured).toEqual({
			path: "Copy.md",
			from: "Inbox/Plan.md",
			changeTag: changeTagOf(sha256Token(PLAN)),
			created: true,
		});
		expect(await onDisk("Copy.md")).toBe(PLAN);
		expect(await onDisk("Inbox/Plan.md")).toBe(PLAN);
		const again = await mcp.tool("copy_note", { path: "Inbox/Plan.md", destination: "Copy.md" });
		expect(again.details).toMatchObject({ error: "destination-exists" });
	});
});
