import { mkdir, mkdtemp, rm, symlink } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { placeInVault, realVaultRoot } from "../../../hooks/lib/vault-path.mjs";

let base: string;
let vault: string;
const MD = ["md"];

beforeEach(async () => {
	base = await realVaultRoot(await mkdtemp(join(tmpdir(), "rg-vault-path-")));
	vault = join(base, "Vault");
	await mkdir(join(vault, "Projects"), { recursive: true });
});

afterEach(async () => {
	await rm(base, { recursive: true, force: true });
});

describe("placeInVault", () => {
	it("gives a note's vault path and its URL form, each segment encoded once", async () => {
		expect(await placeInVault(join(vault, "Projects", "Plan.md"), "/", vault, MD)).toEqual({
			kind: "note",
			path: "Projects/Plan.md",
			urlPath: "Projects/Plan.md",
			absolute: join(vault, "Projects", "Plan.md"),
		});
		const odd = await placeInVault(join(vault, "Ideas", "Café #1 100%?.md"), "/", vault, MD);
		expect(odd).toMatchObject({
			kind: "note",
			path: "Ideas/Café #1 100%?.md",
			urlPath: "Ideas/Caf%C3%A9%20%231%20100%25%3F.md",
		});
	});

	it("resolves relative paths and `..` against the tool's folder", async () => {
		expect(await placeInVault("Plan.md", join(vault, "Projects"), vault, MD)).toMatchObject({
			path: "Projects/Plan.md",
		});
		expect(await placeInVault("../Projects/./Plan.md", join(vault, "Projects"), vault, MD)).toMatchObject({
			path: "Projects/Plan.md",
		});
		expect(await placeInVault("../../Outside.md", join(vault, "Projects"), vault, MD)).toEqual({ kind: "outside" });
	});

	it("sees through links: to the vault, and to a folder inside it; a link out of it leads outside", async () => {
		await symlink(vault, join(base, "link-to-vault"), "dir");
		await symlink(join(vault, "Projects"), join(vault, "Shortcut"), "dir");
		await mkdir(join(base, "Elsewhere"));
		await symlink(join(base, "Elsewhere"), join(vault, "Away"), "dir");
		expect(await placeInVault(join(base, "link-to-vault", "Projects", "Plan.md"), "/", vault, MD)).toMatchObject({
			path: "Projects/Plan.md",
		});
		expect(await placeInVault(join(vault, "Shortcut", "Plan.md"), "/", vault, MD)).toMatchObject({
			path: "Projects/Plan.md",
		});
		expect(await placeInVault(join(vault, "Away", "Plan.md"), "/", vault, MD)).toEqual({ kind: "outside" });
		expect(await realVaultRoot(join(base, "link-to-vault"))).toBe(vault);
	});

	it("keeps a note in a folder that does not exist yet", async () => {
		expect(await placeInVault(join(vault, "New", "Deeper", "Idea.md"), "/", vault, MD)).toMatchObject({
			kind: "note",
			path: "New/Deeper/Idea.md",
		});
	});

	it("is outside for the vault itself, its parent, and a sibling whose name starts the same", async () => {
		await mkdir(join(base, "Vault2"));
		expect(await placeInVault(vault, "/", vault, MD)).toEqual({ kind: "outside" });
		expect(await placeInVault(join(base, "Plan.md"), "/", vault, MD)).toEqual({ kind: "outside" });
		expect(await placeInVault(join(base, "Vault2", "Plan.md"), "/", vault, MD)).toEqual({ kind: "outside" });
	});

	it("is not a note for hidden files and folders, files without a note extension, or a bare dot-name", async () => {
		for (const path of [
			".obsidian/workspace.md",
			"Projects/.draft.md",
			".trash/Old.md",
			"Projects/data.csv",
			"Projects/README",
			"Projects/.md",
		]) {
			expect(await placeInVault(join(vault, path), "/", vault, MD), path).toEqual({ kind: "not-a-note" });
		}
		expect(await placeInVault(join(vault, "Board.CANVAS"), "/", vault, ["md", "canvas"])).toMatchObject({
			kind: "note",
			path: "Board.CANVAS",
		});
		expect(await placeInVault(join(vault, "Plan.MD"), "/", vault, MD)).toMatchObject({ kind: "note" });
	});
});
