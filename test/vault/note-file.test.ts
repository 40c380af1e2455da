import { execFileSync } from "child_process";
import fs from "fs";
import { mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NoteEncodingError, VaultPathError } from "../../src/vault/errors";
import { readForDecision, releaseSeen, stillAsSeen } from "../../src/vault/note-file";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-note-file-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("readForDecision", () => {
	it("reads the text and the identity of one file, and null for a missing one", async () => {
		await writeFile(join(dir, "a.md"), "text\n");
		const seen = await readForDecision("a.md", join(dir, "a.md"));
		expect(seen.content).toBe("text\n");
		expect(seen.stats?.size).toBe(5n);
		expect((await readForDecision("b.md", join(dir, "b.md"))).content).toBeNull();
	});

	it("refuses bytes that are not UTF-8, and paths that are not files", async () => {
		await writeFile(join(dir, "latin1.md"), Buffer.from([0xe9, 0x0a]));
		await expect(readForDecision("latin1.md", join(dir, "latin1.md"))).rejects.toBeInstanceOf(NoteEncodingError);
		await expect(readForDecision("sub", dir)).rejects.toMatchObject({ reason: "folder-in-the-way" });
		await writeFile(join(dir, "file"), "x");
		await expect(readForDecision("file/a.md", join(dir, "file/a.md"))).rejects.toBeInstanceOf(VaultPathError);
	});
});

describe("a decision read holds its descriptor until released", () => {
	it("compares a note read a moment ago byte for byte through it: a same-size edit with its times put back is seen", async () => {
		const file = join(dir, "n.md");
		await writeFile(file, "version A\n");
		const seen = await readForDecision("n.md", file);
		try {
			if (process.platform !== "win32") expect(seen.fd).toEqual(expect.any(Number));
			expect(stillAsSeen(file, seen)).toBe(true);
			const times = join(dir, "times");
			await writeFile(times, "");
			execFileSync("touch", ["-r", file, times]);
			fs.writeFileSync(file, "version B\n");
			execFileSync("touch", ["-r", times, file]);
			// Same inode, size and mtime; only the bytes (and, on most kernels, the ctime) tell.
			expect(
				stillAsSeen(file, { ...seen, stats: { ...seen.stats!, ctimeNs: fs.statSync(file, { bigint: true }).ctimeNs } }),
			).toBe(false);
		} finally {
			releaseSeen(seen);
		}
		expect(seen.fd).toBeNull();
	});

	it("closes it when the note is not UTF-8 (nothing is left open)", async () => {
		await writeFile(join(dir, "latin1.md"), Buffer.from([0xe9, 0x0a]));
		const close = vi.spyOn(fs, "close");
		await expect(readForDecision("latin1.md", join(dir, "latin1.md"))).rejects.toBeInstanceOf(NoteEncodingError);
		expect(close).toHaveBeenCalled();
		close.mockRestore();
	});
});

describe("stillAsSeen", () => {
	it("trusts an unchanged stat for a settled file, without reading it", async () => {
		const file = join(dir, "a.md");
		await writeFile(file, "one\n");
		const seen = await readForDecision("a.md", file);
		// Read long after its last change, so its stat cannot hide an edit; different bytes under the same stat are
		// then not looked for (this is the constant-time path).
		const settled = { ...seen, readAtNs: seen.stats!.ctimeNs + 10_000_000_000n, bytes: Buffer.from("two\n") };
		expect(stillAsSeen(file, settled)).toBe(true);
	});

	it("compares bytes for a file read within moments of its last change (a same-tick edit keeps its stat)", async () => {
		const file = join(dir, "a.md");
		await writeFile(file, "one\n");
		const seen = await readForDecision("a.md", file);
		expect(stillAsSeen(file, seen)).toBe(true);
		expect(stillAsSeen(file, { ...seen, bytes: Buffer.from("two\n") })).toBe(false);
	});

	it("compares bytes for longer on a file system whose times are whole seconds (their tick hides more)", async () => {
		const file = join(dir, "a.md");
		await writeFile(file, "one\n");
		const seen = await readForDecision("a.md", file);
		// The file as a 1-second file system shows it: whole-second times, read 2 s after its last change.
		const whole = (ns: bigint) => ns - (ns % 1_000_000_000n);
		const stats = fs.statSync(file, { bigint: true });
		const coarse = Object.assign(stats, { mtimeNs: whole(stats.mtimeNs), ctimeNs: whole(stats.ctimeNs) });
		vi.spyOn(fs, "statSync").mockReturnValue(coarse);
		const readLater = { ...seen, stats: coarse, readAtNs: coarse.ctimeNs + 2_000_000_000n };
		expect(stillAsSeen(file, { ...readLater, bytes: Buffer.from("one\n") })).toBe(true);
		expect(stillAsSeen(file, { ...readLater, bytes: Buffer.from("two\n") })).toBe(false);
		vi.restoreAllMocks();
	});

	it("sees an in-place edit, a replacement, a deletion and a file that appeared", async () => {
		const file = join(dir, "a.md");
		await writeFile(file, "one\n");
		const seen = await readForDecision("a.md", file);
		await writeFile(file, "two\n");
		expect(stillAsSeen(file, seen)).toBe(false);
		await rm(file);
		expect(stillAsSeen(file, seen)).toBe(false);
		const missing = await readForDecision("a.md", file);
		expect(stillAsSeen(file, missing)).toBe(true);
		await writeFile(file, "new\n");
		expect(stillAsSeen(file, missing)).toBe(false);
	});
});
