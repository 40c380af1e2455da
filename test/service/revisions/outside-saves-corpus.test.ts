/**
 * The real merge corpus saved through the guard, as issue 25 asks: the folder holds the base, one program saves mine,
 * another saves theirs (made from the base) or the committed result. Each replay must end exactly as the pure verdict
 * says (test/core/outside-save-corpus.test.ts holds its counts): a flagged save keeps mine byte for byte as a .bak with
 * an outside-save conflict; an unflagged one leaves no conflict and no .bak.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { corpusSkipNote, loadCorpus, type CorpusCase } from "../../helpers/merge-corpus";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { replayOutsideSaves, type OutsideSaveReplay } from "../../helpers/outside-save-corpus";

const skipWhy = corpusSkipNote();

/** Saves base (already there), mine, then `second` through a memory gateway; what the guard made of it. */
async function replay(c: CorpusCase, second: string) {
	const gateway = new MemoryGateway({ "n.md": c.base });
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage: new MemoryStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => 1_000,
		coalesceMs: 1,
		persistDebounceMs: 5,
	});
	guard.tracker.start();
	// The base was changed "recently" (the memory gateway's time 0): the start-up reconcile keeps its text at hand.
	await guard.tracker.reconcile();
	for (const text of [c.mine, second]) {
		gateway.externalEdit("n.md", text);
		await guard.tracker.flush();
		await guard.outsideSaves.settle();
	}
	const conflicts = guard.conflicts.list();
	const backups = [...gateway.notes.keys()].filter((path) => path !== "n.md");
	const kept = backups.map((path) => gateway.notes.get(path));
	await guard.close();
	return { conflicts, kept, note: gateway.notes.get("n.md") };
}

describe("the merge corpus, saved by other programs through the guard", () => {
	let replays: OutsideSaveReplay[] = [];
	beforeAll(() => {
		if (skipWhy === null) replays = replayOutsideSaves(loadCorpus());
	});
	beforeEach((context) => {
		if (skipWhy !== null) context.skip(skipWhy);
	});

	it("keeps mine as a .bak with an outside-save conflict exactly when the verdict flags the stale save", async () => {
		let flagged = 0;
		for (const { c, stale } of replays) {
			const outcome = await replay(c, c.theirs);
			expect(outcome.note, c.id).toBe(c.theirs);
			if (stale.kind === "lost") {
				flagged++;
				expect(outcome.conflicts, c.id).toMatchObject([
					{
						reason: "outside-save",
						source: "outside",
						proposedRevision: revisionOf(c.mine),
						currentRevision: revisionOf(c.theirs),
						sentRevision: revisionOf(c.base),
					},
				]);
				expect(outcome.kept, c.id).toEqual([c.mine]);
			} else {
				expect(outcome.conflicts, c.id).toEqual([]);
				expect(outcome.kept, c.id).toEqual([]);
			}
		}
		expect(flagged).toBeGreaterThan(200);
	}, 300_000);

	it("flags the committed result exactly when the verdict does", async () => {
		let flagged = 0;
		for (const { c, committed } of replays) {
			const outcome = await replay(c, c.result);
			if (c.result === c.mine) continue;
			flagged += outcome.conflicts.length;
			expect(outcome.conflicts.length, c.id).toBe(committed.kind === "lost" ? 1 : 0);
		}
		expect(flagged).toBeLessThan(25);
	}, 300_000);
});
