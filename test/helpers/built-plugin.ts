/**
 * Loads the BUILT main.js (`npm test` builds it first) as Obsidian loads it: evaluated as CommonJS with a `require`
 * that gives `obsidian` (the simulation here), `electron` and Node built-ins, and nothing else, so a package the
 * bundle should have included fails loudly.
 */
import { readFileSync } from "fs";
import { rm } from "fs/promises";
import { builtinModules, createRequire } from "module";
import { join } from "path";
import * as obsidian from "../obsidian-stub";
import type { App } from "../obsidian-stub";

const nodeRequire = createRequire(import.meta.url);
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/** What tests use of the plugin instance. */
export interface LoadedPlugin {
	onload(): Promise<void>;
	onunload(): void;
	whenSettled(): Promise<void>;
	load(): void | Promise<void>;
	unload(): void;
	serverStatus(): string;
	restartServer(): Promise<void>;
	data: unknown;
	commands: { id: string; callback?: () => unknown }[];
	statusBarItems: HTMLElement[];
	guard: { tracker: { flush(): Promise<void> }; vaultName: string } | null;
	settings: { conflictAction: string; port: number; bindAddress: string };
}

/** Every module id the bundle asked for, across loads (the MCP test checks nothing unexpected was). */
export const requiredByPlugin: string[] = [];

export function loadBuiltPlugin(app: App): LoadedPlugin {
	const code = readFileSync(join(__dirname, "../../main.js"), "utf8");
	const module = { exports: {} as { default: new (app: App, manifest: unknown) => LoadedPlugin } };
	const requireForPlugin = (id: string): unknown => {
		requiredByPlugin.push(id);
		if (id === "obsidian") return obsidian;
		if (id !== "electron" && !BUILTINS.has(id))
			throw new Error(`main.js required "${id}", which Obsidian cannot provide`);
		return nodeRequire(id);
	};
	// Evaluate the bundle as CommonJS with our own require, as Obsidian does, so `obsidian` resolves to the stub.
	// eslint-disable-next-line @typescript-eslint/no-implied-eval -- loading the built plugin is the point of these tests
	const factory = new Function("require", "module", "exports", code) as (
		r: typeof requireForPlugin,
		m: typeof module,
		e: unknown,
	) => void;
	factory(requireForPlugin, module, module.exports);
	const manifest = JSON.parse(readFileSync(join(__dirname, "../../manifest.json"), "utf8")) as Record<string, unknown>;
	return new module.exports.default(app, { ...manifest, dir: ".obsidian/plugins/revision-guard" });
}

/** Waits (bounded) for `probe` to give something truthy; only a safety net, nothing is asserted about time. */
export async function until<T>(probe: () => T | undefined | null | false, what: string): Promise<T> {
	for (let i = 0; i < 400; i++) {
		const value = probe();
		if (value) return value;
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	throw new Error(`timed out waiting for ${what}`);
}

/** The port the plugin's server listens on, once it does. */
export async function listeningPort(plugin: LoadedPlugin): Promise<number> {
	const match = await until(() => /127\.0\.0\.1:(\d+)/.exec(plugin.serverStatus()), "the server to listen");
	return Number(match[1]);
}

const enabled: { plugin: LoadedPlugin; dir: string }[] = [];

/**
 * Loads the built plugin with `data` as its saved settings, runs onload and lays out the workspace (after
 * `layoutAfterMs`, as Obsidian takes a while to load the vault); see unloadEnabledPlugins.
 */
export async function enableBuiltPlugin(
	app: App,
	dir: string,
	data: unknown,
	layoutAfterMs = 0,
): Promise<LoadedPlugin> {
	const plugin = loadBuiltPlugin(app);
	plugin.data = data;
	enabled.push({ plugin, dir });
	await plugin.onload();
	if (layoutAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, layoutAfterMs));
	app.workspace.triggerLayoutReady();
	return plugin;
}

/** For afterEach: unloads every plugin enableBuiltPlugin loaded and removes its vault folder. */
export async function unloadEnabledPlugins(): Promise<void> {
	const loaded = enabled.splice(0);
	// Every plugin first, then the folders: several plugins may have run on one vault (disabled and enabled again), and
	// removing it while a later one still saves its state there fails with ENOTEMPTY.
	for (const { plugin } of loaded) {
		plugin.unload();
		await plugin.whenSettled();
	}
	for (const dir of new Set(loaded.map(({ dir }) => dir))) await rm(dir, { recursive: true, force: true });
}
