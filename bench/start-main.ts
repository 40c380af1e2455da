/**
 * One start of the headless host in a process of its own (bench/reconcile.ts forks this file): it opens the folder
 * and its state as `npm start` does (startHost: key, guard, tracking, reconcile, listening), and reports what that
 * start cost (its CPU and wall time until ready), the process's peak RSS, and the heap left once it is ready.
 */
import { openFolder, openFolderGuard } from "../src/headless/folder-guard";
import { startHost } from "../src/host/start-host";
import { DEFAULT_SETTINGS } from "../src/settings";

export interface StartFigures {
	cpuSeconds: number;
	wallSeconds: number;
	/** The process's peak resident set, in MB (the kernel's high-water mark: VmHWM). */
	peakRssMB: number;
	/** The heap in use once ready, after a full collection, in MB. */
	heapMB: number;
	checked: number;
	changed: number;
	added: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function main(vault: string): Promise<StartFigures> {
	const settings = { ...structuredClone(DEFAULT_SETTINGS), port: 0 };
	const cpuBefore = process.cpuUsage();
	const t0 = performance.now();
	const opened = await openFolder(vault);
	const host = await startHost({
		settings: () => settings,
		saveSettings: async () => undefined,
		openGuard: () => openFolderGuard(opened, () => settings),
		warn: (message) => console.warn(message),
		onError: (error) => console.error(error),
	});
	// startHost resolves once ready: the reconcile done (it listened before, answering "starting up").
	if (!host) throw new Error("the host did not start");
	const wallSeconds = (performance.now() - t0) / 1000;
	const cpu = process.cpuUsage(cpuBefore);
	const peakRssMB = process.resourceUsage().maxRSS / 1024;
	gc();
	const heapMB = process.memoryUsage().heapUsed / (1024 * 1024);
	const report = host.reconcile;
	await host.close();
	await opened.gateway.close();
	return {
		cpuSeconds: (cpu.user + cpu.system) / 1e6,
		wallSeconds,
		peakRssMB,
		heapMB,
		checked: report.checked,
		changed: report.changed,
		added: report.added,
	};
}

main(process.argv[2]!).then(
	(figures) => {
		process.stdout.write(JSON.stringify(figures));
		process.exit(0);
	},
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
