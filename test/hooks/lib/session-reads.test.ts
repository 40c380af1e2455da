import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, openSessionReads, StateFolderError } from "../../../hooks/lib/session-reads.mjs";

let base: string;
let root: string;

beforeEach(async () => {
	base = await mkdtemp(join(tmpdir(), "rg-session-reads-"));
	root = join(base, "state");
});

afterEach(async () => {
	await rm(base, { recursive: true, force: true });
});

const sessionFolders = async () => (await readdir(root)).filter((name) => /^[0-9a-f]{32}$/.test(name));

describe("openSessionReads", () => {
	it("remembers, replaces and forgets a note's read, apart for each session", async () => {
		const one = await openSessionReads(root, "session-1");
		const two = await openSessionReads(root, "session-2");
		expect(await one.get("Plan.md")).toBeNull();
		await one.remember("Plan.md", { revision: "rev-a", part: true });
		expect(await one.get("Plan.md")).toEqual({ revision: "rev-a", part: true });
		expect(await two.get("Plan.md")).toBeNull();
		await one.remember("Plan.md", { revision: "rev-b", part: false });
		expect(await (await openSessionReads(root, "session-1")).get("Plan.md")).toEqual({
			revision: "rev-b",
			part: false,
		});
		await one.forget("Plan.md");
		expect(await one.get("Plan.md")).toBeNull();
	});

	it("keeps its folders private (0700) and its records readable by the user alone (0600)", async () => {
		const reads = await openSessionReads(root, "session-1");
		await reads.remember("Plan.md", { revision: "rev-a", part: false });
		expect((await stat(root)).mode & 0o777).toBe(0o700);
		const [session] = await sessionFolders();
		expect((await stat(join(root, session!))).mode & 0o777).toBe(0o700);
		const [record] = await readdir(join(root, session!));
		expect((await stat(join(root, session!, record!))).mode & 0o777).toBe(0o600);
	});

	it("refuses a state folder others may read or write, and a link in its place", async () => {
		await mkdir(root, { mode: 0o755 });
		await chmod(root, 0o755);
		await expect(openSessionReads(root, "s")).rejects.toBeInstanceOf(StateFolderError);
		const private_ = join(base, "private");
		await mkdir(private_, { mode: 0o700 });
		await symlink(private_, join(base, "link"), "dir");
		await expect(openSessionReads(join(base, "link"), "s")).rejects.toBeInstanceOf(StateFolderError);
	});

	it("loses no record when many are written at once", async () => {
		const reads = await openSessionReads(root, "session-1");
		const paths = Array.from({ length: 40 }, (_, i) => `Notes/n${i}.md`);
		await Promise.all(paths.map((path) => reads.remember(path, { revision: `rev-${path}`, part: false })));
		for (const path of paths) expect(await reads.get(path)).toEqual({ revision: `rev-${path}`, part: false });
	});

	it("keeps a session's most recent notes within its cap", async () => {
		const reads = await openSessionReads(root, "session-1", { ...DEFAULT_LIMITS, notesPerSession: 3 });
		for (let i = 0; i < 5; i++) {
			await reads.remember(`n${i}.md`, { revision: `r${i}`, part: false });
			// Distinct, increasing times, whatever the file system's clock resolution.
			const [session] = await sessionFolders();
			for (const name of await readdir(join(root, session!))) {
				const record = JSON.parse(await readFile(join(root, session!, name), "utf8")) as { path: string };
				const index = Number(/n(\d+)\.md/.exec(record.path)?.[1]);
				await utimes(join(root, session!, name), 1_000_000 + index, 1_000_000 + index);
			}
		}
		const kept = await Promise.all([0, 1, 2, 3, 4].map(async (i) => (await reads.get(`n${i}.md`)) !== null));
		expect(kept).toEqual([false, false, true, true, true]);
	});

	it("drops old sessions and the oldest beyond the count, but nothing it did not make", async () => {
		await mkdir(root, { recursive: true, mode: 0o700 });
		const foreign = join(root, "keep-me");
		await mkdir(foreign);
		await utimes(foreign, 1000, 1000);
		const limits = { ...DEFAULT_LIMITS, sessions: 3 };
		for (const name of ["old-1", "old-2", "old-3"]) {
			const reads = await openSessionReads(root, name, limits);
			await reads.remember("a.md", { revision: "r", part: false });
		}
		const stale = await sessionFolders();
		// One long idle, two recent but the oldest of what is left.
		await utimes(join(root, stale[0]!), 1000, 1000);
		const recent = Date.now() / 1000;
		await utimes(join(root, stale[1]!), recent - 20, recent - 20);
		await utimes(join(root, stale[2]!), recent - 10, recent - 10);
		await openSessionReads(root, "new-1", limits);
		const left = await sessionFolders();
		expect(left).toHaveLength(3);
		expect(left).not.toContain(stale[0]);
		expect(left).toContain(stale[1]);
		expect(left).toContain(stale[2]);
		await openSessionReads(root, "new-2", limits);
		expect(await sessionFolders()).not.toContain(stale[1]);
		expect((await readdir(root)).includes("keep-me")).toBe(true);
	});

	it("reads a damaged or foreign record as no record", async () => {
		const reads = await openSessionReads(root, "session-1");
		await reads.remember("Plan.md", { revision: "rev-a", part: false });
		const [session] = await sessionFolders();
		const [record] = await readdir(join(root, session!));
		await writeFile(join(root, session!, record!), JSON.stringify({ path: "Other.md", revision: "rev-x" }));
		expect(await reads.get("Plan.md")).toBeNull();
		await writeFile(join(root, session!, record!), "{not json");
		expect(await reads.get("Plan.md")).toBeNull();
	});
});
