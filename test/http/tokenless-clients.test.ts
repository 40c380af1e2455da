/**
 * Implicit tokens, over BOTH gateways: a client that never sends If-Match (tools written for the Local REST API) is
 * held to the revision it last read of the note, so its stale copy is refused and kept instead of overwriting.
 */
import { changeTagOf } from "../../src/core/revision-tokens";
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CallResult } from "../helpers/http-client";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { sha256Token, visibleFiles, writeVaultFile } from "../helpers/vault-files";
import { OTHER_KEY, STACKS, type Stack, type StackOptions } from "./stacks";

forbidServerErrors();

const ORIGINAL = "line one\n";
const EDITED = "line one\nline two from the person\n";
const HELD_TO = "your last read of this note was used";

interface StaleProblem {
	type: string;
	detail: string;
	sentRevision: string | null;
	currentRevision: string | null;
	backupPath: string | null;
	conflictId: string;
	implicitRevision?: boolean;
}

/** The person (in Obsidian) or another program (a plain folder) deletes the note. */
async function removeNote(s: Stack, dir: string): Promise<void> {
	const file = s.app?.vault.getFileByPath("Note.md");
	if (s.app && file) await s.app.vault.delete(file);
	else await rm(join(dir, "Note.md"));
	for (let attempt = 0; attempt < 200; attempt++) {
		if ((await s.guard.gateway.read("Note.md").catch(() => null)) === null) return;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error("the note was never seen gone");
}

function expectProblem(res: CallResult, status: number, name: string): void {
	expect(res.status, res.text).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status });
}

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("tokenless clients over the %s gateway", (name) => {
	let dir: string;
	let s: Stack;
	const start = async (options: StackOptions = {}) => {
		s = await STACKS[name](dir, options);
	};
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-tokenless-"));
		await writeVaultFile(dir, "Note.md", ORIGINAL);
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});
	const put = (body: string, headers: Record<string, string> = {}) =>
		s.api("/vault/Note.md", { method: "PUT", body, headers });
	const del = (headers: Record<string, string> = {}) => s.api("/vault/Note.md", { method: "DELETE", headers });
	const backups = async () => (await visibleFiles(dir)).filter((path) => path.endsWith(".bak.md"));

	describe("(a) the last read is the current revision", () => {
		it("accepts a tokenless PUT", async () => {
			await start();
			expect((await s.api("/vault/Note.md")).status).toBe(200);
			const res = await put("agent version\n");
			expect(res.status, res.text).toBe(204);
			expect(res.headers.etag).toBe(`"${sha256Token("agent version\n")}"`);
			expect(await s.file("Note.md")).toBe("agent version\n");
		});

		it("accepts a tokenless DELETE", async () => {
			await start();
			await s.api("/vault/Note.md");
			expect((await del()).status).toBe(204);
			expect(await s.file("Note.md")).toBeNull();
		});

		it("counts a JSON read as a read", async () => {
			await start();
			await s.api("/vault/Note.md", { headers: { Accept: "application/vnd.olrapi.note+json" } });
			expect((await put("agent version\n")).status).toBe(204);
		});
	});

	describe("(b) the client read an older revision", () => {
		it("refuses a tokenless PUT with 412, a .bak, a conflict record and implicitRevision", async () => {
			await start();
			await s.api("/vault/Note.md");
			await s.edit("Note.md", EDITED);
			const res = await put("agent's stale copy\n");
			expectProblem(res, 412, "stale-revision");
			const problem = res.json<StaleProblem>();
			expect(problem).toMatchObject({
				implicitRevision: true,
				sentRevision: sha256Token(ORIGINAL),
				currentRevision: sha256Token(EDITED),
			});
			expect(problem.detail).toContain(HELD_TO);
			expect(await s.file(problem.backupPath!)).toBe("agent's stale copy\n");
			expect(await s.file("Note.md")).toBe(EDITED);
			const conflict = await s.api(`/conflicts/${problem.conflictId}`);
			expect(conflict.json()).toMatchObject({
				path: "Note.md",
				reason: "stale",
				status: "open",
				agent: "test-agent",
				sentRevision: changeTagOf(sha256Token(ORIGINAL)),
				backupPath: problem.backupPath,
			});
		});

		it("refuses a tokenless DELETE with 412 and keeps the note", async () => {
			await start();
			await s.api("/vault/Note.md");
			await s.edit("Note.md", EDITED);
			const res = await del();
			expectProblem(res, 412, "stale-revision");
			expect(res.json<StaleProblem>()).toMatchObject({ implicitRevision: true, sentRevision: sha256Token(ORIGINAL) });
			expect(res.json<StaleProblem>().detail).toContain(HELD_TO);
			expect(await s.file("Note.md")).toBe(EDITED);
		});
	});

	describe("(c) the client never read the note", () => {
		it("answers a tokenless PUT with 428 that says to read first, and writes nothing", async () => {
			await start();
			const res = await put("blind write\n");
			expectProblem(res, 428, "precondition-required");
			expect(res.json<StaleProblem>().detail).toMatch(/you have not read it.*GET the note first/);
			expect(await s.file("Note.md")).toBe(ORIGINAL);
			expect(await backups()).toEqual([]);
		});

		it("answers a tokenless DELETE with 428 that says to read first", async () => {
			await start();
			const res = await del();
			expectProblem(res, 428, "precondition-required");
			expect(res.json<StaleProblem>().detail).toMatch(/GET the note/);
			expect(await s.file("Note.md")).toBe(ORIGINAL);
		});

		it("does not count a HEAD as a read", async () => {
			await start();
			expect((await s.api("/vault/Note.md", { method: "HEAD" })).status).toBe(200);
			expectProblem(await put("x\n"), 428, "precondition-required");
		});

		it("does not count a 304 as a read: it showed no content", async () => {
			await start();
			const etag = (await s.api("/vault/Note.md", { method: "HEAD" })).headers.etag as string;
			expect((await s.api("/vault/Note.md", { headers: { "If-None-Match": etag } })).status).toBe(304);
			expectProblem(await put("x\n"), 428, "precondition-required");
			expect(await s.file("Note.md")).toBe(ORIGINAL);
		});
	});

	it("(d) counts the client's own write as its read: read → write → write needs no re-read", async () => {
		await start();
		await s.api("/vault/Note.md");
		expect((await put("first\n")).status).toBe(204);
		expect((await put("second\n")).status).toBe(204);
		expect(await s.file("Note.md")).toBe("second\n");
		// …and is still held to it: someone else's edit after that write makes the next one stale.
		await s.edit("Note.md", "person\n");
		const stale = await put("third\n");
		expectProblem(stale, 412, "stale-revision");
		expect(stale.json<StaleProblem>()).toMatchObject({ implicitRevision: true, sentRevision: sha256Token("second\n") });
		expect(await s.file("Note.md")).toBe("person\n");
	});

	it("(d) counts an append as a write the client knows", async () => {
		await start();
		await s.api("/vault/Note.md");
		expect((await s.api("/vault/Note.md", { method: "POST", body: "appended\n" })).status).toBe(204);
		expect((await put("replaced\n")).status).toBe(204);
	});

	it("(d) an append to a note the client never read is not a read of the whole note: a tokenless PUT after it is 428", async () => {
		await start();
		expect((await s.api("/vault/Note.md", { method: "POST", body: "appended\n" })).status).toBe(204);
		const refused = await put("replaced\n");
		expectProblem(refused, 428, "precondition-required");
		expect(refused.json()).toMatchObject({ lastReadPart: true });
		// A patch may stand on what it appended: that changes only the part it names.
		expect(await s.file("Note.md")).toBe(ORIGINAL + "appended\n");
	});

	describe("(k) a note that is gone stands for no read", () => {
		it("creates the note again after the key deleted it, without a token and without a .bak (PUT and MCP alike)", async () => {
			await start();
			const read = await s.api("/vault/Note.md");
			expect((await del({ "If-Match": read.headers.etag as string })).status).toBe(204);
			const again = await put("back again\n");
			expect(again.status, again.text).toBe(204);
			expect(await s.file("Note.md")).toBe("back again\n");
			expect(await backups()).toEqual([]);
		});

		it("creates it without a token after someone else deleted it, though the key had read it", async () => {
			await start();
			await s.api("/vault/Note.md");
			await removeNote(s, dir);
			const again = await put("recreated\n");
			expect(again.status, again.text).toBe(204);
			expect(await s.file("Note.md")).toBe("recreated\n");
			expect(await backups()).toEqual([]);
		});

		it("forgets the read when a read finds the note gone: a new note at the path is 428, not held to the old one", async () => {
			await start();
			await s.api("/vault/Note.md");
			await removeNote(s, dir);
			expect((await s.api("/vault/Note.md")).status).toBe(404);
			await s.edit("Note.md", "the person's new note\n");
			expectProblem(await put("agent\n"), 428, "precondition-required");
			expect(await s.file("Note.md")).toBe("the person's new note\n");
			expect(await backups()).toEqual([]);
		});

		it("still refuses an explicit If-Match on a note that is gone (412): that client asked for that revision", async () => {
			await start();
			const read = await s.api("/vault/Note.md");
			expect((await del({ "If-Match": read.headers.etag as string })).status).toBe(204);
			expectProblem(await put("x\n", { "If-Match": read.headers.etag as string }), 412, "stale-revision");
		});
	});

	it("(e) another key's read does not count for this key", async () => {
		await start();
		await s.api("/vault/Note.md", { headers: { Authorization: `Bearer ${OTHER_KEY}` } });
		expectProblem(await put("x\n"), 428, "precondition-required");
		expect(await s.file("Note.md")).toBe(ORIGINAL);
		// The other key itself is held to its read.
		expect((await put("by the other key\n", { Authorization: `Bearer ${OTHER_KEY}` })).status).toBe(204);
	});

	describe("(f) the read validity window", () => {
		it("forgets a read older than the window (428) and honours one inside it", async () => {
			let time = Date.UTC(2026, 10, 21, 10, 15, 0);
			await start({ settings: { readValidityMinutes: 5 }, now: () => time });
			await s.api("/vault/Note.md");
			time += 5 * 60_000 + 1;
			expectProblem(await put("late\n"), 428, "precondition-required");
			expect(await s.file("Note.md")).toBe(ORIGINAL);
			await s.api("/vault/Note.md");
			time += 4 * 60_000;
			expect((await put("in time\n")).status).toBe(204);
		});
	});

	it("(g) the ledger is bounded: the least recently read note is forgotten first (428)", async () => {
		await writeVaultFile(dir, "B.md", "b\n");
		await writeVaultFile(dir, "C.md", "c\n");
		await start({ settings: { readLedgerCap: 2 } });
		for (const path of ["Note.md", "B.md", "C.md"]) await s.api(`/vault/${path}`);
		expect(s.guard.reads.size).toBe(2);
		expectProblem(await put("forgotten\n"), 428, "precondition-required");
		expect(await s.file("Note.md")).toBe(ORIGINAL);
		expect((await s.api("/vault/C.md", { method: "PUT", body: "c2\n" })).status).toBe(204);
		expect((await s.api("/vault/B.md", { method: "PUT", body: "b2\n" })).status).toBe(204);
	});

	it("(h) protectTokenlessClients: false restores the plain 428", async () => {
		await start({ settings: { protectTokenlessClients: false } });
		await s.api("/vault/Note.md");
		const res = await put("x\n");
		expectProblem(res, 428, "precondition-required");
		expect(res.json<StaleProblem>().implicitRevision).toBeUndefined();
		expectProblem(await del(), 428, "precondition-required");
		expect(await s.file("Note.md")).toBe(ORIGINAL);
	});

	describe("(i) an explicit If-Match always wins", () => {
		it("refuses a stale explicit tag even though the last read is current", async () => {
			await start();
			const old = (await s.api("/vault/Note.md")).headers.etag as string;
			await s.edit("Note.md", EDITED);
			await s.api("/vault/Note.md");
			const res = await put("x\n", { "If-Match": old });
			expectProblem(res, 412, "stale-revision");
			expect(res.json<StaleProblem>().implicitRevision).toBeUndefined();
			expect(res.json<StaleProblem>().detail).not.toContain(HELD_TO);
			expect(await s.file("Note.md")).toBe(EDITED);
		});

		it("accepts a current explicit tag even though the client read something older", async () => {
			await start();
			await s.api("/vault/Note.md");
			await s.edit("Note.md", EDITED);
			// A client that knows the text can name its revision itself (the hash of its bytes); the ledger still holds the
			// old revision, but a sent If-Match is what counts.
			const current = `"${sha256Token(EDITED)}"`;
			expect((await put("x\n", { "If-Match": current })).status).toBe(204);
			expect(await s.file("Note.md")).toBe("x\n");
		});
	});

	it("(j) restarting forgets every read: a new stack on the same folder answers 428, never overwrites", async () => {
		await start();
		await s.api("/vault/Note.md");
		await s.close();
		await start();
		expectProblem(await put("after restart\n"), 428, "precondition-required");
		expectProblem(await del(), 428, "precondition-required");
		expect(await s.file("Note.md")).toBe(ORIGINAL);
	});
});
