/**
 * History-checking stress test of "no write is ever silently lost", against the real HTTP server over BOTH gateways:
 * 32 writers × 20 rounds each read the note, append a unique line and send it back with the token they read, while
 * an outside editor appends its own lines in bursts a few milliseconds apart (headless, also in the middle of the
 * gateway's write step, where a plain folder is most exposed). Every attempt is logged and the whole history is
 * checked (see test/helpers/write-history.ts). A negative control runs the same harness and the same checker against
 * a guard that checks outside the atomic step, and must be caught.
 */
import { readFileSync, renameSync, writeFileSync } from "fs";
import { mkdtemp, readFile, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, describe, expect, it } from "vitest";
import { nodeTimers } from "../../src/headless/node-timers";
import { writeRequest } from "../helpers/write-request";
import { openRevisionGuard, type RevisionGuard } from "../../src/host/revision-guard";
import { DEFAULT_SETTINGS, type RevisionGuardSettings } from "../../src/settings";
import type { StateStorage, VaultGateway } from "../../src/vault/gateway";
import { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import { ObsidianGateway } from "../../src/vault/obsidian-gateway";
import { NodeStateStorage } from "../../src/vault/node-state-storage";
import { ObsidianStateStorage } from "../../src/vault/obsidian-state-storage";
import { App } from "../obsidian-stub";
import { startHeadless, TEST_KEY } from "../helpers/headless-harness";
import { keepAliveClient, type KeepAliveClient } from "../helpers/keepalive-client";
import { startObsidian } from "../helpers/obsidian-harness";
import {
	checkHistory,
	runStress,
	type AttemptOutcome,
	type Outside,
	type OutsideEditor,
	type WriteHistory,
	type WriterTransport,
} from "../helpers/write-history";
import { onNoteWriteStep } from "../helpers/write-step-hook";
import { CheckOutsideTheAtomicStep, withoutWriterLock } from "./broken-guard";
import { agentActor } from "../../src/service/notes/actor";

const NOTE = "Note.md";
const INITIAL = "# Shared note\n";
// Outside edits come in bursts of 5, 2 ms apart; headless, every 2nd write step of the note also gets one mid-write.
const OPTIONS = { writers: 32, rounds: 20, outsideBurst: 5, outsideEveryMs: 2, midWriteEvery: 2 };

interface Subject {
	dir: string;
	/** The writers' way in: one keep-alive connection per writer to the real server, or a writer driven directly. */
	transport: WriterTransport;
	outside: Outside;
	/** Errors the server reported as 500s (headless only; the Obsidian harness has no error hook). */
	serverErrors: () => unknown[];
	close: () => Promise<void>;
}

/** The real API, one keep-alive connection per writer. */
function httpTransport(port: number, writers: number): { transport: WriterTransport; close: () => void } {
	const clients: KeepAliveClient[] = Array.from({ length: writers }, () =>
		keepAliveClient(port, { Authorization: `Bearer ${TEST_KEY}` }),
	);
	const path = `/vault/${NOTE}`;
	return {
		transport: {
			async read(writer) {
				const answer = await clients[writer]!.call("GET", path);
				if (answer.status !== 200) throw new Error(`GET answered ${answer.status}: ${answer.text}`);
				return { token: unquote(answer.headers.etag), content: answer.text };
			},
			async write(writer, base, body): Promise<AttemptOutcome> {
				const answer = await clients[writer]!.call("PUT", path, {
					body,
					headers: { "If-Match": `"${base}"`, "Content-Type": "text/markdown" },
				});
				if (answer.status === 204) return { kind: "ok", token: unquote(answer.headers.etag) };
				if (answer.status === 412) {
					const problem = JSON.parse(answer.text) as { type?: string; backupPath?: string | null };
					if (problem.type === "/problems/stale-revision")
						return { kind: "refused", backupPath: problem.backupPath ?? null };
				}
				return { kind: "other", detail: `${answer.status} ${answer.text.slice(0, 300)}` };
			},
		},
		close: () => clients.forEach((client) => client.close()),
	};
}

function unquote(etag: string | string[] | undefined): string {
	if (typeof etag !== "string" || !/^"[^"]*"$/.test(etag)) throw new Error(`not a strong ETag: ${String(etag)}`);
	return etag.slice(1, -1);
}

/**
 * Another program editing the folder: it reads the note and replaces it (temp file + rename, as editors save) in one
 * synchronous step, so its own read-modify-write is whole; whether the server's writes respect it is what is tested.
 */
function diskEditor(dir: string): OutsideEditor {
	const file = join(dir, NOTE);
	const temp = join(dir, `.${NOTE}.outside-editor`);
	return async (line) => {
		const before = readFileSync(file, "utf8");
		const after = before + line;
		writeFileSync(temp, after);
		renameSync(temp, file);
		return { before, after };
	};
}

/** The person typing in Obsidian: an atomic `Vault.process` through the stub. */
function obsidianEditor(app: App): OutsideEditor {
	return async (line) => {
		let before = "";
		const file = app.vault.getFileByPath(NOTE);
		if (!file) throw new Error("the note is gone");
		const after = await app.vault.process(file, (data) => {
			before = data;
			return data + line;
		});
		return { before, after };
	};
}

const realSubjects: Record<string, () => Promise<Subject>> = {
	"node filesystem": async () => {
		const h = await startHeadless();
		writeFileSync(join(h.dir, NOTE), INITIAL);
		const http = httpTransport(h.port, OPTIONS.writers);
		return {
			dir: h.dir,
			transport: http.transport,
			outside: { edit: diskEditor(h.dir), midWrite: (hook) => onNoteWriteStep(h.dir, NOTE, hook) },
			serverErrors: () => h.errors,
			close: async () => {
				http.close();
				await h.close();
			},
		};
	},
	obsidian: async () => {
		const h = await startObsidian();
		await h.app.vault.create(NOTE, INITIAL);
		const http = httpTransport(h.port, OPTIONS.writers);
		return {
			dir: h.dir,
			transport: http.transport,
			// Vault.process writes synchronously after the check: there is no "middle of the write" to land in.
			outside: { edit: obsidianEditor(h.app) },
			serverErrors: () => [],
			close: async () => {
				http.close();
				await h.close();
			},
		};
	},
};

/** The same writers, driven straight into the broken guard's lock-free writer (no HTTP needed to show the bug). */
function brokenTransport(guard: RevisionGuard): WriterTransport {
	const write = withoutWriterLock(guard.writer);
	return {
		async read() {
			const snapshot = await guard.gateway.read(NOTE);
			if (!snapshot) throw new Error("the note is gone");
			return { token: await guard.tracker.served(snapshot), content: snapshot.content };
		},
		async write(writer, base, body): Promise<AttemptOutcome> {
			const outcome = await write(writeRequest(NOTE, body, { revision: base, actor: agentActor(`writer-${writer}`) }));
			if (outcome.kind === "written") return { kind: "ok", token: outcome.revision };
			if (outcome.kind === "refused" && outcome.refusal.reason === "stale")
				return { kind: "refused", backupPath: outcome.conflict?.backupPath ?? null };
			return { kind: "other", detail: outcome.kind };
		},
	};
}

async function brokenGuard(gateway: VaultGateway, storage: StateStorage): Promise<RevisionGuard> {
	const settings: RevisionGuardSettings = {
		...structuredClone(DEFAULT_SETTINGS),
		keys: [{ name: "test-agent", key: TEST_KEY, created: "2026-01-01" }],
	};
	return openRevisionGuard({
		gateway: new CheckOutsideTheAtomicStep(gateway),
		storage,
		settings: () => settings,
		configDir: ".obsidian",
		privateFolders: [".revision-guard"],
		timers: nodeTimers,
		coalesceMs: 20,
		persistDebounceMs: 20,
	});
}

const brokenSubjects: Record<string, () => Promise<Subject>> = {
	"node filesystem": async () => {
		const folder = await mkdtemp(join(tmpdir(), "rg-broken-"));
		const inner = await NodeFsGateway.open(folder);
		writeFileSync(join(inner.root, NOTE), INITIAL);
		const guard = await brokenGuard(inner, new NodeStateStorage(join(inner.root, ".revision-guard")));
		return {
			dir: inner.root,
			transport: brokenTransport(guard),
			outside: { edit: diskEditor(inner.root), midWrite: (hook) => onNoteWriteStep(inner.root, NOTE, hook) },
			serverErrors: () => [],
			close: async () => {
				await guard.close();
				await inner.close();
				await rm(folder, { recursive: true, force: true });
			},
		};
	},
	obsidian: async () => {
		const folder = await mkdtemp(join(tmpdir(), "rg-broken-obsidian-"));
		const app = new App(folder);
		await app.vault.create(NOTE, INITIAL);
		const cleanups: (() => void)[] = [];
		const inner = new ObsidianGateway(
			app as unknown as ObsidianApp,
			(cleanup) => cleanups.push(cleanup),
			async () => undefined,
		);
		const storage = new ObsidianStateStorage(
			app.vault.adapter as unknown as ObsidianApp["vault"]["adapter"],
			`${app.vault.configDir}/plugins/revision-guard`,
		);
		const guard = await brokenGuard(inner, storage);
		return {
			dir: folder,
			transport: brokenTransport(guard),
			outside: { edit: obsidianEditor(app) },
			serverErrors: () => [],
			close: async () => {
				await guard.close();
				for (const cleanup of cleanups) cleanup();
				await rm(folder, { recursive: true, force: true });
			},
		};
	},
};

/** Runs the stress harness on a subject and returns the full history, ready for the checker. */
async function stress(subject: Subject): Promise<{ history: WriteHistory; midWriteEdits: number }> {
	const { midWriteEdits, ...run } = await runStress(subject.transport, subject.outside, OPTIONS);
	const backups = new Map<string, Buffer | null>();
	for (const attempt of run.attempts) {
		if (attempt.outcome.kind === "refused" && attempt.outcome.backupPath !== null) {
			backups.set(
				attempt.outcome.backupPath,
				await readFile(join(subject.dir, attempt.outcome.backupPath)).catch(() => null),
			);
		}
	}
	return {
		history: { initial: INITIAL, ...run, final: await readFile(join(subject.dir, NOTE), "utf8"), backups },
		midWriteEdits,
	};
}

function count(history: WriteHistory, kind: AttemptOutcome["kind"]): number {
	return history.attempts.filter((attempt) => attempt.outcome.kind === kind).length;
}

function summary(history: WriteHistory, midWriteEdits: number): string {
	return `${history.attempts.length} attempts: ${count(history, "ok")} accepted, ${count(history, "refused")} refused; ${history.outsideEdits.length} outside edits (${midWriteEdits} in the middle of a write step)`;
}

let open: Subject | null = null;
afterEach(async () => {
	await open?.close();
	open = null;
});

describe.each(Object.keys(realSubjects))("concurrent writers over the %s gateway", (name) => {
	it(
		"loses no write: one chain of accepted changes, every line once and in order, every refusal kept as its .bak",
		{ timeout: 120_000 },
		async () => {
			open = await realSubjects[name]!();
			const { history, midWriteEdits } = await stress(open);
			const violations = checkHistory(history);
			expect(violations.slice(0, 20), `${summary(history, midWriteEdits)}; ${violations.length} violations`).toEqual(
				[],
			);
			expect(open.serverErrors()).toEqual([]);
			// The run must have exercised both outcomes and interleaved the outside editor with the writers.
			expect(history.attempts).toHaveLength(OPTIONS.writers * OPTIONS.rounds);
			expect(count(history, "ok")).toBeGreaterThanOrEqual(3);
			expect(count(history, "refused")).toBeGreaterThanOrEqual(100);
			expect(history.outsideEdits.length).toBeGreaterThanOrEqual(5 * OPTIONS.outsideBurst);
			if (open.outside.midWrite) expect(midWriteEdits).toBeGreaterThan(0);
		},
	);
});

describe.each(Object.keys(brokenSubjects))("negative control over the %s gateway", (name) => {
	it("catches the lost updates of a guard that checks outside the atomic step", { timeout: 120_000 }, async () => {
		open = await brokenSubjects[name]!();
		const { history, midWriteEdits } = await stress(open);
		const violations = checkHistory(history);
		expect(violations.length, summary(history, midWriteEdits)).toBeGreaterThan(0);
		expect(
			violations.some((violation) => violation.includes("lost update") || violation.includes("overwrote another")),
		).toBe(true);
	});
});
