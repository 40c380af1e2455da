import fs from "fs";
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fsyncFolder } from "../../src/vault/folder-sync";

let root: string;
beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "rg-folder-sync-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(root, { recursive: true, force: true });
});

/** Holds every fsync until the test lets it finish, in order; records when each started. */
function holdFsyncs(): { started: number; finishNext: () => void; events: string[] } {
	const held: (() => void)[] = [];
	const control = {
		started: 0,
		events: [] as string[],
		finishNext: () => held.shift()!(),
	};
	vi.spyOn(fs, "fsync").mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
		const number = ++control.started;
		control.events.push(`fsync ${number} started`);
		held.push(() => {
			control.events.push(`fsync ${number} done`);
			callback(null);
		});
	}));
	return control;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("fsyncFolder (group commit)", () => {
	it("answers nobody with an fsync that started before they asked, and shares the next one among all who waited", async () => {
		const fsyncs = holdFsyncs();
		const first = fsyncFolder(root).then(() => fsyncs.events.push("first answered"));
		await flush();
		// Asked while the first fsync is under way: their entries may have come after it started.
		const second = fsyncFolder(root).then(() => fsyncs.events.push("second answered"));
		const third = fsyncFolder(root).then(() => fsyncs.events.push("third answered"));
		await flush();
		expect(fsyncs.started).toBe(1);
		fsyncs.finishNext();
		await first;
		await flush();
		expect(fsyncs.started).toBe(2);
		fsyncs.finishNext();
		await Promise.all([second, third]);
		expect(fsyncs.events).toEqual(["fsync 1 started", "fsync 1 done", "first answered", "fsync 2 started", "fsync 2 done", "second answered", "third answered"]);
	});

	it("starts at once when nothing is under way, and keeps folders apart", async () => {
		const fsyncs = holdFsyncs();
		const other = await mkdtemp(join(tmpdir(), "rg-folder-sync-other-"));
		try {
			const a = fsyncFolder(root);
			const b = fsyncFolder(other);
			await flush();
			expect(fsyncs.started).toBe(2);
			fsyncs.finishNext();
			fsyncs.finishNext();
			await Promise.all([a, b]);
			// Afterwards a new request starts a new fsync of its own.
			const again = fsyncFolder(root);
			await flush();
			expect(fsyncs.started).toBe(3);
			fsyncs.finishNext();
			await again;
		} finally {
			await rm(other, { recursive: true, force: true });
		}
	});

	it("resolves when the folder cannot be opened or fsynced (platforms that cannot fsync a folder)", async () => {
		await expect(fsyncFolder(join(root, "missing"))).resolves.toBeUndefined();
		vi.spyOn(fs, "fsync").mockImplementation(((_fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => callback(Object.assign(new Error("EINVAL"), { code: "EINVAL" }))));
		await expect(fsyncFolder(root)).resolves.toBeUndefined();
		await expect(Promise.all([fsyncFolder(root), fsyncFolder(root), fsyncFolder(root)])).resolves.toHaveLength(3);
	});
});
