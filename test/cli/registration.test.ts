// @vitest-environment happy-dom
/**
 * The plugin (from source, on the Obsidian simulation) adds its CLI commands on Obsidian 1.12.2 and later, and none
 * on older versions, where it works as before. Commands answer "not-ready" until the host has started.
 */
import { mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp, PluginManifest } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import RevisionGuardPlugin from "../../src/main";
import { CLI_COMMANDS } from "../../src/cli/commands";
import { App, setApiVersion } from "../obsidian-stub";
import { until } from "../helpers/built-plugin";

const COMMANDS = ["read", "write", "edit", "append", "patch", "delete", "changes", "conflicts", "resolve"].map(
	(action) => `revision-guard:${action}`,
);
const MANIFEST = {
	id: "revision-guard",
	name: "Revision Guard",
	version: "0.0.0",
	minAppVersion: "1.6.6",
	dir: ".obsidian/plugins/revision-guard",
} as PluginManifest;

let dir: string;
let app: App;
let plugin: RevisionGuardPlugin | null;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-cli-plugin-"));
	await writeFile(join(dir, "Plan.md"), "# Plan\n");
	plugin = null;
});

afterEach(async () => {
	setApiVersion("1.12.3");
	plugin?.unload();
	// Its last save and marker removal land in the plugin folder: the folder goes only once they are done.
	await plugin?.whenSettled();
	await rm(dir, { recursive: true, force: true });
});

async function enable(version: string): Promise<RevisionGuardPlugin> {
	setApiVersion(version);
	app = new App(dir);
	plugin = new RevisionGuardPlugin(app as unknown as ObsidianApp, MANIFEST);
	(plugin as unknown as { data: unknown }).data = { port: 0 };
	// The simulation's load() returns onload's promise (Obsidian's type says void).
	await (plugin.load() as unknown as Promise<void>);
	return plugin;
}

const run = async (command: string, data: Record<string, string>) =>
	JSON.parse(await app.cli.run(command, data)) as Record<string, unknown>;

describe("registering the CLI commands", () => {
	it("adds the nine guarded commands on Obsidian 1.12.2, with their help and arguments", async () => {
		await enable("1.12.2");
		expect([...app.cli.commands.keys()]).toEqual(COMMANDS);
		const write = app.cli.commands.get("revision-guard:write")!;
		expect(write.description).toMatch(/revision/);
		expect(Object.keys(write.flags ?? {})).toEqual(
			expect.arrayContaining(["path", "revision", "content", "content64", "file", "agent"]),
		);
		// None is marked required: a missing argument gets this plugin's JSON answer, not the CLI's own message.
		for (const command of CLI_COMMANDS)
			for (const flag of Object.values(command.flags)) expect(flag).not.toHaveProperty("required");
	});

	it("answers not-ready until the host has started, then serves", async () => {
		await enable("1.12.3");
		expect(await run("revision-guard:read", { path: "Plan.md" })).toMatchObject({ ok: false, error: "not-ready" });
		app.workspace.triggerLayoutReady();
		await until(() => /127\.0\.0\.1:\d+/.test(plugin!.serverStatus()), "the host to start");
		expect(await run("revision-guard:read", { path: "Plan.md" })).toMatchObject({ ok: true, content: "# Plan\n" });
	});

	it("removes the commands when the plugin is disabled, so it can be enabled again", async () => {
		await enable("1.12.3");
		plugin!.unload();
		expect(app.cli.commands.size).toBe(0);
		await plugin!.whenSettled();
		plugin = new RevisionGuardPlugin(app as unknown as ObsidianApp, MANIFEST);
		await (plugin.load() as unknown as Promise<void>);
		expect([...app.cli.commands.keys()]).toEqual(COMMANDS);
	});

	it("adds none on Obsidian 1.12.1, and the plugin still starts", async () => {
		await enable("1.12.1");
		expect(app.cli.commands.size).toBe(0);
		app.workspace.triggerLayoutReady();
		await until(() => /127\.0\.0\.1:\d+/.test(plugin!.serverStatus()), "the host to start");
	});
});
