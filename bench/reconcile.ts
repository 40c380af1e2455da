/** Start-up reconcile over a 10,000-note, 100 MB folder: first run (no history) and a second run with history. */
import { execFileSync } from "child_process";
import { mkdtemp } from "fs/promises";
import { join } from "path";
import { openFolder, openFolderGuard } from "../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../src/settings";
import { NodeStateStorage } from "../src/vault/node-state-storage";
import { makeVault } from "./vault-fixture";

export interface ReconcileFigures {
	firstSeconds: number;
	secondSeconds: number;
	/** CPU of a later start with nothing changed (opening the state and reconciling), in seconds. */
	laterStartCpuSeconds: number;
	/** CPU of a bare Node walk that stats every note, in a process of its own, in seconds. */
	bareStatWalkCpuSeconds: number;
	/** CPU of a first start (no stored state: opening it and reconciling), in seconds. */
	firstStartCpuSeconds: number;
	/** CPU of a bare Node walk that reads and SHA-256-hashes every note, in a process of its own, in seconds. */
	bareReadHashCpuSeconds: number;
	storeHeapMB: number;
	peakRssMB: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** A baseline: a Node process of its own that walks the folder and stats (or reads and hashes) every note; its CPU, in seconds. */
function bareWalk(dir: string, what: "stat" | "hash"): number {
	const script = `
		const { readdirSync, readFileSync, statSync } = require("fs");
		const { createHash } = require("crypto");
		const { join } = require("path");
		const hash = process.argv[2] === "hash";
		const start = process.cpuUsage();
		const walk = (folder) => { for (const entry of readdirSync(folder, { withFileTypes: true })) {
			if (entry.name.startsWith(".")) continue;
			const path = join(folder, entry.name);
			if (entry.isDirectory()) walk(path); else if (entry.name.endsWith(".md")) { if (hash) createHash("sha256").update(readFileSync(path)).digest(); else statSync(path, { bigint: true }); }
		} };
		walk(process.argv[1]);
		const used = process.cpuUsage(start);
		process.stdout.write(String((used.user + used.system) / 1e6));`;
	return Number(execFileSync(process.execPath, ["-e", script, dir, what], { encoding: "utf8" }));
}

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
	const firstCpuBefore = process.cpuUsage();
	const first = await open();
	let t0 = performance.now();
	const report = await first.guard.tracker.reconcile();
	const firstSeconds = (performance.now() - t0) / 1000;
	const firstCpu = process.cpuUsage(firstCpuBefore);
	if (report.checked !== 10_000) throw new Error(`reconcile saw ${report.checked} notes`);
	gc();
	const storeHeapMB = (process.memoryUsage().heapUsed - heapBefore) / (1024 * 1024);
	await first.guard.close();

	// Notes written just now have not settled (their identity is not trusted yet): the next start reads them once.
	const settledOnce = await open();
	await settledOnce.guard.tracker.reconcile();
	await settledOnce.guard.close();

	const cpuBefore = process.cpuUsage();
	const second = await open();
	t0 = performance.now();
	const again = await second.guard.tracker.reconcile();
	const secondSeconds = (performance.now() - t0) / 1000;
	const cpu = process.cpuUsage(cpuBefore);
	if (again.changed !== 0) throw new Error(`second reconcile found ${again.changed} changes`);
	await second.guard.close();
	clearInterval(sampler);
	return {
		firstSeconds,
		secondSeconds,
		laterStartCpuSeconds: (cpu.user + cpu.system) / 1e6,
		bareStatWalkCpuSeconds: bareWalk(dir, "stat"),
		firstStartCpuSeconds: (firstCpu.user + firstCpu.system) / 1e6,
		bareReadHashCpuSeconds: bareWalk(dir, "hash"),
		storeHeapMB,
		peakRssMB: peakRss / (1024 * 1024),
	};
}
