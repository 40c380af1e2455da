import { readFile, writeFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startHeadless, type Harness, type HarnessOptions } from "../../helpers/headless-harness";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { allFiles, sha256Token, visibleFiles, writeVaultFile } from "../../helpers/vault-files";
import type { RevisionGuardSettings } from "../../../src/settings";
import { changeTagOf, partTokenOf } from "../../../src/core/revision-tokens";

forbidServerErrors();

let h: Harness;
beforeEach(async () => {
	h = await startHeadless();
});
afterEach(async () => {
	await h.close();
});

/** Replaces the default harness (for settings that must be in place from the start, or an injected clock). */
async function restart(overrides: Partial<RevisionGuardSettings> = {}, options: HarnessOptions = {}): Promise<void> {
	await h.close();
	h = await startHeadless(overrides, undefined, options);
}

interface StaleProblem {
	type: string;
	status: number;
	detail: string;
	path: string;
	sentRevision: string | null;
	currentRevision: string | null;
	backupPath: string | null;
	conflictId: string;
	changes: string | null;
}

const quoted = (revision: string) => `"${revision}"`;

async function etagOf(path: string): Promise<string> {
	const res = await h.api(`/vault/${path}`);
	expect(res.status).toBe(200);
	return res.headers.etag as string;
}

async function fileText(path: string): Promise<string> {
	return readFile(join(h.dir, path), "utf8");
}

async function backups(): Promise<string[]> {
	return (await visibleFiles(h.dir)).filter((path) => path.endsWith(".bak.md"));
}

function expectProblem(res: CallResult, status: number, name: string): void {
	expect(res.status, res.text).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({
		type: `/problems/${name}`,
		status,
		title: expect.any(String),
		detail: expect.any(String),
	});
}

/** 2026-11-21 10:15:00 UTC, and a clock tests can move. */
const T0 = Date.UTC(2026, 10, 21, 10, 15, 0);
function manualClock(start = T0): { now: () => number; advance(ms: number): void } {
	let time = start;
	return { now: () => time, advance: (ms) => void (time += ms) };
}

