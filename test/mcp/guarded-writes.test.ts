/**
 * The guarded write through MCP, over both gateways, with the SDK's own client: a stale revision (sent, or implicit
 * from this session's last read) is refused with a byte-identical .bak, and the refusal says what to call next.
 */
import { changeTagOf } from "../../src/core/revision-tokens";
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it, vi } from "vitest";
import { clientIdOf } from "../../src/http/security";
import { TEST_KEY } from "../helpers/headless-harness";
import { allFiles, sha256Token, visibleFiles } from "../helpers/vault-files";
import { connect, type Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

const ORIGINAL = "# Plan\n\nline one\n";
const EDITED = "# Plan\n\nline one\nline two from the person\n";
// A BOM, CRLF and no final newline: the .bak must keep every byte.
const AGENT = "\uFEFF# Plan\r\n\r\nthe agent's copy";

describe.each(SUBJECT_NAMES)("MCP guarded writes over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, { "Plan.md": ORIGINAL }, (subject, client) => {
		s = subject;
		mcp = client;
	});

	const onDisk = (path: string) => readFile(join(s.dir, path));

	it("refuses a write with the revision read before an outside edit, keeps a byte-identical .bak, then accepts the fresh revision", async () => {
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		expect(read.isError).toBe(false);
		expect(read.structured).toEqual({ path: "Plan.md", content: ORIGINAL, revision: sha256Token(ORIGINAL) });
		expect(JSON.parse(read.text)).toEqual(read.structured);

		await s.edit("Plan.md", EDITED);
		const stale = await mcp.tool("write_note", { path: "Plan.md", content: AGENT, revision: sha256Token(ORIGINAL) });
		expect(stale.isError).toBe(true);
		expect(stale.structured).toBeUndefined();
		expect((await onDisk("Plan.md")).toString("utf8")).toBe(EDITED);
		const details = stale.details!;
		expect(details).toMatchObject({
			error: "stale-revision",
			path: "Plan.md",
			sentRevision: sha256Token(ORIGINAL),
			currentRevision: sha256Token(EDITED),
		});
		const backupPath = details.backupPath as string;
		expect(backupPath).toMatch(/^Plan\.\d{8}-\d{6}\.bak\.md$/);
		expect(await onDisk(backupPath)).toEqual(Buffer.from(AGENT, "utf8"));
		expect(await visibleFiles(s.dir)).toEqual([backupPath, "Plan.md"].sort());
		// The prose names the .bak, the current revision, the diff and the next calls.
		expect(stale.prose).toContain(`"${backupPath}"`);
		expect(stale.prose).toContain("changed since you read it");
		expect(stale.prose).toContain(`call read_note {"path":"Plan.md"}`);
		expect(stale.prose).toContain(`then call write_note again with revision="${sha256Token(EDITED)}"`);
		expect(stale.prose).toContain("+line two from the person");
		// The diff is sent once, in the prose: a big refusal must not fill the agent's context twice.
		expect(details.changes).toBeUndefined();
		expect(stale.text.split("+line two from the person")).toHaveLength(2);
		expect(stale.prose).not.toContain("You passed no revision");
		const conflict = s.guard.conflicts.get(details.conflictId as string);
		expect(conflict).toMatchObject({
			path: "Plan.md",
			reason: "stale",
			backupPath,
			agent: "test-agent",
			status: "open",
		});

		const reread = await mcp.tool("read_note", { path: "Plan.md" });
		expect(reread.structured).toEqual({ path: "Plan.md", content: EDITED, revision: sha256Token(EDITED) });
		const rebased = EDITED + "the agent's line\n";
		const written = await mcp.tool("write_note", {
			path: "Plan.md",
			content: rebased,
			revision: reread.structured!.revision,
		});
		expect(written.isError).toBe(false);
		expect(written.structured).toEqual({ path: "Plan.md", revision: sha256Token(rebased), created: false });
		expect((await onDisk("Plan.md")).toString("utf8")).toBe(rebased);
		// Writing on top of the revision the conflict was refused against settles it.
		expect(s.guard.conflicts.get(details.conflictId as string)?.status).toBe("resolved");
	});

	it("holds a tokenless write to this session's last read: accepted while current, refused with a .bak once the note changed", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		const first = await mcp.tool("write_note", { path: "Plan.md", content: ORIGINAL + "agent one\n" });
		expect(first.isError).toBe(false);
		expect(first.structured).toEqual({
			path: "Plan.md",
			revision: sha256Token(ORIGINAL + "agent one\n"),
			created: false,
		});

		// Its own write counts as its last read, so the next tokenless write goes through too.
		const second = await mcp.tool("write_note", { path: "Plan.md", content: ORIGINAL + "agent two\n" });
		expect(second.isError).toBe(false);

		await s.edit("Plan.md", EDITED);
		const stale = await mcp.tool("write_note", { path: "Plan.md", content: AGENT });
		expect(stale.isError).toBe(true);
		expect(stale.prose).toContain("You passed no revision, so your last read of this note in this session was used");
		expect(stale.details).toMatchObject({
			error: "stale-revision",
			implicitRevision: true,
			sentRevision: sha256Token(ORIGINAL + "agent two\n"),
			currentRevision: sha256Token(EDITED),
		});
		expect(await onDisk(stale.details!.backupPath as string)).toEqual(Buffer.from(AGENT, "utf8"));
		expect((await onDisk("Plan.md")).toString("utf8")).toBe(EDITED);

		await mcp.tool("read_note", { path: "Plan.md" });
		const fresh = await mcp.tool("write_note", { path: "Plan.md", content: EDITED + "agent three\n" });
		expect(fresh.isError).toBe(false);
		expect((await onDisk("Plan.md")).toString("utf8")).toBe(EDITED + "agent three\n");
	});

	it("refuses a tokenless write to a note this session never read, telling the agent to read first; nothing is kept or written", async () => {
		const refused = await mcp.tool("write_note", { path: "Plan.md", content: AGENT });
		expect(refused.isError).toBe(true);
		expect(refused.prose).toContain("you passed no revision (and this session, if any, has not read it)");
		expect(refused.prose).toContain("edit_note needs no revision");
		expect(refused.prose).toContain(`Read first: call read_note {"path":"Plan.md"}`);
		// A refusal that shows no content hands no token: only the note's change tag.
		expect(refused.details).toMatchObject({
			error: "precondition-required",
			path: "Plan.md",
			changeTag: changeTagOf(sha256Token(ORIGINAL)),
		});
		expect(refused.details).not.toHaveProperty("currentRevision");
		expect((await onDisk("Plan.md")).toString("utf8")).toBe(ORIGINAL);
		expect(await visibleFiles(s.dir)).toEqual(["Plan.md"]);
	});

	it("refuses empty content over a non-empty note unless allow_empty is set", async () => {
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		const refused = await mcp.tool("write_note", { path: "Plan.md", content: "", revision: read.structured!.revision });
		expect(refused.isError).toBe(true);
		expect(refused.details).toMatchObject({ error: "empty-body", path: "Plan.md" });
		expect(refused.prose).toContain("allow_empty: true");
		expect((await onDisk("Plan.md")).toString("utf8")).toBe(ORIGINAL);
		const emptied = await mcp.tool("write_note", {
			path: "Plan.md",
			content: "",
			revision: read.structured!.revision,
			allow_empty: true,
		});
		expect(emptied.isError).toBe(false);
		expect((await onDisk("Plan.md")).toString("utf8")).toBe("");
	});

	it("lets an agent read a .bak note but never change or delete it", async () => {
		await s.edit("Plan.md", EDITED);
		const stale = await mcp.tool("write_note", { path: "Plan.md", content: AGENT, revision: sha256Token(ORIGINAL) });
		const backupPath = stale.details!.backupPath as string;
		const backup = await mcp.tool("read_note", { path: backupPath });
		expect(backup.structured).toMatchObject({ content: AGENT });
		const revision = backup.structured!.revision as string;
		for (const [tool, args] of [
			["write_note", { content: "x\n", revision }],
			["append_note", { content: "x\n" }],
			["delete_note", { revision }],
		] as const) {
			const refused = await mcp.tool(tool, { path: backupPath, ...args });
			expect(refused.isError, tool).toBe(true);
			expect(refused.details).toMatchObject({ error: "backup-read-only" });
		}
		expect(await onDisk(backupPath)).toEqual(Buffer.from(AGENT, "utf8"));
	});

	it("keeps implicit tokens per session: another session of the same key has not read the note", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		const other = await connect(s.port, TEST_KEY);
		try {
			const refused = await other.tool("write_note", { path: "Plan.md", content: AGENT });
			expect(refused.isError).toBe(true);
			expect(refused.details).toMatchObject({ error: "precondition-required" });
		} finally {
			await other.close();
		}
		expect((await onDisk("Plan.md")).toString("utf8")).toBe(ORIGINAL);
	});

	it("creates a missing note without a revision, and sends every write through the guarded writer with this session as the client", async () => {
		const write = vi.spyOn(s.guard.writer, "write");
		const created = await mcp.tool("write_note", { path: "Inbox/New.md", content: "new\n" });
		expect(created.structured).toEqual({ path: "Inbox/New.md", revision: sha256Token("new\n"), created: true });
		expect((await onDisk("Inbox/New.md")).toString("utf8")).toBe("new\n");
		await mcp.tool("append_note", { path: "Inbox/New.md", content: "more\n" });
		await mcp.tool("delete_note", { path: "Inbox/New.md", revision: sha256Token("new\nmore\n") });
		const client = `${clientIdOf(TEST_KEY)}:${mcp.transport.sessionId!}`;
		const actor = { kind: "agent", name: "test-agent", client, keyClient: clientIdOf(TEST_KEY) };
		expect(write.mock.calls.map(([request]) => [request.operation.kind, request.actor])).toEqual([
			["replace", actor],
			["append", actor],
			["delete", actor],
		]);
		expect(
			s.guard.history
				.entries("Inbox/New.md")
				.some((entry) => entry.source.kind === "agent" && entry.source.agent === "test-agent"),
		).toBe(true);
		expect((await allFiles(s.dir)).filter((path) => path.startsWith("Inbox/"))).toEqual([]);
	});
});
