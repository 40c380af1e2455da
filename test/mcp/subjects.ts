/**
 * The real server over BOTH gateways (a plain folder and the Obsidian gateway on the stub), with the edits a person
 * or another program makes arriving the way each gateway sees them.
 */
import { mkdir, writeFile } from "fs/promises";
import { dirname, join } from "path";
import type { RevisionGuard } from "../../src/host/revision-guard";
import type { RevisionGuardSettings } from "../../src/settings";
import { afterEach, beforeEach, expect } from "vitest";
import { startHeadless, TEST_KEY } from "../helpers/headless-harness";
import { startObsidian } from "../helpers/obsidian-harness";
import { connect, type Connected } from "./mcp-client";
import type { App } from "../obsidian-stub";

export interface Subject {
	dir: string;
	port: number;
	guard: RevisionGuard;
	settings: RevisionGuardSettings;
	/** Creates a note (parents included) as the person would. */
	create(path: string, content: string): Promise<void>;
	/** The person's (or another program's) edit of an existing note. */
	edit(path: string, content: string): Promise<void>;
	/** Creates a folder (parents included) as the person would. */
	folder(path: string): Promise<void>;
	/** Resolves once the host's index has taken in every change so far (Obsidian's metadata cache lags; headless has none to wait for). */
	indexed(): Promise<void>;
	/** Unexpected errors the server reported (headless only; the Obsidian harness does not collect them). */
	errors: unknown[];
	/** The Obsidian stub app (null headless), to open editors and add commands. */
	app: App | null;
	close(): Promise<void>;
}

export const SUBJECTS: Record<string, (overrides?: Partial<RevisionGuardSettings>) => Promise<Subject>> = {
	"node filesystem": async (overrides) => {
		const h = await startHeadless(overrides);
		const put = async (path: string, content: string) => {
			await mkdir(dirname(join(h.dir, path)), { recursive: true });
			await writeFile(join(h.dir, path), content);
		};
		const folder = async (path: string) => void (await mkdir(join(h.dir, path), { recursive: true }));
		return {
			dir: h.dir,
			port: h.port,
			guard: h.guard,
			settings: h.settings,
			create: put,
			edit: put,
			folder,
			indexed: () => Promise.resolve(),
			errors: h.errors,
			app: null,
			close: h.close,
		};
	},
	obsidian: async (overrides) => {
		const h = await startObsidian(overrides);
		const { vault } = h.app;
		const folder = async (path: string) => {
			const parts = path.split("/");
			for (let depth = 1; depth <= parts.length; depth++) {
				const prefix = parts.slice(0, depth).join("/");
				if (!vault.getFolderByPath(prefix)) await vault.createFolder(prefix);
			}
		};
		return {
			dir: h.dir,
			port: h.port,
			guard: h.guard,
			settings: h.settings,
			async create(path, content) {
				if (path.includes("/")) await folder(path.slice(0, path.lastIndexOf("/")));
				await vault.create(path, content);
			},
			folder,
			indexed: () => h.app.metadataCache.settled(),
			errors: [],
			app: h.app,
			edit: (path, content) => vault.modify(vault.getFileByPath(path)!, content),
			close: h.close,
		};
	},
};

export const SUBJECT_NAMES = Object.keys(SUBJECTS);

/**
 * For each test: a fresh stack of gateway `name` holding `notes`, and an MCP client on it, handed to `use` (tests
 * keep `let s` and `let mcp`); closed after the test, which fails if the server reported an error.
 */
export function eachMcpSubject(
	name: string,
	notes: Record<string, string>,
	use: (subject: Subject, mcp: Connected) => void,
): void {
	let subject: Subject;
	let mcp: Connected;
	beforeEach(async () => {
		subject = await SUBJECTS[name]!();
		for (const [path, content] of Object.entries(notes)) await subject.create(path, content);
		mcp = await connect(subject.port, TEST_KEY);
		use(subject, mcp);
	});
	afterEach(async () => {
		expect(subject.errors).toEqual([]);
		await mcp.close();
		await subject.close();
	});
}
