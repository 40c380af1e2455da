/**
 * The note JSON (`Accept: application/vnd.olrapi.note+json`) carries what the Local REST API's does, over both stacks:
 * tags, links, backlinks and unresolvedLinks, beside our revision. Links are read from the content the answer shows,
 * so a note just written answers at once; backlinks come from the host's index (Obsidian's resolved links).
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../stacks";

forbidServerErrors();

interface NoteJson {
	path: string;
	content: string;
	revision: string;
	tags: string[];
	links: string[];
	unresolvedLinks: string[];
	backlinks: string[];
	frontmatter: Record<string, unknown>;
	stat: { ctime: number; mtime: number; size: number };
}

const PLAN =
	"---\ntags: [plan]\n---\n# Plan\nSee [[Goals]], ![[pic.png]], [[xylophone-does-not-exist]], [again](Projects/Goals.md) and [[Secret]]. #inline\n```\n[[InCode]]\n```\n";

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("note JSON links over the %s stack", (stack) => {
	let dir: string;
	let s: Stack;
	const noteJson = async (path: string) => {
		await s.app?.metadataCache.settled();
		const res = await s.api(`/vault/${path}`, { headers: { Accept: "application/vnd.olrapi.note+json" } });
		expect(res.status, res.text).toBe(200);
		return res.json<NoteJson>();
	};

	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-links-"));
		await writeVaultFile(dir, "Plan.md", PLAN);
		await writeVaultFile(dir, "Projects/Goals.md", "Back to [[Plan]].\n");
		await writeVaultFile(dir, "Other.md", "[[Plan]] twice: [[Plan|again]]\n");
		await writeVaultFile(dir, "Unrelated.md", "[[Goals]]\n");
		await writeVaultFile(dir, "pic.png", "png");
		await writeVaultFile(dir, ".hidden/Secret.md", "hidden\n");
		s = await STACKS[stack](dir);
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	it("carries tags, links, unresolvedLinks and backlinks beside content, frontmatter, stat and the revision", async () => {
		const body = await noteJson("Plan.md");
		expect(body).toMatchObject({
			path: "Plan.md",
			content: PLAN,
			revision: sha256Token(PLAN),
			frontmatter: { tags: ["plan"] },
			tags: ["plan", "inline"],
			links: ["Projects/Goals.md", "pic.png"],
			unresolvedLinks: ["xylophone-does-not-exist", "Secret"],
			backlinks: ["Other.md", "Projects/Goals.md"],
		});
		expect(body.stat.size).toBe(Buffer.byteLength(PLAN));
	});

	it("names a link to nothing in unresolvedLinks at once, for a note just written (the Local REST API's own check)", async () => {
		const put = await s.api("/vault/tests/unresolved-links-fixture.md", {
			method: "PUT",
			body: "Links to [[xylophone-does-not-exist]].\n",
		});
		expect(put.status, put.text).toBe(204);
		const res = await s.api("/vault/tests/unresolved-links-fixture.md", {
			headers: { Accept: "application/vnd.olrapi.note+json" },
		});
		expect(res.json<NoteJson>()).toMatchObject({
			links: [],
			unresolvedLinks: ["xylophone-does-not-exist"],
			backlinks: [],
		});
	});

	it("resolves a link once its target exists, and follows backlinks as notes change", async () => {
		expect((await noteJson("Plan.md")).unresolvedLinks).toContain("xylophone-does-not-exist");
		await s.edit("xylophone-does-not-exist.md", "now it does, and links [[Plan]]\n");
		await s.edit("Other.md", "no more links\n");
		// Another program's edits reach the host when its watcher (or Obsidian's index) takes them in: a moment later.
		await expect
			.poll(async () => (await noteJson("Plan.md")).backlinks, { timeout: 10_000 })
			.toEqual(["Projects/Goals.md", "xylophone-does-not-exist.md"]);
		const body = await noteJson("Plan.md");
		expect(body.links).toEqual(["Projects/Goals.md", "pic.png", "xylophone-does-not-exist.md"]);
		expect(body.unresolvedLinks).toEqual(["Secret"]);
	});

	it("sees an agent's own write at once, though a folder's watcher leaves it out", async () => {
		expect((await noteJson("Plan.md")).backlinks).toEqual(["Other.md", "Projects/Goals.md"]);
		const put = await s.api("/vault/Newer.md", { method: "PUT", body: "[[Plan]]\n" });
		expect(put.status, put.text).toBe(204);
		const read = await s.api("/vault/Other.md");
		const rewrite = await s.api("/vault/Other.md", {
			method: "PUT",
			headers: { "If-Match": read.headers.etag as string },
			body: "no link now\n",
		});
		expect(rewrite.status, rewrite.text).toBe(204);
		expect((await noteJson("Plan.md")).backlinks).toEqual(["Newer.md", "Projects/Goals.md"]);
	});

	it("sees a write that is not an agent's own write call at once too (a restore from history)", async () => {
		const original = "[[Plan]] twice: [[Plan|again]]\n";
		const read = await s.api("/vault/Other.md");
		await s.api("/vault/Other.md", {
			method: "PUT",
			headers: { "If-Match": read.headers.etag as string },
			body: "no link now\n",
		});
		expect((await noteJson("Plan.md")).backlinks).toEqual(["Projects/Goals.md"]);
		const now = await s.api("/vault/Other.md");
		const restore = await s.api(`/history/Other.md/restore?revision=${sha256Token(original)}`, {
			method: "POST",
			headers: { "If-Match": now.headers.etag as string },
		});
		expect(restore.status, restore.text).toBeLessThan(300);
		expect(await s.file("Other.md")).toBe(original);
		expect((await noteJson("Plan.md")).backlinks).toEqual(["Other.md", "Projects/Goals.md"]);
	});

	it("does not count a .bak note as linking here", async () => {
		const stale = await s.api("/vault/Unrelated.md", {
			method: "PUT",
			headers: { "If-Match": `"${sha256Token("something else\n")}"` },
			body: "[[Plan]] from a refused write\n",
		});
		expect(stale.status, stale.text).toBe(412);
		expect((await noteJson("Plan.md")).backlinks).toEqual(["Other.md", "Projects/Goals.md"]);
	});

	it("gives empty lists to a note without links", async () => {
		await s.edit("Lonely.md", "nothing here\n");
		expect(await noteJson("Lonely.md")).toMatchObject({ links: [], unresolvedLinks: [], backlinks: [] });
	});
});
