/** Builds the real stack (guard + HTTP server) over a temporary folder through the Node filesystem gateway. */
import { mkdtemp, rm } from "fs/promises";
import { afterEach, beforeEach, expect } from "vitest";
import { tmpdir } from "os";
import { join } from "path";
import { openFolder, openFolderGuard } from "../../src/headless/folder-guard";
import type { ConnectionLimits } from "../../src/http/connections";
import { createApiServer } from "../../src/host/api-server";
import type { ApiServer } from "../../src/http/server";
import type { YieldToHost } from "../../src/core/steps";
import type { RevisionGuard } from "../../src/host/revision-guard";
import { DEFAULT_SETTINGS, type RevisionGuardSettings } from "../../src/settings";
import type { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import type { ProposalSink } from "../../src/service/proposals/proposal-sink";
import { call, type CallOptions } from "./http-client";

export const TEST_KEY = "test-key-0123456789abcdef0123456789abcdef";

export interface Harness {
	dir: string;
	port: number;
	guard: RevisionGuard;
	server: ApiServer;
	gateway: NodeFsGateway;
	settings: RevisionGuardSettings;
	/** Calls the API with the test key. */
	api: (path: string, options?: CallOptions) => ReturnType<typeof call>;
	/** Calls the API exactly as given: no key unless the caller sends one. */
	raw: (path: string, options?: CallOptions) => ReturnType<typeof call>;
	/** Unexpected errors the server reported (each became a 500), and bookkeeping errors the guard reported. */
	errors: unknown[];
	close: () => Promise<void>;
}

export interface HarnessOptions {
	/** The clock the guard (history, read window, .bak names, conflict times) and the auth throttle use. */
	now?: () => number;
	/** How long diffs and merges give the host a turn (a test can hold one there). */
	yieldToHost?: YieldToHost;
	/** The server's connection limits (flood tests lower them). */
	connections?: ConnectionLimits;
	/** Where changes a key may only propose go (a fake, in tests of what each surface answers). */
	proposals?: ProposalSink | null;
}

export async function startHeadless(
	overrides: Partial<RevisionGuardSettings> = {},
	dir?: string,
	options: HarnessOptions = {},
): Promise<Harness> {
	const folder = dir ?? (await mkdtemp(join(tmpdir(), "rg-vault-")));
	const settings: RevisionGuardSettings = {
		...structuredClone(DEFAULT_SETTINGS),
		keys: [{ name: "test-agent", key: TEST_KEY, created: "2026-01-01" }],
		...overrides,
	};
	const opened = await openFolder(folder);
	const { gateway } = opened;
	const errors: unknown[] = [];
	const guard = await openFolderGuard(opened, () => settings, {
		coalesceMs: 20,
		persistDebounceMs: 20,
		onError: (error) => errors.push(error),
		...(options.now ? { now: options.now } : {}),
		...(options.yieldToHost ? { yieldToHost: options.yieldToHost } : {}),
		...(options.proposals !== undefined ? { proposals: options.proposals } : {}),
	});
	guard.tracker.start();
	await gateway.watching();
	const server = createApiServer(guard.notes, {
		onError: (error) => errors.push(error),
		...(options.connections ? { connections: options.connections } : {}),
	});
	const port = await server.listen(0);
	return {
		dir: gateway.root,
		port,
		guard,
		server,
		gateway,
		settings,
		api: (path, callOptions = {}) =>
			call(port, path, { ...callOptions, headers: { Authorization: `Bearer ${TEST_KEY}`, ...callOptions.headers } }),
		raw: (path, callOptions = {}) => call(port, path, callOptions),
		errors,
		async close() {
			await server.close();
			await guard.close();
			await gateway.close();
			if (!dir) await rm(folder, { recursive: true, force: true });
		},
	};
}

/**
 * Starts a fresh headless stack before each test, hands it to `use` (tests keep a `let h: Harness`), and closes
 * it after each test: the setup almost every HTTP test file needs.
 */
export function eachHeadless(
	use: (harness: Harness) => void,
	overrides: Partial<RevisionGuardSettings> = {},
	checks: { noServerErrors?: boolean } = {},
): void {
	let current: Harness | null = null;
	beforeEach(async () => {
		current = await startHeadless(overrides);
		use(current);
	});
	afterEach(async () => {
		const errors = current?.errors ?? [];
		await current?.close();
		current = null;
		// Checked after closing, so a failing test still releases its port and folder.
		if (checks.noServerErrors) expect(errors).toEqual([]);
	});
}
