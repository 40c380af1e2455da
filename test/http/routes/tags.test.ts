/**
 * GET /tags/ as the Local REST API answers it, over both stacks: frontmatter and inline tags with their counts,
 * nested tags counting for their parents, tags in code ignored; only served notes count (no hidden or config
 * folder, no .bak note); long lists in pages. Inside Obsidian the counts are the metadata cache's, so each test waits
 * for Obsidian to index what it wrote (as an agent would see it a moment later).
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../stacks";

forbidServerErrors();

interface TagsBody {
	tags: { name: string; count: number }[];
	next?: string;
}

const FIXTURE =
	"---\ntitle: Fixture\ntags:\n  - integration-fixture\n  - test-tag\n---\n# Alpha\n\nPrimary content of Alpha. #inline-tag\n";

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("GET /tags/ over the %s stack", (stack) => {
	let dir: string;
	let s: Stack;
	const indexed = async () => s.app?.metadataCache.settled();
	const tags = async (query = "") => {
		await indexed();
		const res = await s.api(`/tags/${query}`);
		expect(res.status, res.text).toBe(200);
		return res.json<TagsBody>();
	};

	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-tags-"));
		await writeVaultFile(dir, "fixture.md", FIXTURE);
		await writeVaultFile(dir, "work/plan.md", "#work/tasks/today and #work/tasks, then #work/tasks again.\n");
		await writeVaultFile(dir, "work/code.md", "```\n#in-fence\n```\n`#inline-code` #Case #case #2024\n");
		await writeVaultFile(dir, ".hidden/secret.md", "#hidden-tag\n");
		await writeVaultFile(dir, ".obsidian/snippet.md", "#config-tag\n");
		await writeVaultFile(dir, "notes.txt", "#txt-tag\n");
		s = await STACKS[stack](dir, { settings: { noteExtensions: ["md", "txt"] } });
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	it("counts frontmatter and inline tags of markdown notes, every use, nested tags for their parents, never in code", async () => {
		expect(await tags()).toEqual({
			tags: [
				{ name: "Case", count: 1 },
				{ name: "case", count: 1 },
				{ name: "inline-tag", count: 1 },
				{ name: "integration-fixture", count: 1 },
				{ name: "test-tag", count: 1 },
				{ name: "work", count: 3 },
				{ name: "work/tasks", count: 3 },
				{ name: "work/tasks/today", count: 1 },
			],
		});
	});

	it("carries no revision, part token or change tag: a tag list shows no note", async () => {
		await indexed();
		const res = await s.api("/tags/");
		expect(res.headers.etag).toBeUndefined();
		expect(res.text).not.toMatch(/revision|changeTag|tag\.|part\./);
		expect(res.headers["cache-control"]).toBe("no-store");
	});

	it("answers at /tags as well, for clients that drop the slash", async () => {
		await indexed();
		expect((await s.api("/tags")).json<TagsBody>()).toEqual(await tags());
	});

	it("follows the notes as they change, an agent's writes included", async () => {
		const put = await s.api("/vault/new.md", { method: "PUT", body: "#fresh #work\n" });
		expect(put.status, put.text).toBe(204);
		await s.edit("work/plan.md", "now only #other\n");
		const names = (await tags()).tags;
		expect(names).toContainEqual({ name: "fresh", count: 1 });
		expect(names).toContainEqual({ name: "work", count: 1 });
		expect(names).toContainEqual({ name: "other", count: 1 });
		expect(names.find((tag) => tag.name === "work/tasks")).toBeUndefined();
	});

	it("does not count a .bak note: a refused proposal is not the vault's text", async () => {
		const before = await tags();
		const stale = await s.api("/vault/fixture.md", {
			method: "PUT",
			headers: { "If-Match": `"${sha256Token("not what it holds\n")}"` },
			body: `${FIXTURE}#refused-tag #inline-tag\n`,
		});
		expect(stale.status, stale.text).toBe(412);
		expect(stale.json<{ backupPath: string }>().backupPath).toMatch(/\.bak\.md$/);
		expect(await tags()).toEqual(before);
	});

	it("sends long lists in pages: limit, then next passed back as after", async () => {
		const first = await tags("?limit=3");
		expect(first.tags.map((tag) => tag.name)).toEqual(["Case", "case", "inline-tag"]);
		expect(first.next).toBe("inline-tag");
		const second = await tags(`?limit=3&after=${encodeURIComponent(first.next!)}`);
		expect(second.tags.map((tag) => tag.name)).toEqual(["integration-fixture", "test-tag", "work"]);
		const last = await tags(`?limit=3&after=${encodeURIComponent(second.next!)}`);
		expect(last).toEqual({
			tags: [
				{ name: "work/tasks", count: 3 },
				{ name: "work/tasks/today", count: 1 },
			],
		});
	});

	it.each(["0", "-1", "1.5", "x", "100001"])("refuses limit=%s with 400 and says what it takes", async (limit) => {
		const res = await s.api(`/tags/?limit=${limit}`);
		expect(res.status).toBe(400);
		expect(res.json()).toMatchObject({
			type: "/problems/bad-request",
			detail: expect.stringContaining("limit must be a whole number from 1 to 100000"),
		});
	});
});
