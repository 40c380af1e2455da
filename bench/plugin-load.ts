/**
 * The plugin's load cost inside Obsidian: evaluating the built main.js and running its onload, timed here against the
 * Obsidian simulation under happy-dom (Obsidian's renderer is a browser page with Node built in). Reported with the
 * bundle's size; medians over several loads, the first (cold) one reported apart. onload is timed both as Obsidian
 * starts (the layout not ready yet) and for a plugin enabled in a running Obsidian (the layout ready at once), where
 * the start-up it triggers must still wait until onload has returned.
 */
import { mkdtempSync, readFileSync, rmSync } from "fs";
import { createRequire } from "module";
import { tmpdir } from "os";
import { join } from "path";

export interface PluginLoadFigures {
	bundleKB: number;
	evalMs: number;
	onloadMs: number;
	/** onload when the workspace's layout is already ready (the plugin enabled in a running Obsidian). */
	onloadLayoutReadyMs: number;
	firstEvalMs: number;
}

interface LoadedPlugin {
	data: unknown;
	onload(): Promise<void>;
	onunload(): void;
	whenSettled(): Promise<void>;
}

export async function measurePluginLoad(mainJs: string): Promise<PluginLoadFigures> {
	const { Window } = await import("happy-dom");
	const window = new Window();
	const globals = globalThis as unknown as Record<string, unknown>;
	for (const name of ["document", "HTMLElement", "Node", "DocumentFragment", "KeyboardEvent", "Event"])
		globals[name] ??= (window as unknown as Record<string, unknown>)[name];
	globals.window ??= window;
	const obsidian = await import("../test/obsidian-stub");
	const nodeRequire = createRequire(__filename);
	const code = readFileSync(mainJs, "utf8");
	const evals: number[] = [];
	const loads: number[] = [];
	const readyLoads: number[] = [];
	for (let round = 0; round < 17; round++) {
		// Rounds alternate: Obsidian starting (even), then enabling the plugin in a running Obsidian (odd).
		const layoutReady = round % 2 === 1;
		const dir = mkdtempSync(join(tmpdir(), "rg-load-"));
		const app = new obsidian.App(dir);
		if (layoutReady) app.workspace.triggerLayoutReady();
		const t0 = performance.now();
		const module = { exports: {} as { default: new (app: unknown, manifest: unknown) => LoadedPlugin } };
		const requireForPlugin = (id: string): unknown => (id === "obsidian" ? obsidian : nodeRequire(id));
		// eslint-disable-next-line @typescript-eslint/no-implied-eval -- evaluating the built plugin is what is measured
		const factory = new Function("require", "module", "exports", code) as (
			r: typeof requireForPlugin,
			m: typeof module,
			e: unknown,
		) => void;
		factory(requireForPlugin, module, module.exports);
		const t1 = performance.now();
		const plugin = new module.exports.default(app, { id: "revision-guard", dir: ".obsidian/plugins/revision-guard" });
		plugin.data = { port: 0 };
		await plugin.onload();
		(layoutReady ? readyLoads : loads).push(performance.now() - t1);
		evals.push(t1 - t0);
		plugin.onunload();
		await plugin.whenSettled();
		rmSync(dir, { recursive: true, force: true });
	}
	const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
	return {
		bundleKB: Buffer.byteLength(code) / 1024,
		evalMs: median(evals.slice(1)),
		onloadMs: median(loads.slice(1)),
		onloadLayoutReadyMs: median(readyLoads),
		firstEvalMs: evals[0]!,
	};
}
