/**
 * Start-up: the reconcile over a 10,000-note, 100 MB folder in this process (first run, and a second one with
 * history), and whole starts of the headless host on the generated 50,000-note vault, each in a process of its own,
 * against bare Node baselines in processes of their own.
 */
import { execFileSync } from "child_process";
import { mkdtemp, rm } from "fs/promises";
import { join } from "path";
import { openFolder, openFolderGuard } from "../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../src/settings";
import { NodeStateStorage } from "../src/vault/node-state-storage";
import type { StartFigures } from "./start-main";
import { cachedStartupVault, makeVault, STARTUP_VAULT } from "./vault-fixture";

export interface ReconcileFigures {
	firstSeconds: number;
	secondSeconds: number;
}

export interface StartupFigures {
	notes: number;
	vaultMB: number;
	/** Medians over alternating rounds: a first start (no stored state) and a bare read+hash of every note, CPU s. */
	firstStartCpuSeconds: number;
	bareReadHashCpuSeconds: number;
	/** A later start, nothing changed, and a bare stat walk of every note, CPU s. */
	laterStartCpuSeconds: number;
	bareStatWalkCpuSeconds: number;
	/** The highest peak RSS of any start (the kernel's VmHWM of its process), MB. */
	peakRssMB: number;
	/** Heap in use once a start is ready (after a full collection), MB: the guard's share, what the plugin adds. */
	heapAfterFirstMB: number;
	heapAfterLaterMB: number;
	firstStartWallSeconds: number;
}

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

	const open = async () => {
		const folder = await openFolder(dir);
		// State kept apart from the notes' folder tree walk, in a folder of its own.
		const guard = await openFolderGuard({ ...folder, storage: new NodeStateStorage(state) }, () => settings);
		return { gateway: folder.gateway, guard };
	};

	const first = await open();
	let t0 = performance.now();
	const report = await first.guard.tracker.reconcile();
	const firstSeconds = (performance.now() - t0) / 1000;
	if (report.checked !== 10_000) throw new Error(`reconcile saw ${report.checked} notes`);
	await first.guard.close();

	// Notes written just now have not settled (their identity is not trusted yet): the next start reads them once.
	const settledOnce = await open();
	await settledOnce.guard.tracker.reconcile();
	await settledOnce.guard.close();

	const second = await open();
	t0 = performance.now();
	const again = await second.guard.tracker.reconcile();
	const secondSeconds = (performance.now() - t0) / 1000;
	if (again.changed !== 0) throw new Error(`second reconcile found ${again.changed} changes`);
	await second.guard.close();
	return { firstSeconds, secondSeconds };
}

const ROUNDS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One start of the headless host on `vault`, in a process of its own (bench-start.js, built beside this file). */
function startOnce(vault: string): StartFigures {
	const out = execFileSync(process.execPath, ["--expose-gc", join(__dirname, "bench-start.js"), vault], {
		encoding: "utf8",
		maxBuffer: 1024 * 1024,
	});
	return JSON.parse(out) as StartFigures;
}

/**
 * First and later starts of the headless host on the generated 50,000-note vault (cached between runs), alternating
 * with their baselines, each in a process of its own. A first start has no stored state: the state folder goes first.
 */
export async function measureStartups(): Promise<StartupFigures> {
	const vault = await cachedStartupVault();
	const state = join(vault, ".revision-guard");
	const first: StartFigures[] = [];
	const later: StartFigures[] = [];
	const hash: number[] = [];
	const stat: number[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		await rm(state, { recursive: true, force: true });
		hash.push(bareWalk(vault, "hash"));
		first.push(startOnce(vault));
		stat.push(bareWalk(vault, "stat"));
		later.push(startOnce(vault));
		const [f, l] = [first.at(-1)!, later.at(-1)!];
		if (f.added !== STARTUP_VAULT.notes || l.changed + l.added !== 0)
			throw new Error(`start-up saw ${f.added} new notes first, then ${l.changed + l.added} changes`);
		console.log(
			`start-up round ${round + 1}: first ${f.cpuSeconds.toFixed(2)} s (read+hash ${hash.at(-1)!.toFixed(2)} s), later ${l.cpuSeconds.toFixed(2)} s (stat ${stat.at(-1)!.toFixed(2)} s), peak RSS ${Math.max(f.peakRssMB, l.peakRssMB).toFixed(0)} MB`,
		);
	}
	await rm(state, { recursive: true, force: true });
	return {
		notes: STARTUP_VAULT.notes,
		vaultMB: (STARTUP_VAULT.notes * STARTUP_VAULT.noteBytes) / (1024 * 1024),
		firstStartCpuSeconds: median(first.map((f) => f.cpuSeconds)),
		bareReadHashCpuSeconds: median(hash),
		laterStartCpuSeconds: median(later.map((l) => l.cpuSeconds)),
		bareStatWalkCpuSeconds: median(stat),
		peakRssMB: Math.max(...first.map((f) => f.peakRssMB), ...later.map((l) => l.peakRssMB)),
		heapAfterFirstMB: median(first.map((f) => f.heapMB)),
		heapAfterLaterMB: median(later.map((l) => l.heapMB)),
		firstStartWallSeconds: median(first.map((f) => f.wallSeconds)),
	};
}
