import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { compactUtc } from "../../src/core/conflicts";
import { recoverTempFiles } from "../../src/vault/temp-recovery";
import { failFolderFsync, recordFolderFsyncs } from "../helpers/failing-disk";

let root: string;
beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "rg-recover-"));
});
afterEach(async () => {
	vi.restoreAllMocks();
	await rm(root, { recursive: true, force: true });
});

describe("recoverTempFiles", () => {
	it("moves leftover temp files into the recovery folder, keeping paths and bytes, and reports them", async () => {
		await mkdir(join(root, "notes"), { recursive: true });
		await mkdir(join(root, ".revision-guard/bases"), { recursive: true });
		await writeFile(join(root, "notes/.Plan.md.rg-tmp-abc123"), "half a note");
		await writeFile(join(root, ".revision-guard/bases/.x.rg-tmp-def456"), "blob");
		await writeFile(join(root, "notes/Plan.md"), "whole note");
		const later = new Date(Date.now() + 120_000);
		const stamp = compactUtc(later);
		const recovered = await recoverTempFiles(root, join(root, ".revision-guard/recovered"), later);
		expect(recovered.sort()).toEqual([
			`.revision-guard/recovered/${stamp}/.revision-guard/bases/.x.rg-tmp-def456`,
			`.revision-guard/recovered/${stamp}/notes/.Plan.md.rg-tmp-abc123`,
		]);
		expect(
			await readFile(
				join(
					root,
					recovered.find((path) => path.includes("Plan"))!,
				),
				"utf8",
			),
		).toBe("half a note");
		expect(await readdir(join(root, "notes"))).toEqual(["Plan.md"]);
	});

	it("resolves once the moves are on disk: each file's old folder and the recovery folders the whole way down", async () => {
		root = await realpath(root);
		await mkdir(join(root, "notes"), { recursive: true });
		await writeFile(join(root, "notes/.Plan.md.rg-tmp-abc123"), "half a note");
		const later = new Date(Date.now() + 120_000);
		const stamp = compactUtc(later);
		const disk = recordFolderFsyncs();
		await recoverTempFiles(root, join(root, ".revision-guard/recovered"), later);
		const recovered = `.revision-guard/recovered/${stamp}`;
		for (const folder of ["notes", "", ".revision-guard", ".revision-guard/recovered", recovered, `${recovered}/notes`])
			expect(disk.folders()).toContain(join(root, folder));
	});

	it("rejects when the disk fails to make the moves durable (EIO); the files are moved all the same", async () => {
		await writeFile(join(root, ".a.md.rg-tmp-1"), "x");
		const later = new Date(Date.now() + 120_000);
		failFolderFsync("EIO");
		await expect(recoverTempFiles(root, join(root, ".revision-guard/recovered"), later)).rejects.toMatchObject({
			code: "EIO",
		});
		expect(await readFile(join(root, `.revision-guard/recovered/${compactUtc(later)}/.a.md.rg-tmp-1`), "utf8")).toBe(
			"x",
		);
	});

	it("recovers what a crash left in the headless host's temp folder too", async () => {
		await mkdir(join(root, ".revision-guard/tmp"), { recursive: true });
		await writeFile(
			join(root, ".revision-guard/tmp/.Plan.md.rg-tmp-0a1b"),
			"a note's next text, not yet renamed into place",
		);
		const later = new Date(Date.now() + 120_000);
		const recovered = await recoverTempFiles(root, join(root, ".revision-guard/recovered"), later);
		expect(recovered).toEqual([
			`.revision-guard/recovered/${compactUtc(later)}/.revision-guard/tmp/.Plan.md.rg-tmp-0a1b`,
		]);
		expect(await readFile(join(root, recovered[0]!), "utf8")).toBe("a note's next text, not yet renamed into place");
		expect(await readdir(join(root, ".revision-guard/tmp"))).toEqual([]);
	});

	it("leaves already recovered files alone on the next start", async () => {
		await writeFile(join(root, ".a.md.rg-tmp-1"), "x");
		const later = new Date(Date.now() + 120_000);
		expect(await recoverTempFiles(root, join(root, ".revision-guard/recovered"), later)).toHaveLength(1);
		expect(
			await recoverTempFiles(root, join(root, ".revision-guard/recovered"), new Date(later.getTime() + 1000)),
		).toEqual([]);
	});

	it("leaves a fresh temp file alone: it may belong to a write still in progress", async () => {
		await writeFile(join(root, ".b.md.rg-tmp-2"), "in flight");
		expect(await recoverTempFiles(root, join(root, ".revision-guard/recovered"))).toEqual([]);
		expect(await readFile(join(root, ".b.md.rg-tmp-2"), "utf8")).toBe("in flight");
	});
});