describe("PUT /vault/{path}", () => {
	it("creates a note without a token and returns its ETag", async () => {
		const res = await h.api("/vault/notes/new.md", { method: "PUT", body: "hello\n" });
		expect(res.status).toBe(204);
		expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
		expect(await readFile(join(h.dir, "notes/new.md"), "utf8")).toBe("hello\n");
	});

	it("answers a create with 204 (as the Local REST API does), Location and the body's SHA-256 as ETag", async () => {
		const res = await h.api("/vault/My%20Notes/new%20plan.md", { method: "PUT", body: "hello 🌍\n" });
		expect(res.status).toBe(204);
		expect(res.text).toBe("");
		expect(res.headers.location).toBe("/vault/My%20Notes/new%20plan.md");
		expect(res.headers.etag).toBe(quoted(sha256Token("hello 🌍\n")));
		const read = await h.api(res.headers.location as string);
		expect(read.text).toBe("hello 🌍\n");
		expect(read.headers.etag).toBe(res.headers.etag);
	});

	it("creates missing parent folders", async () => {
		const res = await h.api("/vault/a/b/c/deep.md", { method: "PUT", body: "deep\n" });
		expect(res.status).toBe(204);
		expect(await fileText("a/b/c/deep.md")).toBe("deep\n");
	});

	it("refuses an update without If-Match with 428", async () => {
		await writeFile(join(h.dir, "a.md"), "one\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n" });
		expect(res.status).toBe(428);
		expect(res.headers["content-type"]).toContain("application/problem+json");
		expect(res.json().detail).toMatch(/If-Match/);
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("one\n");
		expect(await backups()).toEqual([]);
	});

	it("refuses a stale write with 412 and keeps the body as .bak", async () => {
		await writeFile(join(h.dir, "a.md"), "one\n");
		const read = await h.api("/vault/a.md");
		const etag = read.headers.etag as string;
		await writeFile(join(h.dir, "a.md"), "one\nuser edit\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "agent version\n", headers: { "If-Match": etag } });
		expect(res.status).toBe(412);
		const body = res.json<{ backupPath: string; changes: string; conflictId: string; sentRevision: string }>();
		expect(body.sentRevision).toBe(etag.slice(1, -1));
		expect(await readFile(join(h.dir, body.backupPath), "utf8")).toBe("agent version\n");
		expect(body.changes).toContain("+user edit");
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("one\nuser edit\n");
		const conflict = await h.api(`/conflicts/${body.conflictId}`);
		expect(conflict.json()).toMatchObject({ path: "a.md", status: "open", agent: "test-agent" });
	});

	it("describes a stale refusal with path, sentRevision, currentRevision, backupPath, conflictId and a unified diff from the sent revision", async () => {
		await writeVaultFile(h.dir, "notes/a.md", "one\ntwo\n");
		const etag = await etagOf("notes/a.md");
		await writeVaultFile(h.dir, "notes/a.md", "one\nTWO\nthree\n");
		const res = await h.api("/vault/notes/a.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } });
		expectProblem(res, 412, "stale-revision");
		const sent = sha256Token("one\ntwo\n");
		const current = sha256Token("one\nTWO\nthree\n");
		const body = res.json<StaleProblem>();
		expect(body).toMatchObject({ path: "notes/a.md", sentRevision: sent, currentRevision: current });
		expect(body.conflictId).toMatch(/^c-\d{8}-\d{6}-[0-9a-f]+$/);
		expect(body.backupPath).toMatch(/^notes\/a\.\d{8}-\d{6}\.bak\.md$/);
		expect(body.changes).toBe(
			`--- a/notes/a.md@${sent.slice(0, 12)}\n+++ b/notes/a.md\n@@ -1,2 +1,3 @@\n one\n-two\n+TWO\n+three\n`,
		);
		expect(res.headers.etag).toBe(quoted(current));
		expect(body.detail).toContain(body.backupPath as string);
	});

	it("gives changes: null when the sent revision was never retained", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const res = await h.api("/vault/a.md", {
			method: "PUT",
			body: "x\n",
			headers: { "If-Match": quoted(sha256Token("never seen\n")) },
		});
		expectProblem(res, 412, "stale-revision");
		// No diff, so no token of the note now: only its change tag (a token comes only with the content it names).
		const body = res.json<StaleProblem>();
		expect(body).toMatchObject({
			sentRevision: sha256Token("never seen\n"),
			changes: null,
			changeTag: changeTagOf(sha256Token("one\n")),
		});
		expect(body).not.toHaveProperty("currentRevision");
		expect(res.headers.etag).toBe(`W/"${changeTagOf(sha256Token("one\n"))}"`);
	});

	it.each([
		["emoji", Buffer.from("agent 🧠✨ wrote this\n", "utf8")],
		["CRLF line endings", Buffer.from("line one\r\nline two\r\n", "utf8")],
		["a byte order mark", Buffer.from("\ufeff# Title\nbody\n", "utf8")],
		["no trailing newline", Buffer.from("no newline at the end", "utf8")],
		["all of them", Buffer.from("\ufeff🎉 one\r\ntwo\rthree\u2028four", "utf8")],
	])("keeps a refused body with %s byte for byte in the .bak", async (_label, sent) => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = await etagOf("a.md");
		await writeVaultFile(h.dir, "a.md", "changed\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: sent, headers: { "If-Match": etag } });
		expect(res.status).toBe(412);
		const { backupPath, conflictId } = res.json<StaleProblem>();
		const kept = await readFile(join(h.dir, backupPath as string));
		expect(kept.equals(sent), `${kept.toString("hex")} vs ${sent.toString("hex")}`).toBe(true);
		const record = (await h.api(`/conflicts/${conflictId}`)).json();
		// Records name revisions by their change tags (they show no content).
		expect(record.proposedRevision).toBe(changeTagOf(sha256Token(sent)));
		expect(await fileText("a.md")).toBe("changed\n");
	});

	it("stores an accepted body byte for byte (BOM, CRLF, emoji, no trailing newline)", async () => {
		const sent = Buffer.from("\ufeff🎉 one\r\ntwo", "utf8");
		const res = await h.api("/vault/exact.md", { method: "PUT", body: sent });
		expect(res.status).toBe(204);
		expect((await readFile(join(h.dir, "exact.md"))).equals(sent)).toBe(true);
		expect(res.headers.etag).toBe(quoted(sha256Token(sent)));
	});

	it("names the .bak <name>.<UTC yyyyMMdd-HHmmss>.bak.md beside the note", async () => {
		await restart({}, { now: manualClock().now });
		await writeVaultFile(h.dir, "notes/Plan.md", "one\n");
		const etag = await etagOf("notes/Plan.md");
		await writeVaultFile(h.dir, "notes/Plan.md", "two\n");
		const res = await h.api("/vault/notes/Plan.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } });
		expect(res.json<StaleProblem>().backupPath).toBe("notes/Plan.20261121-101500.bak.md");
		expect(await fileText("notes/Plan.20261121-101500.bak.md")).toBe("agent\n");
	});

	it("gives two refusals in the same second distinct .bak names and never overwrites one", async () => {
		await restart({}, { now: manualClock().now });
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = await etagOf("a.md");
		await writeVaultFile(h.dir, "a.md", "two\n");
		const [first, second] = await Promise.all([
			h.api("/vault/a.md", { method: "PUT", body: "first agent\n", headers: { "If-Match": etag } }),
			h.api("/vault/a.md", { method: "PUT", body: "second agent\n", headers: { "If-Match": etag } }),
		]);
		const third = await h.api("/vault/a.md", { method: "PUT", body: "third agent\n", headers: { "If-Match": etag } });
		const paths = [first, second, third].map((res) => res.json<StaleProblem>().backupPath);
		expect(new Set(paths).size).toBe(3);
		expect([...paths].sort()).toEqual([
			"a.20261121-101500-2.bak.md",
			"a.20261121-101500-3.bak.md",
			"a.20261121-101500.bak.md",
		]);
		expect(await fileText(paths[0]!)).toBe("first agent\n");
		expect(await fileText(paths[1]!)).toBe("second agent\n");
		expect(await fileText(paths[2]!)).toBe("third agent\n");
	});

	it("puts the .bak in backupFolder, mirroring the note's folders, when that setting is set", async () => {
		await restart({}, { now: manualClock().now });
		h.settings.backupFolder = "Backups";
		await writeVaultFile(h.dir, "notes/Plan.md", "one\n");
		const etag = await etagOf("notes/Plan.md");
		await writeVaultFile(h.dir, "notes/Plan.md", "two\n");
		const res = await h.api("/vault/notes/Plan.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } });
		expect(res.json<StaleProblem>().backupPath).toBe("Backups/notes/Plan.20261121-101500.bak.md");
		expect(await fileText("Backups/notes/Plan.20261121-101500.bak.md")).toBe("agent\n");
		expect(await backups()).toEqual(["Backups/notes/Plan.20261121-101500.bak.md"]);
	});

	it("treats an identical body as success with the current ETag even under a stale token (safe retry)", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const stale = await etagOf("a.md");
		await writeVaultFile(h.dir, "a.md", "two\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": stale } });
		expect(res.status).toBe(204);
		expect(res.headers.etag).toBe(quoted(sha256Token("two\n")));
		expect(await backups()).toEqual([]);
		expect((await h.api("/conflicts")).json()).toEqual({ conflicts: [] });
	});

	it("retries a successful PUT safely: the same request again is 204 with the same ETag", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = await etagOf("a.md");
		const first = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": etag } });
		const retry = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": etag } });
		expect(first.status).toBe(204);
		expect(retry.status).toBe(204);
		expect(retry.headers.etag).toBe(first.headers.etag);
	});

	it("accepts a fresh token", async () => {
		await writeFile(join(h.dir, "a.md"), "one\n");
		const read = await h.api("/vault/a.md");
		const res = await h.api("/vault/a.md", {
			method: "PUT",
			body: "two\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(res.status).toBe(204);
		expect(res.headers.etag).not.toBe(read.headers.etag);
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("two\n");
	});

	it("accepts an If-Match list when one strong tag in it is current", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = await etagOf("a.md");
		const res = await h.api("/vault/a.md", {
			method: "PUT",
			body: "two\n",
			headers: { "If-Match": `"old-one", ${etag}` },
		});
		expect(res.status).toBe(204);
		expect(await fileText("a.md")).toBe("two\n");
	});

	it("chains writes: the ETag a PUT returns is a valid If-Match for the next one", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		let etag = await etagOf("a.md");
		for (const text of ["two\n", "three\n", "four\n"]) {
			const res = await h.api("/vault/a.md", { method: "PUT", body: text, headers: { "If-Match": etag } });
			expect(res.status).toBe(204);
			etag = res.headers.etag as string;
		}
		expect(await fileText("a.md")).toBe("four\n");
	});

	it("refuses If-None-Match: * on an existing note with 412 note-exists and leaves the note as it was", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "replacement\n", headers: { "If-None-Match": "*" } });
		expectProblem(res, 412, "note-exists");
		// The client showed it had not read the note: it is told that the note exists, not handed a token to replace it.
		expect(res.json()).toMatchObject({ path: "a.md", changeTag: changeTagOf(sha256Token("one\n")) });
		expect(res.json()).not.toHaveProperty("currentRevision");
		expect(await fileText("a.md")).toBe("one\n");
		// The refused body is not lost either: it is kept as a .bak, not written to the note.
		const backupPath = res.json<StaleProblem>().backupPath as string;
		expect(await fileText(backupPath)).toBe("replacement\n");
	});

	it("creates a missing note under If-None-Match: *", async () => {
		const res = await h.api("/vault/only-new.md", { method: "PUT", body: "new\n", headers: { "If-None-Match": "*" } });
		expect(res.status).toBe(204);
		expect(await fileText("only-new.md")).toBe("new\n");
	});

	it("refuses If-Match on a missing note with 412 and does not create it", async () => {
		const res = await h.api("/vault/gone.md", {
			method: "PUT",
			body: "agent\n",
			headers: { "If-Match": quoted(sha256Token("old\n")) },
		});
		expectProblem(res, 412, "stale-revision");
		expect(res.json()).toMatchObject({ path: "gone.md", currentRevision: null, sentRevision: sha256Token("old\n") });
		expect(res.headers.etag).toBeUndefined();
		await expect(readFile(join(h.dir, "gone.md"))).rejects.toThrow(/ENOENT/);
	});

	it("never lets a weak W/ tag satisfy If-Match, even of the current revision", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = await etagOf("a.md");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": `W/${etag}` } });
		expectProblem(res, 412, "stale-revision");
		expect(await fileText("a.md")).toBe("one\n");
	});

	it("takes the currentRevision of a 412 as If-Match without its quotes, as a JSON field carries it", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = await etagOf("a.md");
		await writeVaultFile(h.dir, "a.md", "one\ntwo\n");
		const refused = (
			await h.api("/vault/a.md", { method: "PUT", body: "mine\n", headers: { "If-Match": etag } })
		).json<StaleProblem>();
		expect(refused.currentRevision).toBe(sha256Token("one\ntwo\n"));
		const res = await h.api("/vault/a.md", {
			method: "PUT",
			body: "one\ntwo\nmine\n",
			headers: { "If-Match": refused.currentRevision as string },
		});
		expect(res.status, res.text).toBe(204);
		expect(await fileText("a.md")).toBe("one\ntwo\nmine\n");
	});

	it.each([
		["unquoted, and not a token", "abc123"],
		["half-quoted", '"abc123'],
		["garbage after the tag", '"abc" xyz'],
	])("answers an %s If-Match with 400 malformed-precondition and writes nothing", async (_label, value) => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": value } });
		expectProblem(res, 400, "malformed-precondition");
		expect(await fileText("a.md")).toBe("one\n");
		expect(await backups()).toEqual([]);
	});

	it("answers a malformed If-None-Match with 400 malformed-precondition and creates nothing", async () => {
		const res = await h.api("/vault/new.md", { method: "PUT", body: "x\n", headers: { "If-None-Match": "nope" } });
		expectProblem(res, 400, "malformed-precondition");
		await expect(readFile(join(h.dir, "new.md"))).rejects.toThrow(/ENOENT/);
	});

	it("treats If-Match: * like no token: 428 on an existing note", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": "*" } });
		expectProblem(res, 428, "precondition-required");
		// The reason is that `*` proves nothing, not that the client never read the note.
		expect(res.json<{ detail: string }>().detail).toMatch(/If-Match: \* proves nothing/);
		expect(res.json<{ detail: string }>().detail).not.toMatch(/you have not read it/);
		expect(await fileText("a.md")).toBe("one\n");
	});

	describe("with requireToken off", () => {
		const LONG = "x".repeat(100);

		beforeEach(() => {
			h.settings.requireToken = false;
		});

		it("allows a tokenless update that keeps most of the note", async () => {
			await writeVaultFile(h.dir, "a.md", "one\n");
			const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n" });
			expect(res.status).toBe(204);
			expect(res.headers.etag).toBe(quoted(sha256Token("two\n")));
			expect(await fileText("a.md")).toBe("two\n");
		});

		it("refuses a tokenless write that shrinks a note of 100+ characters below half with 409 content-loss and keeps a .bak", async () => {
			await writeVaultFile(h.dir, "a.md", LONG);
			const res = await h.api("/vault/a.md", { method: "PUT", body: "y".repeat(49) });
			expectProblem(res, 409, "content-loss");
			const body = res.json<StaleProblem>();
			expect(body).toMatchObject({ path: "a.md", changeTag: changeTagOf(sha256Token(LONG)) });
			expect(body).not.toHaveProperty("currentRevision");
			expect(await fileText(body.backupPath as string)).toBe("y".repeat(49));
			expect(await fileText("a.md")).toBe(LONG);
			expect((await h.api(`/conflicts/${body.conflictId}`)).json()).toMatchObject({
				reason: "content-loss",
				sentRevision: null,
			});
		});

		it("allows a tokenless shrink to exactly half, and any shrink of a note under 100 characters", async () => {
			await writeVaultFile(h.dir, "long.md", LONG);
			expect((await h.api("/vault/long.md", { method: "PUT", body: "y".repeat(50) })).status).toBe(204);
			await writeVaultFile(h.dir, "short.md", "x".repeat(99));
			expect((await h.api("/vault/short.md", { method: "PUT", body: "y" })).status).toBe(204);
		});

		it("allows the same shrink with a fresh token", async () => {
			await writeVaultFile(h.dir, "a.md", LONG);
			const res = await h.api("/vault/a.md", {
				method: "PUT",
				body: "short",
				headers: { "If-Match": await etagOf("a.md") },
			});
			expect(res.status).toBe(204);
			expect(await fileText("a.md")).toBe("short");
		});

		it("still refuses a stale token", async () => {
			await writeVaultFile(h.dir, "a.md", "one\n");
			const etag = await etagOf("a.md");
			await writeVaultFile(h.dir, "a.md", "two\n");
			expect(
				(await h.api("/vault/a.md", { method: "PUT", body: "three\n", headers: { "If-Match": etag } })).status,
			).toBe(412);
		});
	});

	describe("with a read validity window", () => {
		it("refuses a current token read longer ago than readValidityMinutes with 412 read-expired and keeps a .bak", async () => {
			const clock = manualClock();
			await restart({ readValidityMinutes: 5 }, { now: clock.now });
			await writeVaultFile(h.dir, "a.md", "one\n");
			const etag = await etagOf("a.md");
			clock.advance(5 * 60_000 + 1);
			const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": etag } });
			expectProblem(res, 412, "read-expired");
			const body = res.json<StaleProblem>();
			expect(body).toMatchObject({
				path: "a.md",
				sentRevision: sha256Token("one\n"),
				changeTag: changeTagOf(sha256Token("one\n")),
			});
			expect(await fileText(body.backupPath as string)).toBe("two\n");
			expect(await fileText("a.md")).toBe("one\n");
			// A fresh read renews the token.
			const again = await etagOf("a.md");
			expect(
				(await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": again } })).status,
			).toBe(204);
		});

		it("accepts a token read within the window, and the ETag of its own write", async () => {
			const clock = manualClock();
			await restart({ readValidityMinutes: 5 }, { now: clock.now });
			await writeVaultFile(h.dir, "a.md", "one\n");
			const etag = await etagOf("a.md");
			clock.advance(5 * 60_000);
			const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": etag } });
			expect(res.status).toBe(204);
			clock.advance(4 * 60_000);
			expect(
				(
					await h.api("/vault/a.md", {
						method: "PUT",
						body: "three\n",
						headers: { "If-Match": res.headers.etag as string },
					})
				).status,
			).toBe(204);
		});

		it("does not count a HEAD as a read: its ETag is a change tag, which passes no If-Match", async () => {
			await restart({ readValidityMinutes: 5 }, { now: manualClock().now });
			await writeVaultFile(h.dir, "a.md", "one\n");
			const head = await h.api("/vault/a.md", { method: "HEAD" });
			for (const sent of [head.headers.etag as string, (head.headers.etag as string).slice(2)]) {
				const res = await h.api("/vault/a.md", { method: "PUT", body: "two\n", headers: { "If-Match": sent } });
				expectProblem(res, 428, "precondition-required");
				expect(res.json()).toMatchObject({ sentToken: "change-tag" });
			}
			expect(await fileText("a.md")).toBe("one\n");
		});
	});
});

