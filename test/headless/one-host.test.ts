// @vitest-environment happy-dom
/**
 * One host per folder (issue 22): the BUILT headless host refuses a folder another headless host serves, naming it;
 * takes over the lock a killed host left; releases it on a clean stop; and refuses a vault the Obsidian plugin
 * serves (from source, on the simulation, with a config folder not named .obsidian) unless --beside-obsidian.
 */
import { spawn } from "child_process";
import { mkdtemp, readFile, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp, PluginManifest } from "obsidian";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { holderRecord, parseHolder, PLUGIN_MARKER } from "../../src/host/running-marker";
import RevisionGuardPlugin from "../../src/main";
import { until as untilTrue } from "../helpers/built-plugin";
import {
	killSpawnedHosts,
	launch,
	READY_LINE,
	requireBuiltCli,
	serveHost,
	stop,
	within,
} from "../helpers/spawned-host";
import { allFiles, writeVaultFile } from "../helpers/vault-files";
import { App } from "../obsidian-stub";

const LOCK = ".revision-guard/host.lock";

let dir: string;

beforeAll(requireBuiltCli);

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-one-host-"));
	await writeVaultFile(dir, "Inbox.md", "# Inbox\n");
});

afterEach(async () => {
	killSpawnedHosts();
	await rm(dir, { recursive: true, force: true });
});

const lockHolder = async () => parseHolder(await readFile(join(dir, LOCK), "utf8").catch(() => ""));

async function refusedStart(args: string[]): Promise<string> {
	const second = launch(args, dir);
	expect(await within(second.exited, 10_000, "the second host to refuse"), second.out() + second.err()).toEqual({
		code: 1,
		signal: null,
	});
	expect(second.out()).not.toContain(READY_LINE);
	return second.err();
}

describe("two headless hosts on one folder", () => {
	it("the second refuses to start, naming the first's pid, start time and port; the first serves on", async () => {
		const first = await serveHost(["--vault", dir, "--port", "0"], dir);
		const holder = await lockHolder();
		expect(holder).toMatchObject({ kind: "headless", pid: first.child.pid, port: first.port });
		const err = await refusedStart(["--vault", dir, "--port", "0"]);
		expect(err).toContain(
			`A Revision Guard host (pid ${first.child.pid} on this machine, started ${holder!.started}, port ${first.port}) is already serving ${dir}`,
		);
		expect(err).toContain(`kill ${first.child.pid}`);
		// On the same port as well: the folder's holder is what the person needs to hear about.
		expect(await refusedStart(["--vault", dir, "--port", String(first.port)])).toContain(`pid ${first.child.pid}`);
		expect((await first.api("/vault/Inbox.md")).status).toBe(200);
		expect(await lockHolder()).toEqual(holder);
	});

	it("a clean stop (SIGTERM or SIGINT) releases the folder for the next host", async () => {
		for (const signal of ["SIGTERM", "SIGINT"] as const) {
			const host = await serveHost(["--vault", dir, "--port", "0"], dir);
			expect(await stop(host, signal)).toEqual({ code: 0, signal: null });
			expect(await lockHolder()).toBeNull();
			expect((await allFiles(dir)).filter((path) => path.endsWith(".lock"))).toEqual([]);
		}
	});

	it("takes over the lock a killed host left, and says so", async () => {
		const killed = await serveHost(["--vault", dir, "--port", "0"], dir);
		killed.child.kill("SIGKILL");
		await within(killed.exited, 5000, "the host to die");
		expect((await lockHolder())?.pid).toBe(killed.child.pid);
		const next = await serveHost(["--vault", dir, "--port", "0"], dir);
		expect(next.err()).toContain(`from a host that is no longer running (pid ${killed.child.pid} on this machine`);
		expect((await lockHolder())?.pid).toBe(next.child.pid);
		expect((await next.api("/vault/Inbox.md")).status).toBe(200);
	});
});

describe("the headless host beside the Obsidian plugin", () => {
	const CONFIG = ".my-config";
	let plugin: RevisionGuardPlugin | null = null;

	afterEach(async () => {
		plugin?.unload();
		await plugin?.whenSettled();
		plugin = null;
	});

	async function startPlugin(): Promise<RevisionGuardPlugin> {
		const app = new App(dir);
		app.vault.configDir = CONFIG;
		const manifest = {
			id: "revision-guard",
			name: "Revision Guard",
			version: "0.0.0",
			minAppVersion: "1.6.6",
			dir: `${CONFIG}/plugins/revision-guard`,
		} as PluginManifest;
		const started = new RevisionGuardPlugin(app as unknown as ObsidianApp, manifest) as RevisionGuardPlugin & {
			data: unknown;
		};
		started.data = { port: 0 };
		plugin = started;
		await (started.load() as unknown as Promise<void>);
		app.workspace.triggerLayoutReady();
		await untilTrue(() => /127\.0\.0\.1:\d+/.test(started.serverStatus()), "the plugin's host to start");
		return started;
	}

	it("is refused while the plugin runs, with the flag named and the danger said, and allowed with --beside-obsidian", async () => {
		await startPlugin();
		const err = await refusedStart(["--vault", dir, "--port", "0"]);
		expect(err).toContain(`Obsidian's Revision Guard is running on this vault (pid ${process.pid} on this machine`);
		expect(err).toContain(`${CONFIG}/plugins/revision-guard/${PLUGIN_MARKER}`);
		expect(err).toContain("--beside-obsidian");
		expect(err).toContain("cannot see what you type in Obsidian");
		// Nothing was created for the refused start.
		expect((await allFiles(dir)).filter((path) => path.startsWith(".revision-guard/"))).toEqual([]);

		const beside = await serveHost(["--vault", dir, "--port", "0", "--beside-obsidian"], dir);
		expect(beside.err()).toContain("serving beside it, as --beside-obsidian asks");
		expect((await beside.api("/vault/Inbox.md")).status).toBe(200);
	});

	it("starts once the plugin is disabled (its marker is gone)", async () => {
		const started = await startPlugin();
		started.unload();
		await started.whenSettled();
		plugin = null;
		const host = await serveHost(["--vault", dir, "--port", "0"], dir);
		expect(host.err()).toBe("");
	});

	it("ignores, and says it ignores, a marker left by an Obsidian that is no longer running", async () => {
		const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
		await new Promise((resolve) => child.on("exit", resolve));
		await writeVaultFile(
			dir,
			`${CONFIG}/plugins/revision-guard/${PLUGIN_MARKER}`,
			JSON.stringify({ ...holderRecord("obsidian", 27125), pid: child.pid }),
		);
		const host = await serveHost(["--vault", dir, "--port", "0"], dir);
		expect(host.err()).toContain(
			`Ignoring ${CONFIG}/plugins/revision-guard/${PLUGIN_MARKER}: the Obsidian process that wrote it (pid ${child.pid} on this machine`,
		);
	});

	it("is refused by a marker from another machine, which it cannot judge, unless --beside-obsidian", async () => {
		await writeVaultFile(
			dir,
			`.obsidian/plugins/revision-guard/${PLUGIN_MARKER}`,
			JSON.stringify({ ...holderRecord("obsidian", 27125), hostname: "laptop-elsewhere" }),
		);
		const err = await refusedStart(["--vault", dir, "--port", "0"]);
		expect(err).toContain('on the machine "laptop-elsewhere"');
		expect(err).toContain(`delete ${join(dir, ".obsidian/plugins/revision-guard", PLUGIN_MARKER)}`);
		await serveHost(["--vault", dir, "--port", "0", "--beside-obsidian"], dir);
	});
});
