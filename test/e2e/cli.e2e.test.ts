// @vitest-environment happy-dom
/**
 * The BUILT main.js (run `npm run build` first; `npm test` does) adds its guarded commands to the Obsidian CLI on
 * 1.12.2 and later, and they answer through the real guard: a read, a write with its revision, a stale write kept as .bak.
 */
import { mkdtemp, readFile, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App, setApiVersion } from "../obsidian-stub";
import { enableBuiltPlugin, until, unloadEnabledPlugins } from "../helpers/built-plugin";

let dir: string;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-e2e-cli-"));
	await writeFile(join(dir, "Plan.md"), "# Plan\n");
});

afterEach(async () => {
	setApiVersion("1.12.3");
	await unloadEnabledPlugins();
});

const answer = async (app: App, command: string, data: Record<string, string>) =>
	JSON.parse(await app.cli.run(`revision-guard:${command}`, data)) as Record<string, unknown>;

describe("the built plugin's CLI commands", () => {
	it("read, write with the revision, and refuse a stale write keeping it as .bak", async () => {
		const app = new App(dir);
		const plugin = await enableBuiltPlugin(app, dir, { port: 0 });
		await until(() => /127\.0\.0\.1:\d+/.test(plugin.serverStatus()), "the host to start");
		const read = await answer(app, "read", { path: "Plan.md" });
		expect(read).toMatchObject({ ok: true, content: "# Plan\n" });
		expect(
			await answer(app, "write", {
				path: "Plan.md",
				revision: read.revision as string,
				content: "# Plan\n\n- agent\n",
			}),
		).toMatchObject({ ok: true });
		const stale = await answer(app, "write", {
			path: "Plan.md",
			revision: read.revision as string,
			content64: Buffer.from("stale $\\times$\n").toString("base64"),
		});
		expect(stale).toMatchObject({ ok: false, error: "stale-revision" });
		expect(await readFile(join(dir, stale.backupPath as string), "utf8")).toBe("stale $\\times$\n");
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe("# Plan\n\n- agent\n");
	});

	it("adds no commands on Obsidian older than 1.12.2", async () => {
		setApiVersion("1.12.1");
		const app = new App(dir);
		const plugin = await enableBuiltPlugin(app, dir, { port: 0 });
		await until(() => /127\.0\.0\.1:\d+/.test(plugin.serverStatus()), "the host to start");
		expect(app.cli.commands.size).toBe(0);
	});
});
