/**
 * Huge notes at the edge of the promise: a stale write to a note of 70,000 distinct lines keeps the refused body
 * before anything that depends on size, answers a bounded 412 whose diff comes in pages, and never stalls the host.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { unifiedDiff } from "../../src/core/diff/unified";
import type { YieldToHost } from "../../src/core/steps";
import { startHeadless, type Harness } from "../helpers/headless-harness";
import { readVaultFile, sha256Token, writeVaultFile } from "../helpers/vault-files";

const numbered = (count: number, tag: string) =>
	Array.from({ length: count }, (_, i) => `${tag} line ${i} with some words\n`).join("");
const BIG = numbered(70_000, "original");
/** The person rewrote every line: the diff from the agent's read to now is the whole note twice (about 4 MB). */
const REWRITTEN = numbered(70_000, "rewritten");
const AGENT = BIG + "the agent's addition\n";

interface Stale {
	backupPath: string;
	conflictId: string;
	changes: string | null;
	changesTruncated?: boolean;
	changesNext?: string;
	mergePreview?: string;
	mergePreviewTruncated?: boolean;
}

describe("a stale write to a huge note", () => {
	let h: Harness;
	afterEach(async () => {
		vi.restoreAllMocks();
		await h.close();
		expect(h.errors).toEqual([]);
	});

	async function staleWrite(
		headers: Record<string, string> = {},
	): Promise<{ status: number; body: Stale; bytes: number; read: string }> {
		await writeVaultFile(h.dir, "Big.md", BIG);
		const read = (await h.api("/vault/Big.md")).headers.etag as string;
		await writeVaultFile(h.dir, "Big.md", REWRITTEN);
		const put = await h.api("/vault/Big.md", { method: "PUT", body: AGENT, headers: { "If-Match": read, ...headers } });
		return { status: put.status, body: put.json<Stale>(), bytes: Buffer.byteLength(put.text), read: read.slice(1, -1) };
	}

	it("keeps the body as .bak with a conflict record, and answers a 412 within the answer cap", async () => {
		h = await startHeadless();
		const { status, body, bytes } = await staleWrite();
		expect(status).toBe(412);
		expect((await readVaultFile(h.dir, body.backupPath)).toString("utf8")).toBe(AGENT);
		expect(h.guard.conflicts.get(body.conflictId)).toMatchObject({
			path: "Big.md",
			backupPath: body.backupPath,
			status: "open",
		});
		// At most 256 KB of diff (JSON escapes each newline, hence the margin): not the 8 MB the whole diff would be.
		expect(Buffer.byteLength(body.changes!)).toBeLessThanOrEqual(256 * 1024);
		expect(bytes).toBeLessThan(300 * 1024);
		expect(body.changesTruncated).toBe(true);
		expect(body.changes!.endsWith("\n")).toBe(true);
	});

	it("pages through the whole diff with changesNext, never cutting a line, to exactly the full diff", async () => {
		h = await startHeadless({ maxDiffKB: 512 });
		const { body, read } = await staleWrite();
		let diff = body.changes!;
		let next = body.changesNext;
		let pages = 1;
		while (next !== undefined) {
			const page = await h.api(next);
			expect(page.status).toBe(200);
			const json = page.json<{ diff: string; next?: string; truncated?: boolean }>();
			expect(Buffer.byteLength(json.diff)).toBeLessThanOrEqual(512 * 1024);
			expect(json.diff.endsWith("\n")).toBe(true);
			diff += json.diff;
			next = json.next;
			pages++;
		}
		expect(pages).toBeGreaterThan(5);
		expect(diff).toBe(unifiedDiff(BIG, REWRITTEN, { fromLabel: `a/Big.md@${read.slice(0, 12)}`, toLabel: "b/Big.md" }));
	});

	it("still answers 412 with the .bak named when the diff fails after the body was kept", async () => {
		h = await startHeadless();
		const realGet = h.guard.bases.get.bind(h.guard.bases);
		vi.spyOn(h.guard.bases, "get").mockImplementation(async (revision: string) => {
			if (revision === sha256Token(BIG)) throw new RangeError("Maximum call stack size exceeded");
			return realGet(revision);
		});
		const { status, body } = await staleWrite();
		expect(status).toBe(412);
		expect((await readVaultFile(h.dir, body.backupPath)).toString("utf8")).toBe(AGENT);
		expect(body.changes).toBeNull();
		// The failure is reported, not answered: the harness saw it.
		expect(h.errors).toHaveLength(1);
		h.errors.length = 0;
	});

	it("bounds a merge preview too, and points at the whole merge", async () => {
		h = await startHeadless({ maxDiffKB: 64 });
		const { status, body } = await staleWrite({ Prefer: "merge=auto" });
		expect(status).toBe(412);
		expect(body.mergePreviewTruncated).toBe(true);
		expect(Buffer.byteLength(body.mergePreview!)).toBeLessThanOrEqual(64 * 1024);
		expect(body.mergePreview!.endsWith("\n")).toBe(true);
		const whole = await h.api(`/conflicts/${body.conflictId}/merge`);
		expect(whole.json<{ clean: boolean }>().clean).toBe(false);
	});

	it("keeps a diff and a merge preview within the cap together", async () => {
		h = await startHeadless({ maxDiffKB: 64 });
		const { body } = await staleWrite({ Prefer: "merge=auto" });
		expect(Buffer.byteLength(body.changes!) + Buffer.byteLength(body.mergePreview!)).toBeLessThanOrEqual(64 * 1024);
	});

	it("bounds the answers for a note that is one 5 MB line, marking the cut line", async () => {
		h = await startHeadless();
		const oneLine = "x".repeat(5 * 1024 * 1024);
		await writeVaultFile(h.dir, "Line.md", oneLine);
		const etag = (await h.api("/vault/Line.md")).headers.etag as string;
		await writeVaultFile(h.dir, "Line.md", "y" + oneLine);
		const put = await h.api("/vault/Line.md", {
			method: "PUT",
			body: oneLine + "z",
			headers: { "If-Match": etag, Prefer: "merge=auto" },
		});
		expect(put.status).toBe(412);
		expect(Buffer.byteLength(put.text)).toBeLessThan(300 * 1024);
		const body = put.json<Stale>();
		expect(body.changes).toContain("\\ Line cut here at the answer size limit");
		expect((await readVaultFile(h.dir, body.backupPath)).length).toBe(oneLine.length + 1);
		const changes = await h.api(`/changes/Line.md?since=${etag.slice(1, -1)}`);
		expect(Buffer.byteLength(changes.text)).toBeLessThan(300 * 1024);
		expect(changes.json<{ lineCut: boolean }>().lineCut).toBe(true);
	});

	it("answers GET /changes on the huge note with a bounded first page", async () => {
		h = await startHeadless();
		await writeVaultFile(h.dir, "Big.md", BIG);
		const since = ((await h.api("/vault/Big.md")).headers.etag as string).slice(1, -1);
		await writeVaultFile(h.dir, "Big.md", REWRITTEN);
		const changes = await h.api(`/changes/Big.md?since=${since}`);
		expect(changes.status).toBe(200);
		expect(Buffer.byteLength(changes.json<{ diff: string }>().diff)).toBeLessThanOrEqual(256 * 1024);
		expect(Buffer.byteLength(changes.text)).toBeLessThan(300 * 1024);
		expect(changes.json<{ truncated: boolean; nextOffset: number }>()).toMatchObject({
			truncated: true,
			nextOffset: expect.any(Number),
		});
	});

	it("lets other requests through while the diff is being computed", async () => {
		// The host's turn is held at the diff's first yield: if the diff did not yield, the GET below could never be
		// answered before the PUT.
		let reachedYield!: () => void;
		const atYield = new Promise<void>((resolve) => (reachedYield = resolve));
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		let held = false;
		const yieldToHost: YieldToHost = async () => {
			if (!held) {
				held = true;
				reachedYield();
				await released;
			}
		};
		h = await startHeadless({}, undefined, { yieldToHost });
		await writeVaultFile(h.dir, "Big.md", BIG);
		await writeVaultFile(h.dir, "Small.md", "small\n");
		const read = (await h.api("/vault/Big.md")).headers.etag as string;
		await writeVaultFile(h.dir, "Big.md", REWRITTEN);
		const put = h.api("/vault/Big.md", { method: "PUT", body: AGENT, headers: { "If-Match": read } });
		await atYield;
		const other = await h.api("/vault/Small.md");
		expect(other.status).toBe(200);
		expect(other.text).toBe("small\n");
		release();
		expect((await put).status).toBe(412);
	});
});