describe("POST /vault/{path} (append)", () => {
	it("appends without a token; the new ETag is a part token when the client had not read the note", async () => {
		await writeVaultFile(h.dir, "log.md", "one\n");
		const res = await h.api("/vault/log.md", { method: "POST", body: "two\n" });
		expect(res.status).toBe(204);
		expect(await fileText("log.md")).toBe("one\ntwo\n");
		// The client saw only what it appended: its token can patch the note, never replace it.
		expect(res.headers.etag).toBe(quoted(partTokenOf(sha256Token("one\ntwo\n"))));
		const put = await h.api("/vault/log.md", {
			method: "PUT",
			body: "wiped\n",
			headers: { "If-Match": res.headers.etag as string },
		});
		expectProblem(put, 428, "precondition-required");
		expect(put.json()).toMatchObject({ sentToken: "part-token" });
		expect(await fileText("log.md")).toBe("one\ntwo\n");
	});

	it("hands the whole revision after appending to the revision the client read", async () => {
		await writeVaultFile(h.dir, "log.md", "one\n");
		await etagOf("log.md");
		const res = await h.api("/vault/log.md", { method: "POST", body: "two\n" });
		expect(res.headers.etag).toBe(quoted(sha256Token("one\ntwo\n")));
		expect(
			(
				await h.api("/vault/log.md", {
					method: "PUT",
					body: "three\n",
					headers: { "If-Match": res.headers.etag as string },
				})
			).status,
		).toBe(204);
	});

	it("creates a missing note (and its folders) with 204", async () => {
		const res = await h.api("/vault/logs/new.md", { method: "POST", body: "first\n" });
		expect(res.status).toBe(204);
		expect(res.headers.location).toBe("/vault/logs/new.md");
		expect(await fileText("logs/new.md")).toBe("first\n");
	});

	it("appends under a fresh If-Match", async () => {
		await writeVaultFile(h.dir, "log.md", "one\n");
		const res = await h.api("/vault/log.md", {
			method: "POST",
			body: "two\n",
			headers: { "If-Match": await etagOf("log.md") },
		});
		expect(res.status).toBe(204);
		expect(await fileText("log.md")).toBe("one\ntwo\n");
	});

	it("honours a stale If-Match: 412, nothing appended, and the .bak holds the appended text", async () => {
		await writeVaultFile(h.dir, "log.md", "one\n");
		const etag = await etagOf("log.md");
		await writeVaultFile(h.dir, "log.md", "one\nuser\n");
		const res = await h.api("/vault/log.md", {
			method: "POST",
			body: "agent line 🤖\r\n",
			headers: { "If-Match": etag },
		});
		expectProblem(res, 412, "stale-revision");
		const body = res.json<StaleProblem>();
		expect(body.changes).toContain("+user\n");
		expect(await fileText(body.backupPath as string)).toBe("agent line 🤖\r\n");
		expect(await fileText("log.md")).toBe("one\nuser\n");
	});

	it("runs concurrent appends one after another, losing none", async () => {
		await writeVaultFile(h.dir, "log.md", "");
		const lines = Array.from({ length: 10 }, (_, i) => `line ${i}\n`);
		const results = await Promise.all(lines.map((line) => h.api("/vault/log.md", { method: "POST", body: line })));
		expect(results.every((res) => res.status === 204)).toBe(true);
		const text = await fileText("log.md");
		expect(text.split("\n").filter(Boolean).sort()).toEqual(lines.map((line) => line.trim()).sort());
	});
});

