// @vitest-environment happy-dom
/**
 * The BUILT main.js wires Obsidian's workspace in: /periodic/ names notes with the Daily notes plugin's settings and
 * Obsidian's moment, and a command the person allowed runs, its change credited to the key (run `npm run build` first;
 * `npm test` does).
 */
import { mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listeningPort, loadBuiltPlugin, type LoadedPlugin } from "../helpers/built-plugin";
import { call } from "../helpers/http-client";
import { App } from "../obsidian-stub";

const KEY = "e2e-key-0123456789abcdef0123456789abcdef";

let dir: string;
let app: App;
let plugin: LoadedPlugin;
let port: number;
const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
	call(port, path, { ...options, headers: { Authorization: `Bearer ${KEY}`, ...options.headers } });

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-e2e-workspace-"));
	await writeFile(join(dir, "Plan.md"), "# Plan\n");
	app = new App(dir);
	Object.assign(app, {
		internalPlugins: {
			getPluginById: (id: string) =>
				id === "daily-notes" ? { instance: { options: { folder: "Days", format: "dddd YYYY-MM-DD" } } } : null,
		},
	});
	plugin = loadBuiltPlugin(app);
	plugin.data = {
		port: 0,
		keys: [{ name: "e2e-agent", key: KEY, created: "2026-11-21T00:00:00Z" }],
		commandKeys: ["e2e-agent"],
	};
	await plugin.onload();
	app.workspace.triggerLayoutReady();
	port = await listeningPort(plugin);
});

afterEach(async () => {
	plugin.unload();
	await plugin.whenSettled();
	await rm(dir, { recursive: true, force: true });
});

describe("the built plugin's workspace", () => {
	it("serves /periodic/ as Daily notes names the note", async () => {
		const day = await api("/periodic/daily/2026/3/5/", { method: "POST", body: "- agent\n" });
		expect(day.status, day.text).toBe(204);
		expect(day.headers["content-location"]).toBe("Days/Thursday%202026-03-05.md");
		expect(await readFile(join(dir, "Days/Thursday 2026-03-05.md"), "utf8")).toBe("- agent\n");
	});

	it("runs a command for the allowed key and credits its change", async () => {
		app.commands.addCommand({
			id: "test:stamp",
			name: "Stamp",
			callback: () => app.vault.process(app.vault.getFileByPath("Plan.md")!, (text) => `${text}stamped\n`),
		});
		expect((await api("/commands/")).json()).toMatchObject({
			allowed: true,
			commands: expect.arrayContaining([{ id: "test:stamp", name: "Stamp" }]),
		});
		expect((await api("/commands/test:stamp/", { method: "POST" })).status).toBe(204);
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe("# Plan\nstamped\n");
		const history = (await api("/history/Plan.md")).json<{ revisions: { by: string }[] }>();
		expect(history.revisions[0]!.by).toBe("e2e-agent");
		expect((await api("/open/Plan.md", { method: "POST" })).status).toBe(200);
		expect(app.workspace.opened).toContain("Plan.md");
	});
});
