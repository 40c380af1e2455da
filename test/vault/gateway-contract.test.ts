// @vitest-environment node
/**
 * The VaultGateway contract (gateway-contract.ts) run for every gateway: the Node folder, the Obsidian gateway on
 * the simulation, and the in-memory fake the service tests rely on. Each factory lays out the vault the way that
 * gateway finds one: files on disk before it opens (Obsidian indexes them as it loads), or the fake's map.
 */
import { mkdir, mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { dirname, join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import { ObsidianGateway } from "../../src/vault/obsidian-gateway";
import { MemoryGateway } from "../helpers/memory-gateway";
import { App, settle } from "../obsidian-stub";
import { runGatewayContract } from "./gateway-contract";

/** Writes `files` under `dir` as another program would; a path ending in "/" is an empty folder. */
async function layOut(dir: string, files: Record<string, string>): Promise<void> {
	for (const [path, content] of Object.entries(files)) {
		if (path.endsWith("/")) await mkdir(join(dir, path), { recursive: true });
		else {
			await mkdir(dirname(join(dir, path)), { recursive: true });
			await writeFile(join(dir, path), content);
		}
	}
}

for (const [name, tempFolder] of [
	["NodeFsGateway", undefined],
	["NodeFsGateway with its temp files in a folder of their own", ".revision-guard/tmp"],
] as const) {
	runGatewayContract(name, {
		async open(files = {}) {
			const dir = await mkdtemp(join(tmpdir(), "rg-contract-node-"));
			await layOut(dir, files);
			const gateway = await NodeFsGateway.open(dir, ".trash", tempFolder);
			return {
				gateway,
				// Its watcher must be ready before a change can be heard; the change itself is reported late (the cases poll).
				settle: () => gateway.watching(),
				writeOutside: (path, content) => layOut(dir, { [path]: content }),
				async close() {
					await gateway.close();
					await rm(dir, { recursive: true, force: true });
				},
			};
		},
	});
}

runGatewayContract("ObsidianGateway on the simulation", {
	async open(files = {}) {
		const dir = await mkdtemp(join(tmpdir(), "rg-contract-obsidian-"));
		await layOut(dir, files);
		const app = new App(dir);
		const cleanups: (() => void)[] = [];
		const gateway = new ObsidianGateway(
			app as unknown as ObsidianApp,
			(cleanup) => void cleanups.push(cleanup),
			async () => undefined,
		);
		// Obsidian has loaded: the start-up flood of create events is over before any case subscribes.
		app.workspace.triggerLayoutReady();
		return {
			gateway,
			// The vault's own events come just after the call; the watcher (for what reaches the disk by the adapter) runs on the simulated clock.
			async settle() {
				await app.clock.runAll();
				await settle();
			},
			async writeOutside(path, content) {
				app.outside.write(path, content);
				await app.clock.runAll();
				await settle();
			},
			async close() {
				for (const cleanup of cleanups) cleanup();
				await rm(dir, { recursive: true, force: true });
			},
		};
	},
});

runGatewayContract("MemoryGateway (the service tests' fake)", {
	async open(files = {}) {
		const gateway = new MemoryGateway(
			Object.fromEntries(Object.entries(files).filter(([path]) => !path.endsWith("/"))),
		);
		for (const path of Object.keys(files)) if (path.endsWith("/")) gateway.folders.add(path.slice(0, -1));
		return {
			gateway,
			settle: async () => undefined,
			writeOutside: async (path, content) => gateway.externalEdit(path, content),
			close: async () => undefined,
		};
	},
});
