/**
 * The start-up reconcile gives the host its loop back every slice, however many workers read notes at once: each
 * worker waiting for a turn of its own would resume in the same turn of the host's loop as the others, one slice
 * after another, and block it for as many slices as there are workers. Time is counted, not measured: every look at
 * the clock moves it on by a millisecond.
 */
import { mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { SLICE_MS } from "../../../src/core/steps";
import { openFolder, openFolderGuard } from "../../../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-pacing-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(dir, { recursive: true, force: true });
});

it("reads at most about one slice of notes in any turn of the host's loop", async () => {
	for (let index = 0; index < 400; index++) await writeFile(join(dir, `n${index}.md`), `note ${index}\n`);
	const folder = await openFolder(dir);
	const guard = await openFolderGuard(folder, () => structuredClone(DEFAULT_SETTINGS), {
		yieldToHost: () => new Promise<void>((resolve) => setImmediate(resolve)),
	});
	// Counts the notes reconciled in each turn of the loop: the marker re-queues itself, so it runs once per turn,
	// ahead of the workers' own continuations queued later in the turn before.
	const perTurn = [0];
	let running = true;
	const marker = () => {
		perTurn.push(0);
		if (running) setImmediate(marker);
	};
	setImmediate(marker);
	let clock = 0;
	vi.spyOn(performance, "now").mockImplementation(() => ++clock);
	const report = await guard.tracker.reconcile(() => perTurn[perTurn.length - 1]!++);
	running = false;
	vi.restoreAllMocks();
	await guard.close();
	await folder.gateway.close();
	expect(report.checked).toBe(400);
	expect(perTurn.reduce((sum, count) => sum + count, 0)).toBe(400);
	// A slice is SLICE_MS looks at the clock at most, and each note looks at least once.
	expect(Math.max(...perTurn)).toBeLessThanOrEqual(2 * SLICE_MS);
});
