// @vitest-environment happy-dom
/**
 * The BUILT plugin's life on the strict simulation: state flushed when Obsidian quits (it may not unload plugins),
 * a failed start-up shown instead of "Starting…" forever, a port change during start-up that never listens twice,
 * two vaults on one port told apart, and unloading that detaches every listener.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, describe, expect, it } from "vitest";
import {
	enableBuiltPlugin,
	listeningPort,
	unloadEnabledPlugins,
	until,
	type LoadedPlugin,
} from "../helpers/built-plugin";
import { call } from "../helpers/http-client";
import { App, Notice } from "../obsidian-stub";

const KEY = "e2e-key-0123456789abcdef0123456789abcdef";
const STATE = ".obsidian/plugins/revision-guard";

afterEach(unloadEnabledPlugins);

async function enable(
	options: { port?: number; before?: (dir: string) => Promise<void>; dir?: string } = {},
): Promise<{ app: App; plugin: LoadedPlugin; dir: string }> {
	const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "rg-life-")));
	await writeFile(join(dir, "Plan.md"), "# Plan\n");
	await options.before?.(dir);
	const app = new App(dir);
	const plugin = await enableBuiltPlugin(app, dir, {
		port: options.port ?? 0,
		keys: [{ name: "e2e-agent", key: KEY, created: "2026-11-21T00:00:00Z" }],
	});
	return { app, plugin, dir };
}

describe("the built plugin's lifecycle", () => {
	it("saves what is pending when Obsidian quits, without being unloaded", async () => {
		const { app, plugin, dir } = await enable();
		const port = await listeningPort(plugin);
		const read = await call(port, "/vault/Plan.md", { headers: { Authorization: `Bearer ${KEY}` } });
		expect(read.status).toBe(200);
		// The read is recorded in history, whose save is debounced; quitting must not lose it.
		await app.workspace.quit();
		const history = JSON.parse(await readFile(join(dir, STATE, "history.json"), "utf8")) as {
			history: { entries: [string, unknown][] };
		};
		expect(JSON.stringify(history)).toContain("Plan.md");
	});

	it('shows why it could not start instead of "Starting…" forever', async () => {
		const { plugin } = await enable({
			// A folder where the history file should be: reading the state fails.
			before: async (dir) => {
				await mkdir(join(dir, STATE, "history.json"), { recursive: true });
			},
		});
		const status = await until(
			() => (plugin.serverStatus() !== "Starting…" ? plugin.serverStatus() : null),
			"the status to change",
		);
		expect(status).toMatch(/could not start/);
		expect(Notice.shown.some((notice) => /could not start/.test(notice.message))).toBe(true);
	});

	it("never listens twice when the port is changed while it is still starting", async () => {
		const { plugin } = await enable();
		// The person applies a new port before the first listen finished.
		void plugin.restartServer();
		const port = await listeningPort(plugin);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(plugin.serverStatus()).toBe(`Listening on http://127.0.0.1:${port}`);
		expect((await call(port, "/")).status).toBe(200);
	});

	it("names the vault that holds a port, and tells a second vault so", async () => {
		const first = await enable();
		const port = await listeningPort(first.plugin);
		const status = await call(port, "/");
		expect(status.json<{ vault: string }>().vault).toBe(first.dir.split("/").pop());
		const second = await enable({ port });
		const message = await until(
			() => (/in use|already used/.test(second.plugin.serverStatus()) ? second.plugin.serverStatus() : null),
			"the second vault's status",
		);
		expect(message).toBe(
			`Port ${port} is already used by Revision Guard for the vault "${first.dir.split("/").pop()!}". Give this vault another port in settings.`,
		);
	});

	it("shows start-up progress for a large vault from the first note on, then hides it", async () => {
		Notice.shown.length = 0;
		const { plugin } = await enable({
			before: async (dir) => {
				await Promise.all(Array.from({ length: 2_000 }, (_, i) => writeFile(join(dir, `n${i}.md`), `note ${i}\n`)));
			},
		});
		await listeningPort(plugin);
		const progress = Notice.shown.find((notice) =>
			notice.messages.some((message) => message.includes("notes for edits made while Obsidian was closed")),
		);
		expect(progress?.messages[0]).toBe(
			"Revision Guard: checked 1 of 2001 notes for edits made while Obsidian was closed.",
		);
		expect(progress?.messages.at(-1)).toBe(
			"Revision Guard: checked 2001 of 2001 notes for edits made while Obsidian was closed.",
		);
		expect(progress?.hidden).toBe(true);
	});

	it("reads each note once at start-up: Obsidian's flood of create events before layout-ready is not taken for edits", async () => {
		const dir = await mkdtemp(join(tmpdir(), "rg-life-"));
		await Promise.all(Array.from({ length: 200 }, (_, i) => writeFile(join(dir, `n${i}.md`), `note ${i}\n`)));
		const app = new App(dir);
		let reads = 0;
		const read = app.vault.read.bind(app.vault);
		const counted = async (file: Parameters<typeof read>[0]) => {
			reads++;
			return read(file);
		};
		app.vault.read = counted;
		app.vault.cachedRead = counted;
		// The flood comes a while after onload, once whatever the plugin set up there is running.
		const plugin = await enableBuiltPlugin(
			app,
			dir,
			{ port: 0, keys: [{ name: "e2e-agent", key: KEY, created: "2026-11-21T00:00:00Z" }] },
			300,
		);
		await listeningPort(plugin);
		await until(() => reads >= 200 && plugin.guard, "the start-up reconcile");
		await plugin.guard!.tracker.flush();
		await new Promise((resolve) => setTimeout(resolve, 50));
		// One read per note by the start-up reconcile; none for the 200 create events delivered before it.
		expect(reads).toBe(200);
	});

	it("comes back up after quick disables and enables, its conflict records intact", async () => {
		const { app, plugin, dir } = await enable();
		const auth = { Authorization: `Bearer ${KEY}` };
		let port = await listeningPort(plugin);
		const read = await call(port, "/vault/Plan.md", { headers: auth });
		await writeFile(join(dir, "Plan.md"), "# Plan\nthe person's edit\n");
		const refused = await call(port, "/vault/Plan.md", {
			method: "PUT",
			body: "# Plan\nthe agent's edit\n",
			headers: { ...auth, "If-Match": read.headers.etag as string },
		});
		expect(refused.status).toBe(412);
		let current = plugin;
		for (let round = 0; round < 5; round++) {
			// Disabled while its state save may still be under way, and enabled again at once.
			current.unload();
			current = await enableBuiltPlugin(app, dir, structuredClone(current.data));
			port = await listeningPort(current);
			const conflicts = await call(port, "/conflicts", { headers: auth });
			expect(conflicts.status, conflicts.text).toBe(200);
			expect(conflicts.text).toContain("Plan.md");
		}
	});

	it("survives eight immediate disables and enables: no unhandled rejection, no temp file left, no record or history entry lost", async () => {
		const rejections: unknown[] = [];
		const onRejection = (reason: unknown) => void rejections.push(reason);
		process.on("unhandledRejection", onRejection);
		try {
			const { app, plugin, dir } = await enable({ before: (dir) => writeFile(join(dir, "Other.md"), "# Other\n") });
			const auth = { Authorization: `Bearer ${KEY}` };
			const refuse = async (port: number, note: string) => {
				const read = await call(port, `/vault/${note}`, { headers: auth });
				await writeFile(join(dir, note), `# ${note}\nthe person's edit\n`);
				const refused = await call(port, `/vault/${note}`, {
					method: "PUT",
					body: "the agent's edit\n",
					headers: { ...auth, "If-Match": read.headers.etag as string },
				});
				expect(refused.status).toBe(412);
			};
			const seen = async (port: number) => ({
				conflicts: (await call(port, "/conflicts", { headers: auth })).json<{
					conflicts: { path: string; status: string }[];
				}>().conflicts,
				ideas: (await call(port, "/history/Ideas.md", { headers: auth })).json<{
					revisions: { revision: string; by: string }[];
				}>().revisions,
			});
			let current = plugin;
			let port = await listeningPort(current);
			await refuse(port, "Plan.md");
			// Made just before the first disable: its history save is still waiting for the debounce then.
			expect(
				(
					await call(port, "/vault/Ideas.md", {
						method: "PUT",
						body: "one idea\n",
						headers: { ...auth, "If-None-Match": "*" },
					})
				).status,
			).toBe(204);
			const cycle = async () => {
				// Disabled while its saves may still be under way, and enabled again at once, as Obsidian does (unload not awaited).
				current.unload();
				current = await enableBuiltPlugin(app, dir, structuredClone(current.data));
			};
			for (let round = 0; round < 4; round++) await cycle();
			port = await listeningPort(current);
			await refuse(port, "Other.md");
			for (let round = 0; round < 4; round++) await cycle();
			port = await listeningPort(current);
			const after = await seen(port);
			expect(after.conflicts.map((record) => `${record.path} ${record.status}`).sort()).toEqual([
				"Other.md open",
				"Plan.md open",
			]);
			expect(after.ideas.map((entry) => entry.by)).toEqual(["e2e-agent"]);
			// Once every instance has settled, a fresh start reads the same state, and no save left a temp file behind.
			current.unload();
			await current.whenSettled();
			current = await enableBuiltPlugin(app, dir, structuredClone(current.data));
			expect(await seen(await listeningPort(current))).toEqual(after);
			const left = await readdir(join(dir, STATE));
			expect(left.filter((name) => name.includes("tmp"))).toEqual([]);
			expect(rejections).toEqual([]);
		} finally {
			process.off("unhandledRejection", onRejection);
		}
	});

	it("detaches every vault and workspace listener when unloaded", async () => {
		const { app, plugin } = await enable();
		await listeningPort(plugin);
		expect(app.vault.listenerCount()).toBeGreaterThan(0);
		plugin.unload();
		expect(app.vault.listenerCount()).toBe(0);
		expect(app.workspace.listenerCount()).toBe(0);
	});
});

describe("the built plugin's history journal", () => {
	it("appends a save to history.jsonl through Obsidian's storage, and a start after a crash replays it", async () => {
		const { plugin, dir } = await enable();
		const port = await listeningPort(plugin);
		const auth = { Authorization: `Bearer ${KEY}` };
		const state = (name: string) => readFile(join(dir, STATE, name), "utf8").catch(() => "");
		const read = await call(port, "/vault/Plan.md", { headers: auth });
		// The first save writes history.json whole (there was none); the saves after it go to the journal.
		await eventually(async () => (await state("history.json")).includes("Plan.md"), "the first save");
		const written = await call(port, "/vault/Plan.md", {
			method: "PUT",
			headers: { ...auth, "If-Match": read.headers.etag as string },
			body: "# Plan\n\nwritten by the agent\n",
		});
		expect(written.status).toBeLessThan(300);
		await eventually(async () => (await state("history.jsonl")).includes("e2e-agent"), "the save to reach the journal");
		expect(await state("history.json")).not.toContain("e2e-agent");
		// A crash now: the vault and its state, as they are on disk, opened by another instance.
		const copy = await mkdtemp(join(tmpdir(), "rg-life-crash-"));
		await cp(dir, copy, { recursive: true });
		// Without the running instance's owner file: how a start waits out one a crash left is tested elsewhere.
		await rm(join(copy, STATE, "owners"), { recursive: true, force: true });
		const restarted = await enable({
			dir: copy,
			before: () => writeFile(join(copy, "Plan.md"), "# Plan\n\nwritten by the agent\n"),
		});
		const history = await call(await listeningPort(restarted.plugin), "/history/Plan.md", { headers: auth });
		expect(history.status).toBe(200);
		expect(history.text).toContain("e2e-agent");
	});
});

/** Polls `probe` until it holds (a bound on waiting, not on how fast: the test fails only if it never holds). */
async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
	for (let i = 0; i < 400; i++) {
		if (await probe()) return;
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	throw new Error(`timed out waiting for ${what}`);
}
