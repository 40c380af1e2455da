/**
 * A host listens before its start-up reconcile is done, and until then answers "starting up, retry" to every request
 * about notes (REST: 503 starting-up with Retry-After; MCP: a JSON-RPC error over a 503), never a token: the note
 * below was edited while the host was down, so the revision history it stored is out of date until the reconcile
 * has looked. Once ready, the edit is detected and the token is the note's own. Over both gateways: a plain folder
 * (the headless host) and the Obsidian simulation (the plugin).
 */
import { mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { revisionOf } from "../../src/core/revision";
import { yieldVia } from "../../src/core/steps";
import { openFolder, openFolderGuard } from "../../src/headless/folder-guard";
import { nodeTimers } from "../../src/headless/node-timers";
import { startHost } from "../../src/host/start-host";
import { ApiListener } from "../../src/http/listener";
import { openRevisionGuard, type RevisionGuard } from "../../src/host/revision-guard";
import { DEFAULT_SETTINGS, type RevisionGuardSettings } from "../../src/settings";
import type { VaultGateway } from "../../src/vault/gateway";
import { ObsidianGateway } from "../../src/vault/obsidian-gateway";
import { ObsidianStateStorage } from "../../src/vault/obsidian-state-storage";
import { deferred } from "../helpers/deferred";
import { TEST_KEY } from "../helpers/headless-harness";
import { call } from "../helpers/http-client";
import { App } from "../obsidian-stub";

interface Opened {
	gateway: VaultGateway;
	open: () => Promise<RevisionGuard>;
	close: () => Promise<void>;
}

/** How each host opens its vault, as serve.ts and main.ts do. */
const GATEWAYS: { name: string; open: (dir: string, settings: RevisionGuardSettings) => Promise<Opened> }[] = [
	{
		name: "headless host (Node gateway)",
		async open(dir, settings) {
			const folder = await openFolder(dir);
			return {
				gateway: folder.gateway,
				open: () => openFolderGuard(folder, () => settings),
				close: () => folder.gateway.close(),
			};
		},
	},
	{
		name: "plugin (Obsidian gateway, simulated)",
		async open(dir, settings) {
			const app = new App(dir);
			const obsidian = app as unknown as ObsidianApp;
			const cleanups: (() => void)[] = [];
			const gateway = new ObsidianGateway(obsidian, (cleanup) => cleanups.push(cleanup), yieldVia(nodeTimers));
			app.workspace.triggerLayoutReady();
			return {
				gateway,
				open: () =>
					openRevisionGuard({
						gateway,
						storage: new ObsidianStateStorage(obsidian.vault.adapter, `${app.vault.configDir}/plugins/revision-guard`),
						settings: () => settings,
						configDir: app.vault.configDir,
						changeSource: { kind: "user" },
						timers: nodeTimers,
					}),
				close: async () => {
					for (const cleanup of cleanups) cleanup();
				},
			};
		},
	},
];

let dir: string;
let settings: RevisionGuardSettings;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-start-host-"));
	settings = {
		...structuredClone(DEFAULT_SETTINGS),
		port: 0,
		keys: [{ name: "test-agent", key: TEST_KEY, created: "2026-01-01" }],
	};
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(dir, { recursive: true, force: true });
});

/** Starts a host over `opened`; `hold` keeps its reconcile from listing the notes until it resolves. */
function start(opened: Opened, hold?: Promise<void>, stopped = () => false) {
	const listing = deferred();
	// The listener the host made: the one whose listen was called (its port is known once listening).
	const listen = vi.spyOn(ApiListener.prototype, "listen");
	const listNotes = opened.gateway.listNotes.bind(opened.gateway);
	vi.spyOn(opened.gateway, "listNotes").mockImplementation(async (extensions) => {
		listing.release();
		await hold;
		return listNotes(extensions);
	});
	const host = startHost({
		settings: () => settings,
		saveSettings: async () => undefined,
		openGuard: opened.open,
		warn: () => undefined,
		onError: (error) => {
			throw error;
		},
		stopped,
	});
	return { host, listing: listing.promise, port: () => (listen.mock.contexts[0] as ApiListener).port! };
}

const auth = { Authorization: `Bearer ${TEST_KEY}` };

describe.each(GATEWAYS)("a host starting: $name", ({ open }) => {
	it("answers 503 starting-up with Retry-After until the reconcile is done, never a token; then the edit made while it was down is detected", async () => {
		const note = join(dir, "a.md");
		await writeFile(note, "written before\n");
		const first = await open(dir, settings);
		const before = start(first);
		const firstHost = (await before.host)!;
		const served = await call(before.port(), "/vault/a.md", { headers: auth });
		expect(served.headers.etag).toBe(`"${revisionOf("written before\n")}"`);
		await firstHost.close();
		await first.close();
		vi.restoreAllMocks();

		await writeFile(note, "edited while the host was down\n");
		const hold = deferred();
		const second = await open(dir, settings);
		const starting = start(second, hold.promise);
		await starting.listing;
		const port = starting.port();

		const read = await call(port, "/vault/a.md", { headers: auth });
		expect(read.status).toBe(503);
		expect(read.headers["retry-after"]).toBe("1");
		expect(read.headers.etag).toBeUndefined();
		expect(read.json()).toMatchObject({ type: "/problems/starting-up", status: 503 });
		const write = await call(port, "/vault/a.md", {
			method: "PUT",
			headers: { ...auth, "If-Match": served.headers.etag as string, "Content-Type": "text/markdown" },
			body: "an agent's write\n",
		});
		expect(write.status).toBe(503);
		expect(await readFile(note, "utf8")).toBe("edited while the host was down\n");
		const mcp = await call(port, "/mcp", {
			method: "POST",
			headers: { ...auth, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
			body: JSON.stringify({
				jsonrpc: "2.0",
				id: 1,
				method: "initialize",
				params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
			}),
		});
		expect(mcp.status).toBe(503);
		expect(mcp.headers["retry-after"]).toBe("1");
		expect(mcp.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32002 } });
		// What touches no note answers at once; without a key, nothing more than before.
		expect((await call(port, "/")).status).toBe(200);
		expect((await call(port, "/openapi.json", { headers: auth })).status).toBe(200);
		expect((await call(port, "/vault/a.md")).status).toBe(401);

		hold.release();
		const host = (await starting.host)!;
		try {
			expect(host.reconcile.changed).toBe(1);
			const after = await call(port, "/vault/a.md", { headers: auth });
			expect(after.status).toBe(200);
			expect(after.headers.etag).toBe(`"${revisionOf("edited while the host was down\n")}"`);
			expect(host.guard.history.entries("a.md").map((entry) => entry.revision)).toEqual([
				revisionOf("written before\n"),
				revisionOf("edited while the host was down\n"),
			]);
		} finally {
			await host.close();
			await second.close();
		}
	});

	it("lets its port go and resolves null when stopped while it reconciles (the plugin disabled mid-start)", async () => {
		await writeFile(join(dir, "a.md"), "a note\n");
		const hold = deferred();
		let stopped = false;
		const opened = await open(dir, settings);
		const starting = start(opened, hold.promise, () => stopped);
		await starting.listing;
		const port = starting.port();
		expect((await call(port, "/vault/a.md", { headers: auth })).status).toBe(503);
		stopped = true;
		hold.release();
		expect(await starting.host).toBeNull();
		await expect(call(port, "/")).rejects.toThrow();
		await opened.close();
	});
});
