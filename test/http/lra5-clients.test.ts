/**
 * The requests a client written for Local REST API 5.x ("Local REST API with MCP") sends, over BOTH gateways: the
 * document map and its `version`, JSON PATCH instructions, `Markdown-Patch-Version`, URL targets and raw-content
 * mode. They work, and every write among them is guarded like a PUT: current token → written, stale → 412 with the
 * whole patched note kept as .bak, no token → held to the last read, or 428.
 */
import { partTokenOf } from "../../src/core/revision-tokens";
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHeadless, TEST_KEY } from "../helpers/headless-harness";
import type { CallResult } from "../helpers/http-client";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { sha256Token, visibleFiles, writeVaultFile } from "../helpers/vault-files";
import { STACKS, type Stack } from "./stacks";

forbidServerErrors();

const PLAN = [
	"---",
	"status: draft",
	"tags: [project]",
	"---",
	"# Plan",
	"Intro text. ^intro",
	"",
	"## Next Steps",
	"- one",
	"",
	"## Done",
	"- zero ^zero",
	"",
].join("\n");
const EDITED = PLAN.replace("Intro text.", "Intro text, edited by the person.");

const NOTE = "/vault/Projects/Plan.md";
const MAP = { Accept: "application/vnd.olrapi.document-map+json" };
const JSON_BODY = { "Content-Type": "application/json" };

interface Problem {
	type: string;
	detail: string;
	backupPath?: string;
	implicitRevision?: boolean;
	sentRevision?: string;
}

