// @vitest-environment happy-dom
/**
 * The plugin's running marker (`<config folder>/plugins/revision-guard/running.json`): written through the vault
 * adapter while the plugin runs (from source, on the Obsidian simulation, with a config folder not named .obsidian),
 * removed when it is disabled or Obsidian quits, and never removed when another run's marker replaced it.
 */
import { mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { hostname, tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp, PluginManifest } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeHolder, holderRecord, parseHolder, PLUGIN_MARKER } from "../../src/host/running-marker";
import RevisionGuardPlugin from "../../src/main";
import { until } from "../helpers/built-plugin";
import { App } from "../obsidian-stub";

const CONFIG = ".my-config";
const MARKER = `${CONFIG}/plugins/revision-guard/${PLUGIN_MARKER}`;

let dir: string;
let app: App;
let plugin: (RevisionGuardPlugin & { data: unknown }) | null;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-marker-"));
	await writeFile(join(dir, "Plan.md"), "# Plan\n");
	app = new App(dir);
	app.vault.configDir = CONFIG;
	plugin = null;
});

afterEach(async () => {
	plugin?.unload();
	await plugin?.whenSettled();
	await rm(dir, { recursive: true, force: true });
});

async function start(manifestDir: string | undefined): Promise<RevisionGuardPlugin> {
	const manifest = {
		id: "revision-guard",
		name: "Revision Guard",
		version: "0.0.0",
		minAppVersion: "1.6.6",
		...(manifestDir ? { dir: manifestDir } : {}),
	} as PluginManifest;
	const started = new RevisionGuardPlugin(app as unknown as ObsidianApp, manifest) as RevisionGuardPlugin & {
		data: unknown;
	};
	plugin = started;
	started.data = { port: 0 };
	await (started.load() as unknown as Promise<void>);
	app.workspace.triggerLayoutReady();
	await until(() => /127\.0\.0\.1:\d+/.test(started.serverStatus()), "the host to start");
	return started;
}

const markerText = () => readFile(join(dir, MARKER), "utf8").catch(() => null);

describe("the plugin's running marker", () => {
	it("is written in the plugin's folder of the vault's config folder while the plugin runs, naming this process", async () => {
		await start(`${CONFIG}/plugins/revision-guard`);
		const record = parseHolder((await markerText())!);
		expect(record).toMatchObject({ app: "revision-guard", kind: "obsidian", pid: process.pid, hostname: hostname() });
		expect(Math.abs(record!.processStart - (Date.now() - process.uptime() * 1000))).toBeLessThan(5_000);
	});

	it("finds the plugin folder from the config folder when the manifest does not say", async () => {
		await start(undefined);
		expect(parseHolder((await markerText())!)?.pid).toBe(process.pid);
	});

	it("is removed when the plugin is disabled", async () => {
		const started = await start(`${CONFIG}/plugins/revision-guard`);
		started.unload();
		await started.whenSettled();
		expect(await markerText()).toBeNull();
	});

	it("is removed when Obsidian quits without unloading the plugin", async () => {
		await start(`${CONFIG}/plugins/revision-guard`);
		await app.workspace.quit();
		expect(await markerText()).toBeNull();
	});

	it("is left alone when another run's marker replaced it (a synced vault's other device)", async () => {
		const started = await start(`${CONFIG}/plugins/revision-guard`);
		const other = JSON.stringify({ ...holderRecord("obsidian", 27125), hostname: "another-device" });
		await writeFile(join(dir, MARKER), other);
		started.unload();
		await started.whenSettled();
		expect(await markerText()).toBe(other);
	});
});

describe("holder records", () => {
	it("read back what they wrote, and refuse what is not one", () => {
		const record = holderRecord("command", null, "conflicts dismiss");
		expect(parseHolder(JSON.stringify(record))).toEqual(record);
		expect(parseHolder("")).toBeNull();
		expect(parseHolder('{"app":"other","pid":1}')).toBeNull();
		expect(parseHolder(JSON.stringify({ ...record, kind: "unknown" }))).toBeNull();
	});

	it("describe where the holder runs, when it started and its port", () => {
		const record = { ...holderRecord("headless", 27125), pid: 42, started: "2026-11-27T14:55:16.000Z" };
		expect(describeHolder(record)).toBe("pid 42 on this machine, started 2026-11-27T14:55:16.000Z, port 27125");
		expect(describeHolder({ ...record, hostname: "laptop", port: null })).toBe(
			'pid 42 on the machine "laptop", started 2026-11-27T14:55:16.000Z',
		);
	});
});
