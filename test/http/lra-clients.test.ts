/**
 * The requests that tools written for the Local REST API plugin (obsidian-mcp-server and the like) send, over BOTH
 * gateways: they never send If-Match, read notes as markdown or as note+json, probe with HEAD, list folders, append
 * with POST and patch with Operation/Target-Type/Target (under Markdown-Patch-Version: 1, as Local REST API 5.1
 * requires). They work as they do against LRA 5.1, and their stale writes are refused.
 */
import { changeTagOf } from "../../src/core/revision-tokens";
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { sha256Token, visibleFiles, writeVaultFile } from "../helpers/vault-files";
import { STACKS, type Stack } from "./stacks";

forbidServerErrors();

const PLAN = [
	"---",
	"status: draft",
	"tags: [project, '#q3']",
	"---",
	"# Plan",
	"Intro with #idea, #work and `#notatag`.",
	"",
	"## Next Steps",
	"- one",
	"",
	"```",
	"#notatag either",
	"```",
	"## Done",
	"- zero #idea",
	"",
].join("\n");

/** How these clients address a note: each segment percent-encoded. */
const url = (path: string) => "/vault/" + path.split("/").map(encodeURIComponent).join("/");

interface NoteJson {
	path: string;
	content: string;
	frontmatter: Record<string, unknown>;
	stat: { ctime: number; mtime: number; size: number };
	tags: string[];
	revision: string;
}

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("Local REST API clients over the %s gateway", (name) => {
	let dir: string;
	let s: Stack;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-lra-"));
		await writeVaultFile(dir, "Projects/Plan.md", PLAN);
		await writeVaultFile(dir, "Inbox.md", "inbox\n");
		s = await STACKS[name](dir);
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});
	const plan = url("Projects/Plan.md");
	const markdown = { "Content-Type": "text/markdown" };

	it("lists the vault and a folder (GET /vault/, GET /vault/{dir}/)", async () => {
		const root = await s.api("/vault/");
		expect(root.status).toBe(200);
		expect(root.json<{ files: string[] }>().files).toEqual(["Inbox.md", "Projects/"]);
		const folder = await s.api("/vault/Projects/");
		expect(folder.json<{ files: string[] }>().files).toEqual(["Plan.md"]);
	});

	it("probes existence with HEAD: 200 with an ETag (a change tag: HEAD shows no content), or 404, never a body", async () => {
		const there = await s.api(plan, { method: "HEAD" });
		expect(there.status).toBe(200);
		expect(there.headers.etag).toBe(`W/"${changeTagOf(sha256Token(PLAN))}"`);
		expect(there.text).toBe("");
		const missing = await s.api(url("Projects/Nope.md"), { method: "HEAD" });
		expect(missing.status).toBe(404);
		expect(missing.text).toBe("");
	});

	it("reads with Accept: text/markdown", async () => {
		const res = await s.api(plan, { headers: { Accept: "text/markdown" } });
		expect(res.status).toBe(200);
		expect(res.headers["content-type"]).toBe("text/markdown; charset=utf-8");
		expect(res.text).toBe(PLAN);
	});

	it.each(["application/vnd.olrapi.note+json"])(
		"reads the Local REST API note shape with Accept: %s, plus revision",
		async (accept) => {
			const res = await s.api(plan, { headers: { Accept: accept } });
			expect(res.status).toBe(200);
			const note = res.json<NoteJson>();
			expect(note).toEqual({
				path: "Projects/Plan.md",
				content: PLAN,
				frontmatter: { status: "draft", tags: ["project", "#q3"] },
				stat: { ctime: expect.any(Number), mtime: expect.any(Number), size: Buffer.byteLength(PLAN) },
				tags: ["project", "q3", "idea", "work"],
				links: [],
				unresolvedLinks: [],
				backlinks: [],
				revision: sha256Token(PLAN),
			});
		},
	);

	it("creates a new note with a tokenless PUT: 204, as from the Local REST API", async () => {
		const res = await s.api(url("Inbox/New idea.md"), { method: "PUT", body: "new\n", headers: markdown });
		expect(res.status).toBe(204);
		expect(await s.file("Inbox/New idea.md")).toBe("new\n");
	});

	it("replaces a note it read with a tokenless PUT", async () => {
		await s.api(plan, { headers: { Accept: "text/markdown" } });
		const res = await s.api(plan, { method: "PUT", body: "# Plan\nrewritten\n", headers: markdown });
		expect(res.status, res.text).toBe(204);
		expect(await s.file("Projects/Plan.md")).toBe("# Plan\nrewritten\n");
	});

	it("appends with POST, read or not", async () => {
		const res = await s.api(url("Inbox.md"), { method: "POST", body: "- item\n", headers: markdown });
		expect(res.status).toBe(204);
		expect(await s.file("Inbox.md")).toBe("inbox\n- item\n");
	});

	it("appends under a heading with PATCH (Operation, Target-Type, percent-encoded Target), answered with the note", async () => {
		await s.api(plan, { headers: { Accept: "application/vnd.olrapi.note+json" } });
		const res = await s.api(plan, {
			method: "PATCH",
			body: "- two\n",
			headers: {
				...markdown,
				"Markdown-Patch-Version": "1",
				Operation: "append",
				"Target-Type": "heading",
				Target: encodeURIComponent("Plan::Next Steps"),
				"Target-Delimiter": "::",
			},
		});
		expect(res.status, res.text).toBe(200);
		// The section runs to the next heading of its level, so the item lands after its code block.
		expect(await s.file("Projects/Plan.md")).toBe(PLAN.replace("```\n## Done", "```\n- two\n## Done"));
		expect(res.text).toBe(await s.file("Projects/Plan.md"));
	});

	it("replaces a frontmatter key with PATCH and a JSON body", async () => {
		await s.api(plan);
		const res = await s.api(plan, {
			method: "PATCH",
			body: JSON.stringify("active"),
			headers: {
				"Content-Type": "application/json",
				"Markdown-Patch-Version": "1",
				Operation: "replace",
				"Target-Type": "frontmatter",
				Target: "status",
			},
		});
		expect(res.status, res.text).toBe(200);
		expect(await s.file("Projects/Plan.md")).toBe(PLAN.replace("status: draft", "status: active"));
		const read = (await s.api(plan, { headers: { Accept: "application/vnd.olrapi.note+json" } })).json<NoteJson>();
		expect(read.frontmatter.status).toBe("active");
	});

	it("refuses a tokenless PUT after someone else edited the note: 412, the copy kept as .bak, the edit kept", async () => {
		await s.api(plan, { headers: { Accept: "text/markdown" } });
		const edited = PLAN.replace("- one\n", "- one\n- the person's line\n");
		await s.edit("Projects/Plan.md", edited);
		const res = await s.api(plan, { method: "PUT", body: PLAN + "agent addition\n", headers: markdown });
		expect(res.status, res.text).toBe(412);
		const problem = res.json<{ backupPath: string; implicitRevision: boolean; currentRevision: string }>();
		expect(problem.implicitRevision).toBe(true);
		expect(await s.file(problem.backupPath)).toBe(PLAN + "agent addition\n");
		expect(await s.file("Projects/Plan.md")).toBe(edited);
		expect((await visibleFiles(dir)).filter((path) => path.endsWith(".bak.md"))).toEqual([problem.backupPath]);
		// Reading again is all such a client needs to do to write.
		await s.api(plan, { headers: { Accept: "text/markdown" } });
		expect((await s.api(plan, { method: "PUT", body: edited + "agent addition\n", headers: markdown })).status).toBe(
			204,
		);
	});
});
