/**
 * Our own writes and .bak notes are not reported back to us as other programs' changes (they cost the watcher no fs
 * call and the tracker no re-read), while every change another program makes, even right after ours, still is.
 */
import fs from "fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import { onNoteWriteStep } from "../helpers/write-step-hook";
import { watchFolder } from "./folder-watcher-harness";

const write = (content: string) => () => ({ kind: "write" as const, content, result: null });

describe("own changes through the Node gateway (a watcher per folder, as on Linux)", () => {
	let root: string;
	let gateway: NodeFsGateway;
	let heard: string[];
	let markers = 0;
	beforeEach(async () => {
		root = await realpath(await mkdtemp(join(tmpdir(), "rg-own-")));
		await mkdir(join(root, "a"));
		await writeFile(join(root, "a/n.md"), "one\n");
		gateway = await NodeFsGateway.open(root);
		heard = [];
		gateway.onChange((change) => heard.push(`${change.type} ${change.path}`));
		await gateway.watching();
	});
	afterEach(async () => {
		await gateway.close();
		await rm(root, { recursive: true, force: true });
	});

	/** Events of one folder arrive in order: once a marker written after them is heard, they were dealt with. */
	async function settled(folder: string): Promise<void> {
		const marker = `${folder}/marker-${++markers}.txt`;
		await writeFile(join(root, marker), "m");
		await expect.poll(() => heard, { timeout: 10_000 }).toContain(`create ${marker}`);
	}

	it("does not report a write of ours nor a .bak we create, and reports other programs' saves to both right after", async () => {
		await gateway.mutate("a/n.md", write("ours\n"));
		expect(await gateway.createExclusive("a/n.2026.bak.md", "refused\n")).toBe(true);
		await settled("a");
		expect(heard.filter((line) => !line.includes("marker-"))).toEqual([]);
		await writeFile(join(root, "a/n.md"), "the person's\n");
		await writeFile(join(root, "a/n.2026.bak.md"), "edited by hand\n");
		await settled("a");
		expect(heard).toEqual(expect.arrayContaining(["modify a/n.md", "modify a/n.2026.bak.md"]));
	});

	it("reports the outside save that made our write step back (nothing of ours was renamed, so nothing was spent)", async () => {
		let saved = false;
		const unhook = onNoteWriteStep(root, "a/n.md", async () => {
			if (saved) return;
			saved = true;
			await writeFile(join(root, "a/n.md"), "the other program's\n");
		});
		try {
			await gateway.mutate("a/n.md", (current) => ({ kind: "write", content: `${current}ours\n`, result: null }));
		} finally {
			unhook();
		}
		await settled("a");
		expect(saved).toBe(true);
		expect(heard).toContain("modify a/n.md");
	});

	it("reports a note another program created under the name we announced, when ours could not be created", async () => {
		// The other program takes the name between our check that it is free and our link into place.
		const link = fs.promises.link.bind(fs.promises);
		const spy = vi.spyOn(fs.promises, "link").mockImplementation(async (from, to) => {
			if (String(to).endsWith("taken.bak.md")) await writeFile(join(root, "a/taken.bak.md"), "someone else's\n");
			return link(from, to);
		});
		try {
			expect(await gateway.createExclusive("a/taken.bak.md", "ours\n")).toBe(false);
		} finally {
			spy.mockRestore();
		}
		await settled("a");
		expect(heard).toContain("create a/taken.bak.md");
	});
});

describe("own changes with a watcher for the whole tree (macOS, Windows)", () => {
	it("are reported like any other: such a watcher may merge another program's save into ours", async () => {
		const folder = await watchFolder({ "n.md": "one\n" }, { mode: "recursive" });
		try {
			folder.watcher.expectOwnChange("n.md");
			await writeFile(join(folder.root, "n.md"), "two\n");
			await folder.hears("modify n.md");
		} finally {
			await folder.close();
		}
	});
});
