/**
 * The real stack (guard + HTTP server) over either gateway, on a folder the caller owns, with settings and a clock
 * set from the start: restarts on the same folder and clocked read windows need both, over both gateways alike.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import type { App as ObsidianApp, EventRef } from "obsidian";
import { nodeTimers } from "../../src/headless/node-timers";
import { ApiServer } from "../../src/http/server";
import { openRevisionGuard, type RevisionGuard } from "../../src/service/revision-guard";
import { DEFAULT_SETTINGS, type AgentKey, type RevisionGuardSettings } from "../../src/settings";
import { ObsidianGateway } from "../../src/vault/obsidian-gateway";
import { ObsidianStateStorage } from "../../src/vault/obsidian-state-storage";
import { startHeadless, TEST_KEY } from "../helpers/headless-harness";
import { call, type CallOptions } from "../helpers/http-client";
import { writeVaultFile } from "../helpers/vault-files";
import { App } from "../obsidian-stub";

/** A second agent's key, for "another client's read does not count". */
export const OTHER_KEY = "other-key-fedcba9876543210fedcba9876543210";

export const TWO_KEYS: AgentKey[] = [
	{ name: "test-agent", key: TEST_KEY, created: "2026-01-01" },
	{ name: "other-agent", key: OTHER_KEY, created: "2026-01-01" },
];

export interface Stack {
	dir: string;
	guard: RevisionGuard;
	/** Calls the API with the test key (send another Authorization header to be another client). */
	api(path: string, options?: CallOptions): ReturnType<typeof call>;
	/** A person's (or another program's) edit, the way it arrives with this gateway. */
	edit(path: string, content: string): Promise<void>;
	/** The note's bytes on disk, or null. */
	file(path: string): Promise<string | null>;
	/** The Obsidian stub app (null headless), to open editors. */
	app: App | null;
	close(): Promise<void>;
}

export interface StackOptions {
	settings?: Partial<RevisionGuardSettings>;
	now?: () => number;
}

export type StartStack = (dir: string, options?: StackOptions) => Promise<Stack>;

const fileAt = (dir: string) => (path: string) => readFile(join(dir, path), "utf8").catch(() => null);

export const STACKS: Record<"node filesystem" | "obsidian", StartStack> = {
	"node filesystem": async (dir, options = {}) => {
		const h = await startHeadless({ keys: TWO_KEYS, ...options.settings }, dir, options.now ? { now: options.now } : {});
		return { dir, guard: h.guard, api: h.api, edit: (path, content) => writeVaultFile(dir, path, content), file: fileAt(dir), app: null, close: h.close };
	},
	obsidian: async (dir, options = {}) => {
		const app = new App(dir);
		const settings: RevisionGuardSettings = { ...structuredClone(DEFAULT_SETTINGS), keys: TWO_KEYS, ...options.settings };
		const refs: EventRef[] = [];
		// The stub implements the slice of App the gateway uses.
		const gateway = new ObsidianGateway(app as unknown as ObsidianApp, (ref) => refs.push(ref));
		const guard = await openRevisionGuard({
			gateway,
			storage: new ObsidianStateStorage(app.vault.adapter as unknown as ObsidianApp["vault"]["adapter"], `${app.vault.configDir}/plugins/revision-guard`),
			settings: () => settings,
			configDir: app.vault.configDir,
			changeSource: { kind: "user" },
			timers: nodeTimers,
			coalesceMs: 20,
			persistDebounceMs: 20,
			...(options.now ? { now: options.now } : {}),
		});
		guard.tracker.start();
		app.workspace.triggerLayoutReady();
		const server = new ApiServer({ guard });
		const port = await server.listen(0);
		return {
			dir,
			guard,
			api: (path, callOptions = {}) => call(port, path, { ...callOptions, headers: { Authorization: `Bearer ${TEST_KEY}`, ...callOptions.headers } }),
			async edit(path, content) {
				const file = app.vault.getFileByPath(path);
				if (file) await app.vault.modify(file, content);
				else await app.vault.create(path, content);
			},
			file: fileAt(dir),
			app,
			async close() {
				await server.close();
				await guard.close();
				for (const ref of refs) app.vault.offref(ref as never);
			},
		};
	},
};
