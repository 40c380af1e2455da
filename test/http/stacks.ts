/**
 * The real stack (guard + HTTP server) over either gateway, on a folder the caller owns, with settings and a clock
 * set from the start: restarts on the same folder and clocked read windows need both, over both gateways alike.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import type { RevisionGuard } from "../../src/host/revision-guard";
import type { ProposalSink } from "../../src/service/proposals/proposal-sink";
import type { AgentKey, RevisionGuardSettings } from "../../src/settings";
import { startHeadless, TEST_KEY } from "../helpers/headless-harness";
import type { call, CallOptions } from "../helpers/http-client";
import { startObsidian } from "../helpers/obsidian-harness";
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
	/** Where the API listens (for MCP clients). */
	port: number;
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
	/** Where changes a key may only propose go (tests give a fake; null: the host takes none; absent: its own store). */
	proposals?: ProposalSink | null;
}

export type StartStack = (dir: string, options?: StackOptions) => Promise<Stack>;

const fileAt = (dir: string) => (path: string) => readFile(join(dir, path), "utf8").catch(() => null);

export const STACKS: Record<"node filesystem" | "obsidian", StartStack> = {
	"node filesystem": async (dir, options = {}) => {
		const h = await startHeadless({ keys: TWO_KEYS, ...options.settings }, dir, {
			...(options.now ? { now: options.now } : {}),
			...(options.proposals !== undefined ? { proposals: options.proposals } : {}),
		});
		return {
			dir,
			port: h.port,
			guard: h.guard,
			api: h.api,
			edit: (path, content) => writeVaultFile(dir, path, content),
			file: fileAt(dir),
			app: null,
			close: h.close,
		};
	},
	obsidian: async (dir, options = {}) => {
		const h = await startObsidian({ keys: TWO_KEYS, ...options.settings }, dir, {
			...(options.now ? { now: options.now } : {}),
			...(options.proposals !== undefined ? { proposals: options.proposals } : {}),
		});
		const { app } = h;
		return {
			dir,
			port: h.port,
			guard: h.guard,
			api: h.api,
			async edit(path, content) {
				const file = app.vault.getFileByPath(path);
				if (file) await app.vault.modify(file, content);
				else await app.vault.create(path, content);
			},
			file: fileAt(dir),
			app,
			close: h.close,
		};
	},
};
