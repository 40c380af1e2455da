/**
 * The headless move (node-move.ts through NodeFsGateway.rename): what only the Node folder does. The contract cases
 * every gateway passes are in gateway-contract.ts.
 */
import fs from "fs";
import { mkdtemp, readFile, rm, symlink, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MovePlan } from "../../src/vault/gateway";
import { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import { allFiles } from "../helpers/vault-files";

let root: string;
let gateway: NodeFsGateway;
beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "rg-move-"));
	gateway = await NodeFsGateway.open(root);
});
afterEach(async () => {
	vi.restoreAllMocks();
	await gateway.close();
	await rm(root, { recursive: true, force: true });
});

const move = (): MovePlan<null> => ({ kind: "move", result: null });
const text = (path: string) => readFile(join(root, path), "utf8").catch(() => null);

/** Makes hard links fail as they do on a disk without them (FAT, some network mounts). */
function noHardLinks(): void {
	vi.spyOn(fs, "linkSync").mockImplementation(() => {
		throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
	});
}

describe("moving a note headless", () => {
	it("decides again when another program saves the note between the decision and the move, and moves what it holds then", async () => {
		await writeFile(join(root, "a.md"), "first\n");
		const seen: (string | null)[] = [];
		const outcome = await gateway.rename("a.md", "b.md", (current) => {
			seen.push(current);
			// Another program's save, landing after the decision read.
			if (seen.length === 1) fs.writeFileSync(join(root, "a.md"), "saved meanwhile\n");
			return move();
		});
		expect(outcome.kind).toBe("moved");
		expect(seen).toEqual(["first\n", "saved meanwhile\n"]);
		expect(await text("b.md")).toBe("saved meanwhile\n");
		expect(await text("a.md")).toBeNull();
	});

	it("never replaces a note another program puts at the destination just before the link", async () => {
		await writeFile(join(root, "a.md"), "mine\n");
		const link = fs.linkSync.bind(fs);
		vi.spyOn(fs, "linkSync").mockImplementation((source, target) => {
			fs.writeFileSync(target, "theirs\n");
			link(source, target);
		});
		expect((await gateway.rename("a.md", "b.md", move)).kind).toBe("destination-taken");
		expect(await text("a.md")).toBe("mine\n");
		expect(await text("b.md")).toBe("theirs\n");
	});

	it("takes a second hard link of the note at the destination for a taken name, not for the note's own other spelling", async () => {
		await writeFile(join(root, "a.md"), "mine\n");
		const link = fs.linkSync.bind(fs);
		// Another program links the note under the destination's name just before ours: the same file, another name.
		vi.spyOn(fs, "linkSync").mockImplementation((source, target) => {
			link(source, target);
			link(source, target);
		});
		// Taken as a change of case, the rename over the same file would do nothing and the move be reported done
		// while the note stayed where it was.
		expect((await gateway.rename("a.md", "b.md", move)).kind).toBe("destination-taken");
		expect(await text("a.md")).toBe("mine\n");
		expect(await text("b.md")).toBe("mine\n");
	});

	it("moves on a disk without hard links by an exclusive copy and the old name's removal, byte for byte", async () => {
		noHardLinks();
		const bytes = "\uFEFFcrlf\r\nno final newline";
		await writeFile(join(root, "a.md"), bytes);
		const outcome = await gateway.rename("a.md", "sub/b.md", move);
		expect(outcome.kind).toBe("moved");
		if (outcome.kind === "moved") await outcome.durable;
		expect(await text("sub/b.md")).toBe(bytes);
		expect(await allFiles(root)).toEqual(["sub/b.md"]);
	});

	it("without hard links too, never replaces what is at the destination, and takes back a copy whose note changed while it was made", async () => {
		noHardLinks();
		await writeFile(join(root, "a.md"), "mine\n");
		await writeFile(join(root, "taken.md"), "theirs\n");
		expect((await gateway.rename("a.md", "taken.md", move)).kind).toBe("destination-taken");
		expect(await text("taken.md")).toBe("theirs\n");
		// The note changes while its copy is written: the copy is removed and the move decided again.
		const write = fs.promises.open.bind(fs.promises);
		let changed = false;
		vi.spyOn(fs.promises, "open").mockImplementation(async (...args: Parameters<typeof fs.promises.open>) => {
			if (!changed && String(args[0]).endsWith("b.md")) {
				changed = true;
				fs.writeFileSync(join(root, "a.md"), "changed during the copy\n");
			}
			return write(...args);
		});
		const seen: (string | null)[] = [];
		const outcome = await gateway.rename("a.md", "b.md", (current) => {
			seen.push(current);
			return move();
		});
		expect(outcome.kind).toBe("moved");
		expect(seen).toEqual(["mine\n", "changed during the copy\n"]);
		expect(await text("b.md")).toBe("changed during the copy\n");
		expect((await allFiles(root)).sort()).toEqual(["b.md", "taken.md"]);
	});

	it("does not move a note that is a symbolic link (it would break, or take another name's note away)", async () => {
		await writeFile(join(root, "real.md"), "real\n");
		await symlink(join(root, "real.md"), join(root, "link.md"));
		await expect(gateway.rename("link.md", "moved.md", move)).rejects.toMatchObject({ reason: "symbolic-link" });
		expect(await text("real.md")).toBe("real\n");
		expect(fs.lstatSync(join(root, "link.md")).isSymbolicLink()).toBe(true);
		expect(await text("moved.md")).toBeNull();
	});
});