function expectProblem(res: CallResult, status: number, name: string): Problem {
	expect(res.status, res.text).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status });
	return res.json<Problem>();
}

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])(
	"Local REST API 5.x clients over the %s gateway",
	(name) => {
		let dir: string;
		let s: Stack;
		beforeEach(async () => {
			dir = await mkdtemp(join(tmpdir(), "rg-lra5-"));
			await writeVaultFile(dir, "Projects/Plan.md", PLAN);
			await writeVaultFile(dir, "heading/Plan.md", "in a folder named heading\n");
			s = await STACKS[name](dir);
		});
		afterEach(async () => {
			await s.close();
			await rm(dir, { recursive: true, force: true });
		});
		const instruction = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
			s.api(NOTE, { method: "PATCH", body: JSON.stringify(body), headers: { ...JSON_BODY, ...headers } });
		const appendStep = {
			targetType: "heading",
			target: ["Plan", "Next Steps"],
			operation: "append",
			content: "- two\n",
		};
		const withStep = (note: string) => note.replace("- one\n", "- one\n- two\n");
		const backups = async () => (await visibleFiles(dir)).filter((path) => path.endsWith(".bak.md"));

		describe("the document map", () => {
			it("is a nested heading tree with blocks, frontmatter fields and version, the part token the ETag carries", async () => {
				const res = await s.api(NOTE, { headers: MAP });
				expect(res.status).toBe(200);
				expect(res.headers["content-type"]).toBe("application/vnd.olrapi.document-map+json; charset=utf-8");
				expect(res.json()).toEqual({
					headings: { Plan: { "Next Steps": {}, Done: {} } },
					blocks: ["intro", "zero"],
					frontmatterFields: ["status", "tags"],
					version: partTokenOf(sha256Token(PLAN)),
				});
				// The map shows the note's structure, not its text: its version patches, never replaces (see "part tokens").
				expect(res.headers.etag).toBe(`"${partTokenOf(sha256Token(PLAN))}"`);
				expect(res.headers.deprecation).toBeUndefined();
			});

			it("is the flat A::B list with a Deprecation header under Markdown-Patch-Version: 1", async () => {
				const res = await s.api(NOTE, { headers: { ...MAP, "Markdown-Patch-Version": "1" } });
				expect(res.status).toBe(200);
				expect(res.json()).toEqual({
					headings: ["Plan", "Plan::Next Steps", "Plan::Done"],
					blocks: ["intro", "zero"],
					frontmatterFields: ["status", "tags"],
				});
				expect(res.headers.deprecation).toBe('true; sunset-version="6.0"');
			});

			it.each(["3", "2.0", "latest"])(
				"answers Markdown-Patch-Version: %s with 400 on reads and writes, writing nothing",
				async (version) => {
					expectProblem(
						await s.api(NOTE, { headers: { ...MAP, "Markdown-Patch-Version": version } }),
						400,
						"invalid-patch-version",
					);
					expectProblem(
						await instruction(appendStep, { "Markdown-Patch-Version": version }),
						400,
						"invalid-patch-version",
					);
					expectProblem(
						await s.api(`${NOTE}/heading/Plan`, { headers: { "Markdown-Patch-Version": version } }),
						400,
						"invalid-patch-version",
					);
					expectProblem(
						await s.api(NOTE, {
							method: "PUT",
							body: "x\n",
							headers: { "Markdown-Patch-Version": version, "If-Match": `"${sha256Token(PLAN)}"` },
						}),
						400,
						"invalid-patch-version",
					);
					expectProblem(
						await s.api("/vault/", { headers: { "Markdown-Patch-Version": version } }),
						400,
						"invalid-patch-version",
					);
					expect(await s.file("Projects/Plan.md")).toBe(PLAN);
				},
			);
		});

		describe("JSON PATCH instructions", () => {
			it("applies a heading instruction whose ifMatch is the map's version: 200 with the patched note and its ETag", async () => {
				const { version } = (await s.api(NOTE, { headers: MAP })).json<{ version: string }>();
				const res = await instruction({ ...appendStep, ifMatch: version });
				expect(res.status, res.text).toBe(200);
				expect(res.text).toBe(withStep(PLAN));
				expect(res.headers.etag).toBe(`"${sha256Token(withStep(PLAN))}"`);
				expect(await s.file("Projects/Plan.md")).toBe(withStep(PLAN));
			});

			it("patches a block and a frontmatter key, with the token in If-Match bare or quoted", async () => {
				const block = await instruction(
					{ targetType: "block", target: "zero", operation: "replace", content: "- nothing left" },
					{ "If-Match": sha256Token(PLAN) },
				);
				expect(block.status, block.text).toBe(200);
				const afterBlock = PLAN.replace("- zero ^zero", "- nothing left ^zero");
				const key = await instruction(
					{ targetType: "frontmatter", target: "tags", operation: "append", value: ["q3"] },
					{ "If-Match": `"${sha256Token(afterBlock)}"` },
				);
				expect(key.status, key.text).toBe(200);
				expect(await s.file("Projects/Plan.md")).toBe(afterBlock.replace("tags: [project]", "tags: [project, q3]"));
			});

			it("deletes a frontmatter key and a heading's content", async () => {
				await s.api(NOTE);
				expect((await instruction({ targetType: "frontmatter", target: "status", operation: "delete" })).status).toBe(
					200,
				);
				expect(
					(await instruction({ targetType: "heading", target: ["Plan", "Done"], operation: "delete" })).status,
				).toBe(200);
				expect(await s.file("Projects/Plan.md")).toBe(
					PLAN.replace("status: draft\n", "").replace("- zero ^zero\n", ""),
				);
			});

			it("refuses a stale ifMatch with 412, keeping the whole patched note byte for byte as .bak", async () => {
				await s.edit("Projects/Plan.md", EDITED);
				const problem = expectProblem(
					await instruction({ ...appendStep, ifMatch: sha256Token(PLAN) }),
					412,
					"stale-revision",
				);
				expect(problem.sentRevision).toBe(sha256Token(PLAN));
				expect(await s.file(problem.backupPath!)).toBe(withStep(EDITED));
				expect(await s.file("Projects/Plan.md")).toBe(EDITED);
				expect(await backups()).toEqual([problem.backupPath]);
			});

			const eachTarget = [
				["heading", appendStep, withStep],
				[
					"block",
					{ targetType: "block", target: "zero", operation: "replace", content: "- none" },
					(note: string) => note.replace("- zero ^zero", "- none ^zero"),
				],
				[
					"frontmatter",
					{ targetType: "frontmatter", target: "status", operation: "replace", value: "done" },
					(note: string) => note.replace("status: draft", "status: done"),
				],
			] as const;

			it.each(eachTarget)(
				"refuses a stale ifMatch on a %s with 412 and the whole patched note as .bak",
				async (_, body, expected) => {
					await s.edit("Projects/Plan.md", EDITED);
					const problem = expectProblem(
						await instruction({ ...body, ifMatch: `"${sha256Token(PLAN)}"` }),
						412,
						"stale-revision",
					);
					expect(await s.file(problem.backupPath!)).toBe(expected(EDITED));
					expect(await s.file("Projects/Plan.md")).toBe(EDITED);
				},
			);

			it.each(eachTarget)(
				"answers a tokenless %s instruction from a client that never read the note with 428, writing nothing",
				async (_, body) => {
					expectProblem(await instruction(body), 428, "precondition-required");
					expect(await s.file("Projects/Plan.md")).toBe(PLAN);
					expect(await backups()).toEqual([]);
				},
			);

			it("holds a tokenless instruction to the client's last read (the document map counts): current → applied, changed → 412 with .bak", async () => {
				await s.api(NOTE, { headers: MAP });
				expect((await instruction(appendStep)).status).toBe(200);
				await s.edit("Projects/Plan.md", EDITED);
				const problem = expectProblem(
					await instruction({ ...appendStep, content: "- three\n" }),
					412,
					"stale-revision",
				);
				expect(problem.implicitRevision).toBe(true);
				expect(await s.file(problem.backupPath!)).toBe(EDITED.replace("- one\n", "- one\n- three\n"));
				expect(await s.file("Projects/Plan.md")).toBe(EDITED);
			});

			it("counts the patched note a 200 shows as a read of all of it: a tokenless PUT after a part-token PATCH stands on it", async () => {
				const { version } = (await s.api(NOTE, { headers: MAP })).json<{ version: string }>();
				const patched = await instruction({ ...appendStep, ifMatch: version });
				expect(patched.status, patched.text).toBe(200);
				const put = await s.api(NOTE, { method: "PUT", body: "replaced\n" });
				expect(put.status, put.text).toBe(204);
				expect(await s.file("Projects/Plan.md")).toBe("replaced\n");
			});

			it("refuses unknown fields with 400 naming them, writing nothing", async () => {
				const problem = expectProblem(
					await instruction({ ...appendStep, ifMatch: sha256Token(PLAN), position: "end" }),
					400,
					"invalid-patch-instruction",
				);
				expect(problem.detail).toMatch(/Unknown field "position"/);
				expect(await s.file("Projects/Plan.md")).toBe(PLAN);
			});

			it("refuses ifMatch and If-Match that disagree", async () => {
				const problem = expectProblem(
					await instruction({ ...appendStep, ifMatch: sha256Token(PLAN) }, { "If-Match": "other" }),
					400,
					"invalid-patch-instruction",
				);
				expect(problem.detail).toMatch(/different revisions/);
			});

			it("answers a target the note lacks with 404 target-not-found, as Local REST API 5.1 does", async () => {
				expectProblem(
					await instruction({
						targetType: "block",
						target: "nope",
						operation: "append",
						content: "x",
						ifMatch: sha256Token(PLAN),
					}),
					404,
					"target-not-found",
				);
			});
		});

		describe("Markdown-Patch-Version and header targeting", () => {
			it("keeps the header PATCH under version 1, guarded, answered with the patched note and a Deprecation header", async () => {
				const headers = {
					"Markdown-Patch-Version": "1",
					Operation: "append",
					"Target-Type": "heading",
					Target: encodeURIComponent("Plan::Next Steps"),
				};
				expectProblem(await s.api(NOTE, { method: "PATCH", body: "- two\n", headers }), 428, "precondition-required");
				const res = await s.api(NOTE, {
					method: "PATCH",
					body: "- two\n",
					headers: { ...headers, "If-Match": `"${sha256Token(PLAN)}"` },
				});
				expect(res.status, res.text).toBe(200);
				expect(res.text).toBe(withStep(PLAN));
				expect(res.headers.deprecation).toBe('true; sunset-version="6.0"');
				expect(await s.file("Projects/Plan.md")).toBe(withStep(PLAN));
			});

			it("acts on the part Target-Type/Target name on GET, PUT and POST under version 1, never on the whole note", async () => {
				const headers = {
					"Markdown-Patch-Version": "1",
					"Target-Type": "heading",
					Target: encodeURIComponent("Plan::Next Steps"),
				};
				const read = await s.api(NOTE, { headers });
				expect(read.text).toBe("- one\n");
				// That read counts: a tokenless PUT of the section is held to it.
				const put = await s.api(NOTE, { method: "PUT", body: "- uno\n", headers });
				expect(put.status, put.text).toBe(200);
				const post = await s.api(NOTE, {
					method: "POST",
					body: " and more",
					headers: {
						"Markdown-Patch-Version": "1",
						"Target-Type": "frontmatter",
						Target: "status",
						"If-Match": put.headers.etag as string,
					},
				});
				expect(post.status, post.text).toBe(200);
				expect(await s.file("Projects/Plan.md")).toBe(
					PLAN.replace("- one\n", "- uno\n").replace("status: draft", "status: draft and more"),
				);
				await s.edit("Projects/Plan.md", EDITED);
				const stale = expectProblem(
					await s.api(NOTE, {
						method: "PUT",
						body: "- late\n",
						headers: { ...headers, "If-Match": put.headers.etag as string },
					}),
					412,
					"stale-revision",
				);
				expect(await s.file(stale.backupPath!)).toBe(EDITED.replace("- one\n", "- late\n"));
			});

			it("never deletes a whole note for a DELETE that names a part of it (deleting a part is a PATCH)", async () => {
				const headers = {
					"Target-Type": "heading",
					Target: encodeURIComponent("Plan::Next Steps"),
					"If-Match": `"${sha256Token(PLAN)}"`,
				};
				expectProblem(await s.api(NOTE, { method: "DELETE", headers }), 422, "conflicting-target");
				expect(await s.file("Projects/Plan.md")).toBe(PLAN);
			});

			it("reads a heading Target as percent-encoded JSON under an explicit version 2 (raw-content mode)", async () => {
				const headers = {
					"Markdown-Patch-Version": "2",
					Operation: "append",
					"Target-Type": "heading",
					Target: encodeURIComponent(JSON.stringify(["Plan", "Next Steps"])),
					"If-Match": sha256Token(PLAN),
					"Content-Type": "text/markdown",
				};
				const res = await s.api(NOTE, { method: "PATCH", body: "- two\n", headers });
				expect(res.status, res.text).toBe(200);
				expect(await s.file("Projects/Plan.md")).toBe(withStep(PLAN));
				const plain = await s.api(NOTE, {
					method: "PATCH",
					body: "- x\n",
					headers: { ...headers, Target: "Plan::Done" },
				});
				expect(expectProblem(plain, 400, "invalid-patch-instruction").detail).toMatch(/percent-encoded JSON/);
			});
		});

		describe("URL targets", () => {
			it("reads a nested heading's section, a frontmatter value as JSON and a block's text, each with the note's part token", async () => {
				const section = await s.api(`${NOTE}/heading/Plan/Next%20Steps`);
				expect(section.status).toBe(200);
				expect(section.text).toBe("- one\n");
				expect(section.headers.etag).toBe(`"${partTokenOf(sha256Token(PLAN))}"`);
				expect((await s.api(`${NOTE}/frontmatter/tags`)).json()).toEqual(["project"]);
				expect((await s.api(`${NOTE}/block/intro`)).text).toBe("Intro text.");
				expectProblem(await s.api(`${NOTE}/heading/Nope`), 404, "target-not-found");
			});

			it("replaces with PUT and appends with POST, guarded like PUT", async () => {
				expectProblem(
					await s.api(`${NOTE}/heading/Plan/Done`, {
						method: "PUT",
						body: "- all\n",
						headers: { "Content-Type": "text/markdown" },
					}),
					428,
					"precondition-required",
				);
				const put = await s.api(`${NOTE}/heading/Plan/Done`, {
					method: "PUT",
					body: "- all\n",
					headers: { "Content-Type": "text/markdown", "If-Match": sha256Token(PLAN) },
				});
				expect(put.status, put.text).toBe(200);
				const afterPut = PLAN.replace("- zero ^zero\n", "- all\n");
				expect(await s.file("Projects/Plan.md")).toBe(afterPut);
				// A tokenless POST after a read of the section is held to that read.
				await s.api(`${NOTE}/heading/Plan/Next%20Steps`);
				const post = await s.api(`${NOTE}/heading/Plan/Next%20Steps`, {
					method: "POST",
					body: "- two\n",
					headers: { "Content-Type": "text/markdown" },
				});
				expect(post.status, post.text).toBe(200);
				expect(await s.file("Projects/Plan.md")).toBe(withStep(afterPut));
			});

			it("applies PATCH's Operation header to the part the URL names (raw-content mode)", async () => {
				await s.api(NOTE);
				const value = await s.api(`${NOTE}/frontmatter/status`, {
					method: "PATCH",
					body: JSON.stringify("active"),
					headers: { Operation: "replace", "Content-Type": "application/json" },
				});
				expect(value.status, value.text).toBe(200);
				const deleted = await s.api(`${NOTE}/block/intro`, { method: "PATCH", headers: { Operation: "delete" } });
				expect(deleted.status, deleted.text).toBe(200);
				expect(await s.file("Projects/Plan.md")).toBe(
					PLAN.replace("draft", "active").replace("Intro text. ^intro\n", ""),
				);
			});

			it("refuses a stale token on a URL target with 412 and keeps the whole patched note as .bak", async () => {
				await s.edit("Projects/Plan.md", EDITED);
				const problem = expectProblem(
					await s.api(`${NOTE}/heading/Plan/Next%20Steps`, {
						method: "POST",
						body: "- two\n",
						headers: { "If-Match": sha256Token(PLAN) },
					}),
					412,
					"stale-revision",
				);
				expect(await s.file(problem.backupPath!)).toBe(withStep(EDITED));
				expect(await s.file("Projects/Plan.md")).toBe(EDITED);
			});

			it("refuses a URL target together with Target-Type headers (422), and an empty body that is not a delete", async () => {
				expectProblem(
					await s.api(`${NOTE}/heading/Plan`, {
						method: "PATCH",
						body: "x",
						headers: { Operation: "append", "Target-Type": "heading", "If-Match": sha256Token(PLAN) },
					}),
					422,
					"conflicting-target",
				);
				expectProblem(
					await s.api(`${NOTE}/heading/Plan`, { method: "PUT", body: "", headers: { "If-Match": sha256Token(PLAN) } }),
					400,
					"invalid-patch-instruction",
				);
				expect(await s.file("Projects/Plan.md")).toBe(PLAN);
			});

			it("still serves a note inside a folder named heading: targets only follow a .md segment", async () => {
				const read = await s.api("/vault/heading/Plan.md");
				expect(read.text).toBe("in a folder named heading\n");
				const put = await s.api("/vault/heading/Plan.md", {
					method: "PUT",
					body: "rewritten\n",
					headers: { "If-Match": read.headers.etag as string },
				});
				expect(put.status, put.text).toBe(204);
				expect(await s.file("heading/Plan.md")).toBe("rewritten\n");
			});
		});
	},
);

describe("the MCP endpoint at /mcp/, as Local REST API 5.x clients spell it", () => {
	it("is the same endpoint as /mcp: an SDK client connects and calls a tool, behind the same key check", async () => {
		const h = await startHeadless();
		try {
			await writeVaultFile(h.dir, "a.md", "one\n");
			expect((await h.raw("/mcp/", { method: "POST", body: "{}" })).status).toBe(401);
			const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${h.port}/mcp/`), {
				requestInit: { headers: { Authorization: `Bearer ${TEST_KEY}` } },
			});
			const client = new Client({ name: "lra5-client", version: "1.0.0" });
			await client.connect(transport);
			const result = (await client.callTool({ name: "read_note", arguments: { path: "a.md" } })) as {
				content: { type: string; text?: string }[];
			};
			expect(result.content.map((block) => block.text ?? "").join("\n")).toContain("one");
			// The session opened on /mcp/ is the endpoint's: /mcp knows it too.
			const session = await h.api("/mcp", {
				method: "DELETE",
				headers: { "Mcp-Session-Id": transport.sessionId ?? "" },
			});
			expect(session.status).toBe(200);
			await client.close();
			expect(h.errors).toEqual([]);
		} finally {
			await h.close();
		}
	});
});
