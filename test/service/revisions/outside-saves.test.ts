/**
 * The net under programs that save the vault's files directly (service/revisions/outside-saves.ts), over both gateways: what a
 * save replaced is kept and restorable; a save made from an older copy keeps the dropped text as a .bak with an
 * `outside-save` conflict (merged at once with the opt-in setting); a save that kept the edit, an undo, equal bytes
 * and our own writes are never flagged.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../../http/stacks";

forbidServerErrors();

const BASE = "# Plan\n\n- one\n- two\n\n## Notes\n\nnothing yet\n";
const MINE = "# Plan\n\n- one\n- two\n- three (person)\n\n## Notes\n\nnothing yet\n";
const THEIRS = "# Plan\n\n- one\n- two\n\n## Notes\n\nthe agent's note\n";
const MERGED = "# Plan\n\n- one\n- two\n- three (person)\n\n## Notes\n\nthe agent's note\n";

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("saves made outside our door (%s)", (name) => {
	let dir: string;
	let s: Stack;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-outside-"));
		await writeVaultFile(dir, "Plan.md", BASE);
		s = await STACKS[name](dir);
		// An agent reads the note: from here on its text is known (served texts are kept as merge bases).
		expect((await s.api("/vault/Plan.md")).status).toBe(200);
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	/** Another program saves `content`; resolves once the guard has seen and judged it. */
	async function save(content: string): Promise<void> {
		await s.edit("Plan.md", content);
		await vi.waitFor(
			async () => {
				await s.guard.tracker.flush();
				expect(s.guard.history.latest("Plan.md")?.revision).toBe(revisionOf(content));
			},
			{ timeout: 5000, interval: 20 },
		);
		await s.guard.outsideSaves.settle();
	}

	it("keeps what a save replaced: its history names it, restorable, and the activity lists the save", async () => {
		await save(MINE);
		await save(MINE + "\nmore, from a program that read the note first\n");
		const latest = s.guard.history.latest("Plan.md")!;
		expect(latest.replaced).toBe(revisionOf(MINE));
		expect(await s.guard.bases.get(revisionOf(MINE))).toBe(MINE);
		const page = await s.guard.noteHistory.page("Plan.md", 0, 10);
		expect(page?.revisions.find((revision) => revision.revision === revisionOf(MINE))?.restorable).toBe(true);
		// It kept the edit: nothing is flagged.
		expect(s.guard.conflicts.list()).toEqual([]);
	});

	it("flags a save made from the older copy: the dropped text is a .bak, with an outside-save conflict and the merge offered", async () => {
		await save(MINE);
		await save(THEIRS);
		expect(await s.file("Plan.md")).toBe(THEIRS);
		const [record] = s.guard.conflicts.list();
		expect(record).toMatchObject({
			path: "Plan.md",
			reason: "outside-save",
			source: "outside",
			agent: "another program",
			status: "open",
			sentRevision: revisionOf(BASE),
			currentRevision: revisionOf(THEIRS),
			proposedRevision: revisionOf(MINE),
		});
		expect(await s.file(record!.backupPath!)).toBe(MINE);
		expect(
			(await s.api("/conflicts")).json<{ conflicts: { reason: string; source?: string }[] }>().conflicts,
		).toMatchObject([{ reason: "outside-save", source: "outside" }]);
		const merge = await s.api(`/conflicts/${record!.id}/merge`);
		expect(merge.json()).toMatchObject({ clean: true, text: MERGED });
		expect(s.guard.history.latest("Plan.md")?.source).toEqual({ kind: "external" });
		const activity = s.guard.activity.list(10);
		expect(activity[0]).toMatchObject({
			path: "Plan.md",
			agent: "another program",
			replaced: revisionOf(MINE),
			revertible: true,
		});
	});

	it("merges a clean drop at once, as the person, with the setting on", async () => {
		s.guard.settings().autoMergeOutsideSaves = true;
		await save(MINE);
		await save(THEIRS);
		await vi.waitFor(async () => expect(await s.file("Plan.md")).toBe(MERGED), { timeout: 5000, interval: 20 });
		const [record] = s.guard.conflicts.list();
		expect(record).toMatchObject({
			reason: "outside-save",
			status: "resolved",
			resolvedBy: "you",
			resolvedRevision: revisionOf(MERGED),
		});
		expect(await s.file(record!.backupPath!)).toBe(MINE);
	});

	it("leaves an overlapping drop for the person, even with the setting on", async () => {
		s.guard.settings().autoMergeOutsideSaves = true;
		await save(BASE.replace("nothing yet", "call Ada on Monday"));
		await save(BASE.replace("nothing yet", "draft ready"));
		expect(await s.file("Plan.md")).toBe(BASE.replace("nothing yet", "draft ready"));
		expect(s.guard.conflicts.list()).toMatchObject([{ reason: "outside-save", status: "open" }]);
	});

	it("never flags an undo back to an earlier revision, nor the same bytes saved again", async () => {
		await save(MINE);
		await save(BASE);
		await s.edit("Plan.md", BASE);
		await s.guard.tracker.flush();
		await s.guard.outsideSaves.settle();
		expect(s.guard.conflicts.list()).toEqual([]);
	});

	it("never judges our own writes", async () => {
		await save(MINE);
		const tag = (await s.api("/vault/Plan.md")).headers.etag as string;
		expect((await s.api("/vault/Plan.md", { method: "PUT", body: THEIRS, headers: { "If-Match": tag } })).status).toBe(
			204,
		);
		await s.guard.tracker.flush();
		await s.guard.outsideSaves.settle();
		expect(s.guard.conflicts.list()).toEqual([]);
	});
});
