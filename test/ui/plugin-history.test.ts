// @vitest-environment happy-dom
/**
 * The plugin (from source, on the Obsidian simulation) offers history and activity: the two commands, the activity
 * status-bar item that follows agent writes, and, on a new install, a backup folder for .bak notes.
 */
import { mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp, PluginManifest } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import RevisionGuardPlugin from "../../src/main";
import { NEW_INSTALL_BACKUP_FOLDER } from "../../src/settings";
import { AgentActivityModal } from "../../src/ui/activity-modal";
import { NoteHistoryModal } from "../../src/ui/history-modal";
import { App, Modal } from "../obsidian-stub";
import { until } from "../helpers/built-plugin";
import { call } from "../helpers/http-client";

const MANIFEST = {
	id: "revision-guard",
	name: "Revision Guard",
	version: "0.0.0",
	minAppVersion: "1.6.6",
	dir: ".obsidian/plugins/revision-guard",
} as PluginManifest;

type Command = { id: string; callback?: () => unknown; checkCallback?: (checking: boolean) => boolean };
type Stubbed = RevisionGuardPlugin & { data: unknown; commands: Command[]; statusBarItems: HTMLElement[] };

let dir: string;
let app: App;
let plugin: Stubbed;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-plugin-history-"));
	await writeFile(join(dir, "Plan.md"), "# Plan\n");
	app = new App(dir);
	plugin = new RevisionGuardPlugin(app as unknown as ObsidianApp, MANIFEST) as Stubbed;
});

afterEach(async () => {
	plugin.unload();
	await plugin.whenSettled();
	await rm(dir, { recursive: true, force: true });
});

/**
 * Loads the plugin with `data` as its saved settings, then starts its host on a free port: never the default 27125,
 * which the person's own `npm start` or Obsidian may hold (a new install, `data` null, would take it).
 */
async function start(data: unknown): Promise<void> {
	plugin.data = data;
	await (plugin.load() as unknown as Promise<void>);
	plugin.settings.port = 0;
	app.workspace.triggerLayoutReady();
	await until(() => /127\.0\.0\.1:\d+/.test(plugin.serverStatus()), "the host to start");
}

const command = (id: string) => plugin.commands.find((candidate) => candidate.id === id)!;

describe("history and activity in the plugin", () => {
	it("starts a new install with a backup folder, and leaves existing settings as they were", async () => {
		await start(null);
		expect(plugin.settings.backupFolder).toBe(NEW_INSTALL_BACKUP_FOLDER);
		plugin.unload();
		await plugin.whenSettled();
		plugin = new RevisionGuardPlugin(app as unknown as ObsidianApp, MANIFEST) as Stubbed;
		await start({ port: 0 });
		expect(plugin.settings.backupFolder).toBe("");
	});

	it("offers note history for the active note and recent activity, and counts today's agent edits in the status bar", async () => {
		await start({ port: 0 });
		const activityItem = plugin.statusBarItems[1]!;
		expect(activityItem.classList.contains("revision-guard-hidden")).toBe(true);
		expect(command("show-note-history").checkCallback!(true)).toBe(false);

		const port = Number(/:(\d+)/.exec(plugin.serverStatus())![1]);
		const auth = { Authorization: `Bearer ${plugin.settings.keys[0]!.key}` };
		const etag = (await call(port, "/vault/Plan.md", { headers: auth })).headers.etag as string;
		expect(
			(
				await call(port, "/vault/Plan.md", {
					method: "PUT",
					body: "# Plan, by the agent\n",
					headers: { ...auth, "If-Match": etag },
				})
			).status,
		).toBe(204);
		await until(() => activityItem.textContent === "1 agent edit today", "the status bar to count the write");
		expect(activityItem.classList.contains("revision-guard-hidden")).toBe(false);

		activityItem.click();
		expect(Modal.opened.at(-1)).toBeInstanceOf(AgentActivityModal);
		app.openEditor("Plan.md");
		expect(command("show-note-history").checkCallback!(false)).toBe(true);
		expect(Modal.opened.at(-1)).toBeInstanceOf(NoteHistoryModal);
		command("show-agent-activity").callback!();
		expect(Modal.opened.at(-1)).toBeInstanceOf(AgentActivityModal);
	});
});