describe("DELETE /vault/{path}", () => {
	it("needs If-Match: 428 and the note stays", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const res = await h.api("/vault/a.md", { method: "DELETE" });
		expectProblem(res, 428, "precondition-required");
		expect(res.json().detail).toMatch(/If-Match/);
		expect(await fileText("a.md")).toBe("one\n");
	});

	it("refuses a stale If-Match with 412 and the note stays", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = await etagOf("a.md");
		await writeVaultFile(h.dir, "a.md", "two\n");
		const res = await h.api("/vault/a.md", { method: "DELETE", headers: { "If-Match": etag } });
		expectProblem(res, 412, "stale-revision");
		expect(res.json()).toMatchObject({ path: "a.md", currentRevision: sha256Token("two\n") });
		// A DELETE is retried as a DELETE: nothing tells it to PUT.
		const { detail } = res.json<{ detail: string }>();
		expect(detail).toContain("nothing was deleted");
		expect(detail).toContain("send DELETE again");
		expect(detail).not.toContain("PUT");
		expect(await fileText("a.md")).toBe("two\n");
		expect(await backups()).toEqual([]);
	});

	it("moves the note to .trash/ in the vault with a fresh If-Match (204)", async () => {
		await writeVaultFile(h.dir, "notes/a.md", "one\n");
		const res = await h.api("/vault/notes/a.md", {
			method: "DELETE",
			headers: { "If-Match": await etagOf("notes/a.md") },
		});
		expect(res.status).toBe(204);
		expect(res.text).toBe("");
		await expect(readFile(join(h.dir, "notes/a.md"))).rejects.toThrow(/ENOENT/);
		expect(await fileText(".trash/notes/a.md")).toBe("one\n");
		expect((await h.api("/vault/notes/a.md")).status).toBe(404);
	});

	it("keeps both copies in the trash when a note of the same name is deleted twice", async () => {
		for (const text of ["first\n", "second\n"]) {
			await writeVaultFile(h.dir, "a.md", text);
			expect(
				(await h.api("/vault/a.md", { method: "DELETE", headers: { "If-Match": await etagOf("a.md") } })).status,
			).toBe(204);
		}
		const trashed = (await allFiles(h.dir)).filter((path) => path.startsWith(".trash/"));
		expect(trashed).toHaveLength(2);
		const contents = await Promise.all(trashed.map((path) => fileText(path)));
		expect(contents.sort()).toEqual(["first\n", "second\n"]);
	});

	it("answers 404 for a missing note", async () => {
		const res = await h.api("/vault/missing.md", {
			method: "DELETE",
			headers: { "If-Match": quoted(sha256Token("x")) },
		});
		expectProblem(res, 404, "note-not-found");
	});
});

