/**
 * PATCH /vault/{path} with the Local REST API's headers (Markdown-Patch-Version: 1, the 1.x header format), over BOTH
 * gateways. The patched note is written through the guarded writer, so PATCH is refused, kept and recorded exactly
 * like a stale PUT, and never written blind. It answers 200 with the patched note, as Local REST API 5.1 does.
 */
import { changeTagOf } from "../../../src/core/revision-tokens";
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, visibleFiles, writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../stacks";

forbidServerErrors();

const NOTE = "---\nstatus: draft\ntags: [a]\n---\n# Plan\nintro\n\n## Tasks\n- one\n\n## Done\n- zero\n";
const WITH_TASK = NOTE.replace("- one\n", "- one\n- two\n");
const EDITED = NOTE.replace("intro\n", "intro, edited by the person\n");

interface Problem {
	type: string;
	detail: string;
	sentRevision?: string | null;
	currentRevision?: string | null;
	backupPath?: string | null;
	conflictId?: string;
	implicitRevision?: boolean;
	reason?: string;
}

function expectProblem(res: CallResult, status: number, name: string): Problem {
	expect(res.status, res.text).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status });
	return res.json<Problem>();
}

const appendTask = { Operation: "append", "Target-Type": "heading", Target: encodeURIComponent("Plan::Tasks") };

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("PATCH over the %s gateway", (name) => {
	let dir: string;
	let s: Stack;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-patch-"));
		await writeVaultFile(dir, "Note.md", NOTE);
		s = await STACKS[name](dir);
	});
	afterEach(async () => {
		vi.restoreAllMocks();
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});
	const patch = (headers: Record<string, string>, body = "- two\n") =>
		s.api("/vault/Note.md", { method: "PATCH", body, headers: { "Markdown-Patch-Version": "1", ...headers } });
	const etag = async () => (await s.api("/vault/Note.md")).headers.etag as string;
	const backups = async () => (await visibleFiles(dir)).filter((path) => path.endsWith(".bak.md"));

	it("appends under a heading with a current If-Match: 200 with the patched note and the new ETag", async () => {
		const res = await patch({ ...appendTask, "If-Match": await etag() });
		expect(res.status, res.text).toBe(200);
		expect(res.text).toBe(WITH_TASK);
		expect(res.headers.etag).toBe(`"${sha256Token(WITH_TASK)}"`);
		expect(await s.file("Note.md")).toBe(WITH_TASK);
	});

	it("accepts a tokenless PATCH from a client whose last read is current, and again after its own write", async () => {
		await s.api("/vault/Note.md");
		expect((await patch(appendTask)).status).toBe(200);
		expect((await patch(appendTask, "- three\n")).status).toBe(200);
		expect(await s.file("Note.md")).toBe(NOTE.replace("- one\n", "- one\n- two\n- three\n"));
	});

	it("answers a tokenless PATCH from a client that never read the note with 428, writing nothing", async () => {
		const res = await patch(appendTask);
		const problem = expectProblem(res, 428, "precondition-required");
		expect(problem.detail).toMatch(/GET the note first.*PATCH again/);
		expect(await s.file("Note.md")).toBe(NOTE);
		expect(await backups()).toEqual([]);
	});

	it("answers 428 to a client with no token even when tokens are not required: a patch is never written blind", async () => {
		await s.close();
		s = await STACKS[name](dir, { settings: { requireToken: false } });
		expectProblem(await patch(appendTask), 428, "precondition-required");
		expect(await s.file("Note.md")).toBe(NOTE);
		await s.api("/vault/Note.md");
		expect((await patch(appendTask)).status).toBe(200);
	});

	it("holds a tokenless PATCH to the read validity window like a PUT (a read too old is forgotten: 428)", async () => {
		let time = Date.UTC(2026, 10, 21, 10, 15, 0);
		await s.close();
		s = await STACKS[name](dir, { settings: { readValidityMinutes: 5 }, now: () => time });
		await s.api("/vault/Note.md");
		time += 5 * 60_000 + 1;
		expectProblem(await patch(appendTask), 428, "precondition-required");
		expect(await s.file("Note.md")).toBe(NOTE);
		await s.api("/vault/Note.md");
		time += 4 * 60_000;
		expect((await patch(appendTask)).status).toBe(200);
	});

	it("answers If-Match: * with 428: it proves nothing about what was read", async () => {
		await s.api("/vault/Note.md");
		expectProblem(await patch({ ...appendTask, "If-Match": "*" }), 428, "precondition-required");
		expect(await s.file("Note.md")).toBe(NOTE);
	});

	it("answers a malformed If-Match with 400", async () => {
		expectProblem(await patch({ ...appendTask, "If-Match": "not-quoted" }), 400, "malformed-precondition");
	});

	it("refuses a stale If-Match with 412, keeping the would-be patched note as .bak with a conflict record", async () => {
		const old = await etag();
		await s.edit("Note.md", EDITED);
		const problem = expectProblem(await patch({ ...appendTask, "If-Match": old }), 412, "stale-revision");
		expect(problem).toMatchObject({ sentRevision: sha256Token(NOTE), currentRevision: sha256Token(EDITED) });
		expect(problem.implicitRevision).toBeUndefined();
		expect(problem.detail).toMatch(/PATCH again/);
		// The .bak holds the whole note as the patch would have left it, computed on the note as it is now.
		expect(await s.file(problem.backupPath!)).toBe(EDITED.replace("- one\n", "- one\n- two\n"));
		expect(await s.file("Note.md")).toBe(EDITED);
		const conflict = await s.api(`/conflicts/${problem.conflictId!}`);
		expect(conflict.json()).toMatchObject({
			path: "Note.md",
			reason: "stale",
			status: "open",
			sentRevision: changeTagOf(sha256Token(NOTE)),
			backupPath: problem.backupPath,
		});
	});

	it("refuses a tokenless PATCH from a client that read an older revision: 412, .bak and implicitRevision", async () => {
		await s.api("/vault/Note.md");
		await s.edit("Note.md", EDITED);
		const problem = expectProblem(await patch(appendTask), 412, "stale-revision");
		expect(problem).toMatchObject({ implicitRevision: true, sentRevision: sha256Token(NOTE) });
		expect(problem.detail).toContain("your last read of this note was used");
		expect(await s.file(problem.backupPath!)).toBe(EDITED.replace("- one\n", "- one\n- two\n"));
		expect(await s.file("Note.md")).toBe(EDITED);
	});

	it("tells a stale client to read again even when its target is missing from the note now", async () => {
		const old = await etag();
		await s.edit("Note.md", "# Rewritten\n");
		const problem = expectProblem(await patch({ ...appendTask, "If-Match": old }), 412, "stale-revision");
		expect(problem.sentRevision).toBe(sha256Token(NOTE));
		expect(await s.file("Note.md")).toBe("# Rewritten\n");
	});

	/** Runs `change` once, right before the guarded writer's atomic step (after the request arrived and was parsed). */
	function beforeWriteStep(change: () => Promise<void>): void {
		const mutate = s.guard.gateway.mutate.bind(s.guard.gateway);
		vi.spyOn(s.guard.gateway, "mutate").mockImplementationOnce(async (path, decide) => {
			await change();
			return mutate(path, decide);
		});
	}

	it("refuses when the note changes before its write step, keeping the patch as computed on the note then", async () => {
		const current = await etag();
		beforeWriteStep(() => s.edit("Note.md", EDITED));
		const problem = expectProblem(await patch({ ...appendTask, "If-Match": current }), 412, "stale-revision");
		expect(await s.file("Note.md")).toBe(EDITED);
		expect(await s.file(problem.backupPath!)).toBe(EDITED.replace("- one\n", "- one\n- two\n"));
	});

	it("with a list of If-Match tags, patches whichever listed revision the note is at, computed on that revision", async () => {
		const read = await etag();
		const edited = `"${sha256Token(EDITED)}"`;
		// The person saves just before the write step; the client's list also names that save.
		beforeWriteStep(() => s.edit("Note.md", EDITED));
		const res = await patch({ ...appendTask, "If-Match": `${read}, ${edited}` });
		expect(res.status, res.text).toBe(200);
		// Computed on the person's save, never the read version's patch written over it.
		expect(await s.file("Note.md")).toBe(EDITED.replace("- one\n", "- one\n- two\n"));
	});

	it("checks the token and computes the patch in the same step: a note back at the sent revision by then is patched as it is", async () => {
		const old = await etag();
		await s.edit("Note.md", EDITED);
		// Back to exactly the revision the client sent before the write step: the token names the note again.
		beforeWriteStep(() => s.edit("Note.md", NOTE));
		const res = await patch({ ...appendTask, "If-Match": old });
		expect(res.status, res.text).toBe(200);
		expect(await s.file("Note.md")).toBe(WITH_TASK);
	});

	it("replaces a frontmatter key from a JSON body", async () => {
		const res = await patch(
			{
				Operation: "replace",
				"Target-Type": "frontmatter",
				Target: "status",
				"Content-Type": "application/json",
				"If-Match": await etag(),
			},
			'"done"',
		);
		expect(res.status, res.text).toBe(200);
		expect(await s.file("Note.md")).toBe(NOTE.replace("status: draft", "status: done"));
	});

	it("appends to a frontmatter list", async () => {
		const res = await patch(
			{ Operation: "append", "Target-Type": "frontmatter", Target: "tags", "If-Match": await etag() },
			"b",
		);
		expect(res.status, res.text).toBe(200);
		expect(await s.file("Note.md")).toBe(NOTE.replace("[a]", "[a, b]"));
	});

	it("decodes a percent-encoded, nested, non-ASCII heading target and honours Target-Delimiter", async () => {
		await s.edit("Café.md", "# Día 1\n## Notas: a/b\nx\n");
		const path = `/vault/${encodeURIComponent("Café.md")}`;
		const tag = (await s.api(path)).headers.etag as string;
		const headers = {
			"Markdown-Patch-Version": "1",
			Operation: "prepend",
			"Target-Type": "heading",
			Target: encodeURIComponent("Día 1|Notas: a/b"),
			"Target-Delimiter": "|",
			"If-Match": tag,
		};
		const res = await s.api(path, { method: "PATCH", body: "first", headers });
		expect(res.status, res.text).toBe(200);
		expect(await s.file("Café.md")).toBe("# Día 1\n## Notas: a/b\nfirst\nx\n");
	});

	it("creates a missing heading with Create-Target-If-Missing: true", async () => {
		const headers = {
			Operation: "append",
			"Target-Type": "heading",
			Target: "Plan::Ideas",
			"Create-Target-If-Missing": "true",
			"If-Match": await etag(),
		};
		expect((await patch(headers, "- idea")).status).toBe(200);
		expect(await s.file("Note.md")).toBe(NOTE + "\n## Ideas\n- idea\n");
	});

	it("answers a missing target with 404 target-not-found naming the headings, and writes nothing", async () => {
		const problem = expectProblem(
			await patch({ ...appendTask, Target: "Plan::Nope", "If-Match": await etag() }),
			404,
			"target-not-found",
		);
		expect(problem.detail).toContain("## Tasks");
		expect(await s.file("Note.md")).toBe(NOTE);
		expect(await backups()).toEqual([]);
	});

	it("answers a target type it does not know with 400 naming what is supported", async () => {
		const problem = expectProblem(
			await patch({ Operation: "append", "Target-Type": "file", Target: "abc123", "If-Match": await etag() }),
			400,
			"patch-target-not-supported",
		);
		expect(problem.detail).toMatch(/heading, block and frontmatter/);
		expect(await s.file("Note.md")).toBe(NOTE);
	});

	it("answers a block id the note does not have with 404 target-not-found, writing nothing", async () => {
		const problem = expectProblem(
			await patch({ Operation: "append", "Target-Type": "block", Target: "abc123", "If-Match": await etag() }),
			404,
			"target-not-found",
		);
		expect(problem.detail).toMatch(/no block \^abc123/);
		expect(await s.file("Note.md")).toBe(NOTE);
	});

	it("reads a PATCH without targeting headers as a JSON instruction (format 2), and refuses a body that is not one", async () => {
		const problem = expectProblem(
			await s.api("/vault/Note.md", { method: "PATCH", body: "- two\n" }),
			400,
			"invalid-patch-instruction",
		);
		expect(problem.detail).toMatch(/not valid JSON.*"targetType"/);
		expect(await s.file("Note.md")).toBe(NOTE);
	});

	it.each([
		["no Target", { Operation: "append", "Target-Type": "heading" }],
		["an unknown Operation", { Operation: "insert", "Target-Type": "heading", Target: "Plan" }],
	])("answers %s with 400 invalid-patch naming the headers", async (_, headers) => {
		const problem = expectProblem(await patch(headers), 400, "invalid-patch");
		expect(problem.detail).toMatch(
			/Operation \(append, prepend or replace\), Target-Type \(heading, block or frontmatter\) and Target/,
		);
		expect(await s.file("Note.md")).toBe(NOTE);
	});

	it("answers a body that is not the JSON it claims with 400 invalid-patch", async () => {
		const tag = await etag();
		const problem = expectProblem(
			await patch(
				{
					Operation: "append",
					"Target-Type": "frontmatter",
					Target: "status",
					"Content-Type": "application/json",
					"If-Match": tag,
				},
				"{oops",
			),
			400,
			"invalid-patch",
		);
		expect(problem.reason).toBe("invalid-value");
		expect(await s.file("Note.md")).toBe(NOTE);
	});

	it("patches the first of two sections a heading path names by its plain text, as Local REST API 5.1 does (the second has a key of its own)", async () => {
		const twice = NOTE + "# Plan\n## Tasks\n- other\n";
		await s.edit("Note.md", twice);
		const res = await patch({ ...appendTask, "If-Match": await etag() });
		expect(res.status, res.text).toBe(200);
		expect(await s.file("Note.md")).toMatch(/- other\n$/);
		expect((await s.file("Note.md"))!.endsWith("# Plan\n## Tasks\n- other\n")).toBe(true);
		expect(await s.file("Note.md")).not.toBe(twice);
	});

	it("answers a PATCH of a missing note with 404", async () => {
		const res = await s.api("/vault/Missing.md", {
			method: "PATCH",
			body: "x",
			headers: { "Markdown-Patch-Version": "1", ...appendTask },
		});
		expectProblem(res, 404, "note-not-found");
		expect(await s.file("Missing.md")).toBeNull();
	});
});
