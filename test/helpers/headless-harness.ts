/** Builds the real stack (guard + HTTP server) over a temporary folder through the Node filesystem gateway. */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { ApiServer } from "../../src/http/server";
import { openRevisionGuard, type RevisionGuard } from "../../src/service/revision-guard";
import { DEFAULT_SETTINGS, type RevisionGuardSettings } from "../../src/settings";
import { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import { NodeStateStorage } from "../../src/vault/node-state-storage";
import { call, type CallOptions } from "./http-client";

export const TEST_KEY = "test-key-0123456789abcdef0123456789abcdef";

export interface Harness {
	dir: string;
	port: number;
	guard: RevisionGuard;
	gateway: NodeFsGateway;
	settings: RevisionGuardSettings;
	/** Calls the API with the test key. */
	api(path: string, options?: CallOptions): ReturnType<typeof call>;
	close(): Promise<void>;
}

export async function startHeadless(overrides: Partial<RevisionGuardSettings> = {}, dir?: string): Promise<Harness> {
	const folder = dir ?? (await mkdtemp(join(tmpdir(), "rg-vault-")));
	const settings: RevisionGuardSettings = { ...structuredClone(DEFAULT_SETTINGS), keys: [{ name: "test-agent", key: TEST_KEY, created: "2026-01-01" }], ...overrides };
	const gateway = await NodeFsGateway.open(folder);
	const guard = await openRevisionGuard({
		gateway,
		storage: new NodeStateStorage(join(gateway.root, ".revision-guard")),
		settings: () => settings,
		configDir: ".obsidian",
		privateFolders: [".revision-guard"],
		coalesceMs: 20,
		persistDebounceMs: 20,
	});
	guard.tracker.start();
	await gateway.watching();
	const server = new ApiServer({ guard });
	const port = await server.listen(0);
	return {
		dir: gateway.root,
		port,
		guard,
		gateway,
		settings,
		api: (path, options = {}) => call(port, path, { ...options, headers: { Authorization: `Bearer ${TEST_KEY}`, ...options.headers } }),
		async close() {
			await server.close();
			await guard.close();
			await gateway.close();
			if (!dir) await rm(folder, { recursive: true, force: true });
		},
	};
}