describe("edits made outside the API", () => {
	it("make an old token stale at once, with no waiting for the watcher", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = await etagOf("a.md");
		await writeVaultFile(h.dir, "a.md", "edited in another program\n");
		const res = await h.api("/vault/a.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } });
		expect(res.status).toBe(412);
		expect(res.json<StaleProblem>().currentRevision).toBe(sha256Token("edited in another program\n"));
		expect(await fileText("a.md")).toBe("edited in another program\n");
	});

	it("are recorded in the revision history as external, while API writes are credited to the key's name", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = await etagOf("a.md");
		const written = await h.api("/vault/a.md", { method: "PUT", body: "by agent\n", headers: { "If-Match": etag } });
		expect(written.status).toBe(204);
		await writeVaultFile(h.dir, "a.md", "by someone else\n");
		const external = sha256Token("by someone else\n");
		// The watcher reports the edit asynchronously; flush() then settles what it reported.
		await vi.waitFor(
			async () => {
				await h.guard.tracker.flush();
				expect(h.guard.history.entries("a.md").map((entry) => entry.revision)).toContain(external);
			},
			{ timeout: 5000, interval: 20 },
		);
		const entries = h.guard.history.entries("a.md");
		expect(entries.find((entry) => entry.revision === external)?.source).toEqual({ kind: "external" });
		const agentEntries = entries.filter((entry) => entry.revision === sha256Token("by agent\n"));
		expect(agentEntries.map((entry) => entry.source)).toEqual([{ kind: "agent", agent: "test-agent" }]);
		expect(entries.at(-1)?.revision).toBe(external);
	});
});
