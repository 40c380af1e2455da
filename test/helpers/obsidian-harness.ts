/** Builds the real stack over the `obsidian` stub (a vault on a temp folder) through the Obsidian gateway. */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { apiVersion, App, type AppOptions, type MarkdownView, type WriteRecord } from "../obsidian-stub";
import { yieldVia } from "../../src/core/steps";
import { nodeTimers } from "../../src/headless/node-timers";
import { createApiServer } from "../../src/host/api-server";
import { openRevisionGuard, type RevisionGuard } from "../../src/host/revision-guard";
import type { ProposalSink } from "../../src/service/proposals/proposal-sink";
import { DEFAULT_SETTINGS, type RevisionGuardSettings } from "../../src/settings";
import { ObsidianGateway } from "../../src/vault/obsidian-gateway";
import { ObsidianNoteIndex } from "../../src/vault/obsidian-note-index";
import { ObsidianStateStorage } from "../../src/vault/obsidian-state-storage";
import { ObsidianWorkspace } from "../../src/vault/obsidian-workspace";
import { call, type CallOptions } from "./http-client";
import { TEST_KEY } from "./headless-harness";

export interface ObsidianHarness {
	dir: string;
	port: number;
	app: App;
	guard: RevisionGuard;
	settings: RevisionGuardSettings;
	errors: unknown[];
	api: (path: string, options?: CallOptions) => ReturnType<typeof call>;
	close: () => Promise<void>;
}

/** `dir` given: the vault lives there and outlives close() (restarts); otherwise a temporary folder, removed on close. */
export async function startObsidian(
	overrides: Partial<RevisionGuardSettings> = {},
	ownDir?: string,
	options: { now?: () => number; app?: AppOptions; proposals?: ProposalSink | null } = {},
): Promise<ObsidianHarness> {
	const dir = ownDir ?? (await mkdtemp(join(tmpdir(), "rg-obsidian-")));
	const app = new App(dir, options.app);
	const settings: RevisionGuardSettings = {
		...structuredClone(DEFAULT_SETTINGS),
		keys: [{ name: "test-agent", key: TEST_KEY, created: "2026-01-01" }],
		...overrides,
	};
	const cleanups: (() => void)[] = [];
	const errors: unknown[] = [];
	// The stub implements the slice of App the gateway uses.
	const gateway = new ObsidianGateway(
		app as unknown as ObsidianApp,
		(cleanup) => cleanups.push(cleanup),
		yieldVia(nodeTimers),
	);
	const guard = await openRevisionGuard({
		gateway,
		storage: new ObsidianStateStorage(
			app.vault.adapter as unknown as ObsidianApp["vault"]["adapter"],
			`${app.vault.configDir}/plugins/revision-guard`,
		),
		settings: () => settings,
		configDir: app.vault.configDir,
		appVersion: apiVersion,
		changeSource: { kind: "user" },
		noteIndex: new ObsidianNoteIndex(app as unknown as ObsidianApp, yieldVia(nodeTimers)),
		workspace: new ObsidianWorkspace(app as unknown as ObsidianApp),
		timers: nodeTimers,
		coalesceMs: 20,
		persistDebounceMs: 20,
		onError: (error) => errors.push(error),
		...(options.now ? { now: options.now } : {}),
		...(options.proposals !== undefined ? { proposals: options.proposals } : {}),
	});
	// As the plugin does: tracking starts once the layout is ready, after Obsidian's start-up flood of create events.
	app.workspace.triggerLayoutReady();
	guard.tracker.start();
	const server = createApiServer(guard.notes, { onError: (error) => errors.push(error) });
	const port = await server.listen(0);
	return {
		dir,
		port,
		app,
		guard,
		settings,
		errors,
		api: (path, options = {}) =>
			call(port, path, { ...options, headers: { Authorization: `Bearer ${TEST_KEY}`, ...options.headers } }),
		async close() {
			await server.close();
			await guard.close();
			for (const cleanup of cleanups) cleanup();
			if (!ownDir) await rm(dir, { recursive: true, force: true });
		},
	};
}

/**
 * Six seconds of typing into `view`, a keystroke every 200 ms, with the plugin's tracking running throughout; then
 * everything settles. Gives the writes of the view's note made meanwhile (autosave alone makes one).
 */
export async function typeForSixSeconds(h: ObsidianHarness, view: MarkdownView): Promise<WriteRecord[]> {
	const path = view.file!.path;
	const writesBefore = h.app.vault.writeLog.length;
	for (let i = 0; i < 30; i++) {
		view.type("x");
		await h.app.clock.advance(200);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	await h.app.clock.runAll();
	await h.guard.tracker.flush();
	return h.app.vault.writeLog.slice(writesBefore).filter((write) => write.path === path);
}
