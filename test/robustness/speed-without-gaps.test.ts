/**
 * Issue 13 made the headless write step, the watcher, the read cache and the conflict log faster; these races keep
 * each shortcut from costing a guarantee (data safety and confinement). Most were found by a review and failed before
 * their fix: a write following a note moved during its read, a later attempt not checking the file it opened, the
 * watcher spending another program's event for ours, the cache serving through a folder swapped for a symlink, and
 * a log line replayed over a newer snapshot.
 */
import fs from "fs";
import { mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, symlink, writeFile } from "fs/promises";
import { syncBuiltinESMExports } from "module";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ConflictRecord } from "../../src/core/conflicts";
import { ConflictLog } from "../../src/service/stores/conflict-log";
import { nodeTimers } from "../../src/headless/node-timers";
import { CONFLICT_LOG_FILE } from "../../src/service/conflicts/conflict-journal";
import { openRevisionGuard, type RevisionGuard } from "../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../src/settings";
import { VaultPathError } from "../../src/vault/errors";
import type { StateStorage } from "../../src/vault/gateway";
import { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import { startHeadless, type Harness } from "../helpers/headless-harness";
import { MemoryGateway, MemoryStorage } from "../helpers/memory-gateway";
import { writeRequest } from "../helpers/write-request";
import { onNoteWriteStep } from "../helpers/write-step-hook";
import { watchFolder } from "../vault/folder-watcher-harness";

const write = (content: string) => () => ({ kind: "write" as const, content, result: null });
/** Long enough for a note's change time to count as settled (note-file.ts RACY_NS), so the read cache keeps it. */
const letSettle = () => new Promise((resolve) => setTimeout(resolve, 120));

/**
 * Runs `between` once, right after a read has opened `file` and before it asks /proc which file it opened
 * (read-file.ts imports `readlinkSync` by name, so the builtin's named exports are synced with the spy).
 */
function onceOpenedForReading(file: string, between: () => void): () => void {
	const readlink = fs.readlinkSync.bind(fs) as (path: string) => string;
	let done = false;
	const spy = vi.spyOn(fs, "readlinkSync").mockImplementation(((path: string) => {
		if (done || !String(path).startsWith("/proc/self/fd/") || readlink(path) !== file) return readlink(path);
		done = true;
		between();
		return readlink(path);
	}) as never);
	syncBuiltinESMExports();
	return () => {
		spy.mockRestore();
		syncBuiltinESMExports();
	};
}

describe("the write step's decision read (node-fs-gateway.ts mutate, read-file.ts)", () => {
	let root: string;
	let outside: string;
	let gateway: NodeFsGateway;
	beforeEach(async () => {
		root = await realpath(await mkdtemp(join(tmpdir(), "rg-review-")));
		outside = await realpath(await mkdtemp(join(tmpdir(), "rg-review-out-")));
		gateway = await NodeFsGateway.open(root);
	});
	afterEach(async () => {
		await gateway.close();
		await rm(root, { recursive: true, force: true });
		await rm(outside, { recursive: true, force: true });
	});

	it("a note moved away (to the trash) between the read's open and its /proc check: the write must not follow it there", async () => {
		await writeFile(join(root, "n.md"), "the person's\n");
		await mkdir(join(root, ".trash"));
		// A person deletes the note (a file manager or Obsidian moves it to the trash) just as the agent's write reads it.
		const unhook = onceOpenedForReading(join(root, "n.md"), () =>
			fs.renameSync(join(root, "n.md"), join(root, ".trash/n.md")),
		);
		try {
			await gateway.mutate("n.md", (current) => ({
				kind: "write",
				content: `${current ?? ""}agent's line\n`,
				result: null,
			}));
		} finally {
			unhook();
		}
		// Before issue 13 the target was the resolved NAME: the check saw n.md gone and decided again (a create here).
		expect(await readFile(join(root, ".trash/n.md"), "utf8")).toBe("the person's\n");
	});

	it("through the guarded writer, the same race never answers 'written' with the agent's text put into the trash", async () => {
		const h: Harness = await startHeadless();
		try {
			await writeFile(join(h.dir, "n.md"), "the person's\n");
			await mkdir(join(h.dir, ".trash"), { recursive: true });
			const unhook = onceOpenedForReading(join(h.dir, "n.md"), () =>
				fs.renameSync(join(h.dir, "n.md"), join(h.dir, ".trash/n.md")),
			);
			let outcome;
			try {
				outcome = await h.guard.writer.write(writeRequest("n.md", "the agent's\n", { basedOn: "the person's\n" }));
			} finally {
				unhook();
			}
			const trashed = await readFile(join(h.dir, ".trash/n.md"), "utf8");
			// Either refused (412, body kept) or written to n.md; never "written" into a file the person threw away.
			expect({ kind: outcome.kind, trashed }).not.toEqual({ kind: "written", trashed: "the agent's\n" });
		} finally {
			await h.close();
		}
	});

	it("a note deleted between the read's open and its /proc check is never written as 'n.md (deleted)'", async () => {
		await writeFile(join(root, "n.md"), "the person's\n");
		const unhook = onceOpenedForReading(join(root, "n.md"), () => fs.unlinkSync(join(root, "n.md")));
		try {
			await gateway.mutate("n.md", write("the agent's\n"));
		} finally {
			unhook();
		}
		// The guarded writer refuses this case (a note it saw is gone: stale), so only direct callers of mutate see it.
		expect((await readdir(root)).sort()).toEqual(["n.md"]);
	});

	it("concurrent stale writes to one note each keep their body in a .bak of their own, named by their record", async () => {
		const h: Harness = await startHeadless();
		try {
			await writeFile(join(h.dir, "n.md"), "now\n");
			const bodies = Array.from({ length: 12 }, (_, i) => `agent body ${i}\n`);
			const outcomes = await Promise.all(
				bodies.map((body) => h.guard.writer.write(writeRequest("n.md", body, { basedOn: "old\n" }))),
			);
			const kept = new Map<string, string>();
			for (const outcome of outcomes) {
				if (outcome.kind !== "refused" || outcome.conflict?.backupPath == null)
					throw new Error(`expected a kept refusal, got ${outcome.kind}`);
				kept.set(outcome.conflict.backupPath, await readFile(join(h.dir, outcome.conflict.backupPath), "utf8"));
			}
			expect(kept.size).toBe(bodies.length);
			expect([...kept.values()].sort()).toEqual([...bodies].sort());
		} finally {
			await h.close();
		}
	});

	it("a later attempt of the write step checks the file it opened too (a folder swapped for a symlink to outside)", async () => {
		await mkdir(join(root, "sub"));
		await writeFile(join(root, "sub/n.md"), "inside\n");
		await writeFile(join(outside, "n.md"), "secret outside the vault\n");
		let swapped = false;
		// At the first write step another program edits the note (so the step decides again) and swaps its folder.
		const unhook = onNoteWriteStep(root, "sub/n.md", async () => {
			if (swapped) return;
			swapped = true;
			await rename(join(root, "sub"), join(root, "sub-old"));
			await symlink(outside, join(root, "sub"));
		});
		const seen: (string | null)[] = [];
		try {
			await gateway
				.mutate("sub/n.md", (current) => {
					seen.push(current);
					return { kind: "write", content: `${current ?? ""}appended\n`, result: null };
				})
				.catch((error: unknown) => expect(error).toBeInstanceOf(VaultPathError));
		} finally {
			unhook();
		}
		expect(swapped).toBe(true);
		expect(seen).not.toContain("secret outside the vault\n");
		expect(await readFile(join(outside, "n.md"), "utf8")).toBe("secret outside the vault\n");
	});

	it("a note whose folder is a symlink to outside is refused at the first attempt, and nothing is written there", async () => {
		await writeFile(join(outside, "n.md"), "secret\n");
		await symlink(outside, join(root, "out"));
		await expect(gateway.mutate("out/n.md", write("pwned"))).rejects.toBeInstanceOf(VaultPathError);
		await expect(gateway.mutate("out/new.md", write("pwned"))).rejects.toBeInstanceOf(VaultPathError);
		expect(await readdir(outside)).toEqual(["n.md"]);
	});

	it("the write decision reads the disk even when the read cache holds the note (same size, same mtime outside edit)", async () => {
		await writeFile(join(root, "n.md"), "aaaa\n");
		await letSettle();
		expect((await gateway.read("n.md"))?.content).toBe("aaaa\n");
		expect((await gateway.read("n.md"))?.content).toBe("aaaa\n");
		const before = fs.statSync(join(root, "n.md"));
		await writeFile(join(root, "n.md"), "bbbb\n");
		fs.utimesSync(join(root, "n.md"), before.atime, before.mtime);
		let decidedOn: string | null = null;
		await gateway.mutate("n.md", (current) => ((decidedOn = current), { kind: "keep", result: null }));
		expect(decidedOn).toBe("bbbb\n");
	});

	it("the read cache does not serve a note through a folder that now is a symlink leading outside", async () => {
		await mkdir(join(root, "sub"));
		await writeFile(join(root, "sub/n.md"), "private\n");
		await letSettle();
		expect((await gateway.read("sub/n.md"))?.content).toBe("private\n");
		// The person moves the folder out of the vault and leaves a symlink in its place (same inode for the note).
		await rename(join(root, "sub"), join(outside, "sub"));
		await symlink(join(outside, "sub"), join(root, "sub"));
		await expect(gateway.read("sub/n.md")).rejects.toBeInstanceOf(VaultPathError);
	});
});

describe("the watcher's own changes (folder-watch-session.ts expectOwnChange)", () => {
	let root: string;
	let gateway: NodeFsGateway;
	let heard: string[];
	let markers = 0;
	beforeEach(async () => {
		root = await realpath(await mkdtemp(join(tmpdir(), "rg-review-w-")));
		gateway = await NodeFsGateway.open(root);
		heard = [];
		gateway.onChange((change) => heard.push(`${change.type} ${change.path}`));
	});
	afterEach(async () => {
		await gateway.close();
		await rm(root, { recursive: true, force: true });
	});
	async function settled(): Promise<void> {
		const marker = `marker-${++markers}.txt`;
		await writeFile(join(root, marker), "m");
		await expect.poll(() => heard, { timeout: 10_000 }).toContain(`create ${marker}`);
	}

	it("a write through a symlinked note announces nothing, so the link's next outside change is reported", async () => {
		await writeFile(join(root, "target.md"), "one\n");
		await symlink(join(root, "target.md"), join(root, "alias.md"));
		await gateway.watching();
		await gateway.mutate("alias.md", write("ours\n"));
		await settled();
		// Another program removes the link (within the 2 s the announcement lasts): that must be reported.
		await rm(join(root, "alias.md"));
		await settled();
		await expect.poll(() => heard, { timeout: 1_000 }).toContain("delete alias.md");
	});

	it("a note written into a new folder before the watcher watches that folder announces nothing: the person's next save is reported", async () => {
		await gateway.watching();
		// The watcher's look at the new folder is slower than our write (deterministic here; a race in real life:
		// the mkdir's event, an lstat and a watch against our temp write, fsync and rename).
		const lstat = fs.lstat.bind(fs) as (...args: unknown[]) => void;
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		const spy = vi.spyOn(fs, "lstat").mockImplementation((...args: unknown[]) => {
			if (String(args[0]) !== join(root, "new")) return lstat(...args);
			void released.then(() => lstat(...args));
		});
		syncBuiltinESMExports();
		try {
			await gateway.mutate("new/n.md", write("ours\n"));
		} finally {
			release();
			spy.mockRestore();
			syncBuiltinESMExports();
		}
		await expect.poll(() => heard, { timeout: 10_000 }).toContain("create new/n.md");
		// The person's editor saves through a temp file and a rename (one event), within the 2 s.
		await writeFile(join(root, "new/.n.md.swp"), "the person's\n");
		await rename(join(root, "new/.n.md.swp"), join(root, "new/n.md"));
		await settled();
		await expect.poll(() => heard, { timeout: 1_000 }).toContain("modify new/n.md");
	});

	it("an outside save right after our write to a plain note is still reported", async () => {
		await writeFile(join(root, "n.md"), "one\n");
		await gateway.watching();
		await gateway.mutate("n.md", write("ours\n"));
		await writeFile(join(root, "n.md"), "the person's\n");
		await settled();
		await expect.poll(() => heard, { timeout: 1_000 }).toContain("modify n.md");
	});
});

describe("the watcher's own changes and the poller (a folder that could not be watched at first)", () => {
	it("no announcement is made for a polled folder: the first outside change once it is watched again is reported", async () => {
		let refusedOnce = false;
		const watch = ((
			path: string,
			options: { persistent: boolean },
			listener: (event: string, filename: string | null) => void,
		) => {
			if (!refusedOnce && path.endsWith("/a")) {
				refusedOnce = true;
				throw Object.assign(new Error("inotify watch limit reached"), { code: "ENOSPC" });
			}
			return fs.watch(path, options, listener);
		}) as never;
		const folder = await watchFolder({ "a/n.md": "one\n" }, { mode: "per-folder", watch, pollMs: 50 });
		try {
			expect(folder.troubles).toHaveLength(1);
			// Our write, exactly as the gateway makes it: announced, then renamed over the note.
			folder.watcher.expectOwnChange("a/n.md");
			await writeFile(join(folder.root, "a/.n.md.rg-tmp-x"), "ours\n");
			await rename(join(folder.root, "a/.n.md.rg-tmp-x"), join(folder.root, "a/n.md"));
			// The poller finds it (an extra report of ours is harmless) and the folder is watched again.
			await folder.hears("modify a/n.md");
			await folder.settled("a");
			const before = folder.heard.filter((line) => line === "modify a/n.md").length;
			// A person's editor saves the note through a temp file and a rename (one event), well within the 2 s an
			// announcement lasts.
			await writeFile(join(folder.root, "a/.n.md.swp"), "the person's\n");
			await rename(join(folder.root, "a/.n.md.swp"), join(folder.root, "a/n.md"));
			await folder.settled("a");
			await expect
				.poll(() => folder.heard.filter((line) => line === "modify a/n.md").length, { timeout: 1_000 })
				.toBeGreaterThan(before);
		} finally {
			await folder.close();
		}
	});
});

const NOW = Date.UTC(2026, 10, 21, 10, 15, 0);

function record(n: number, extra: Partial<ConflictRecord> = {}): ConflictRecord {
	const id = `c-20261121-101500-${String(n).padStart(6, "0")}`;
	return {
		id,
		path: `notes/n${n}.md`,
		reason: "stale",
		sentRevision: "s".repeat(43),
		currentRevision: "c".repeat(43),
		proposedRevision: "p".repeat(43),
		backupPath: `notes/n${n}.20261121-101500.bak.md`,
		agent: "bot",
		time: new Date(NOW).toISOString(),
		status: "open",
		...extra,
	};
}

async function openGuard(storage: StateStorage): Promise<RevisionGuard> {
	const settings = structuredClone(DEFAULT_SETTINGS);
	return openRevisionGuard({
		gateway: new MemoryGateway({ "a.md": "now\n" }),
		storage,
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => NOW,
	});
}

describe("the conflict journal (conflict-journal.ts)", () => {
	it("a crash between a size-triggered snapshot and the log's removal never brings back an older state of a record", async () => {
		const storage = new MemoryStorage();
		const guard = await openGuard(storage);
		guard.conflicts.add(record(1));
		await guard.persistence.conflictsSaved();
		expect(storage.files.get(CONFLICT_LOG_FILE)).toContain(record(1).id);
		// In one burst: record 1 is dismissed, and enough new records arrive that the group commit compacts instead of
		// appending. The crash comes after the snapshot is written, before the log is removed.
		guard.resolver.dismiss(record(1).id);
		for (let n = 2; n <= 250; n++) guard.conflicts.add(record(n));
		storage.remove = () => Promise.reject(new Error("crashed here"));
		await guard.persistence.conflictsSaved().catch(() => undefined);
		expect(guard.conflicts.get(record(1).id)?.status).toBe("dismissed");

		const after = await openGuard(Object.assign(new MemoryStorage(), { files: storage.files }));
		expect(after.conflicts.get(record(1).id)?.status).toBe("dismissed");
	});

	it("replaying the log in order over an older snapshot gives the latest state of each record", () => {
		const log = new ConflictLog();
		const changes: unknown[] = [];
		log.onSave((change) => changes.push(JSON.parse(JSON.stringify(change))));
		log.add(record(1));
		log.setStatus(record(1).id, "dismissed", new Date(NOW).toISOString());
		log.rename(record(1).path, "moved.md");
		const replayed = ConflictLog.fromSnapshot(null);
		replayed.replay(changes);
		expect(replayed.get(record(1).id)).toEqual(log.get(record(1).id));
	});
});
