/** Start-up reconcile over a 10,000-note, 100 MB folder: first run (no history) and a second run with history. */
import { mkdtemp } from "fs/promises";
import { join } from "path";
import { openFolder, openFolderGuard } from "../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../src/settings";
import { NodeStateStorage } from "../src/vault/node-state-storage";
import { makeVault } from "./vault-fixture";

export interface ReconcileFigures {
	firstSeconds: number;
	secondSeconds: number;
	storeHeapMB: number;
	peakRssMB: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

export async function measureReconcile(dir: string): Promise<ReconcileFigures> {
	await makeVault(dir, 10_000, 10 * 1024);
	const state = await mkdtemp(join(dir, ".state-"));
	const settings = structuredClone(DEFAULT_SETTINGS);
	let peakRss = process.memoryUsage().rss;
	const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);

	const open = async () => {
		const folder = await openFolder(dir);
		// State kept apart from the notes' folder tree walk, in a folder of its own.
		const guard = await openFolderGuard({ ...folder, storage: new NodeStateStorage(state) }, () => settings);
		return { gateway: folder.gateway, guard };
	};

	gc();
	const heapBefore = process.memoryUsage().heapUsed;
	const first = await open();
	let t0 = performance.now();
	const report = await first.guard.tracker.reconcile();
	const firstSeconds = (performance.now() - t0) / 1000;
	if (report.checked !== 10_000) throw new Error(`reconcile saw ${report.checked} notes`);
	gc();
	const storeHeapMB = (process.memoryUsage().heapUsed - heapBefore) / (1024 * 1024);
	await first.guard.close();

	const second = await open();
	t0 = performance.now();
	const again = await second.guard.tracker.reconcile();
	const secondSeconds = (performance.now() - t0) / 1000;
	if (again.changed !== 0) throw new Error(`second reconcile found ${again.changed} changes`);
	await second.guard.close();
	clearInterval(sampler);
	return { firstSeconds, secondSeconds, storeHeapMB, peakRssMB: peakRss / (1024 * 1024) };
}
