/**
 * Where Revision Guard and the Local REST API 5.1 overlap, a client gets LRA's answer, over BOTH gateways: the same
 * status codes, the same `errorCode` (beside our problem fields, with our guidance at the start of `message`), the
 * same `Deprecation` header, JSON-encoded frontmatter values, markdown for `Accept: application/json`, and LRA's
 * refusals (header targeting without its version, JSON appended to a note, a write to a folder). Writes stay guarded.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CallResult } from "../helpers/http-client";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { sha256Token, visibleFiles, writeVaultFile } from "../helpers/vault-files";
import { STACKS, type Stack } from "./stacks";

forbidServerErrors();

const NOTE = [
	"---",
	"title: Weekly review",
	"priority: 3",
	"---",
	"# Review",
	"First point. ^first",
	"",
	"## Open",
	"- one",
	"",
	"# Later",
	"Nothing yet.",
	"",
].join("\n");
const PATH = "/vault/Work/Review.md";
const MARKDOWN = { "Content-Type": "text/markdown" };
const JSON_BODY = { "Content-Type": "application/json" };
const SUNSET = 'true; sunset-version="6.0"';

interface LraError {
	errorCode: number;
	message: string;
	type: string;
	status: number;
	detail: string;
}

function lraError(res: CallResult, status: number, errorCode: number): LraError {
	expect(res.status, res.text).toBe(status);
	const body = res.json<LraError>();
	expect(body.errorCode, res.text).toBe(errorCode);
	expect(typeof body.message).toBe("string");
	return body;
}

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])(
	"Local REST API 5.1's answers over the %s gateway",
	(name) => {
		let dir: string;
		let s: Stack;
		beforeEach(async () => {
			dir = await mkdtemp(join(tmpdir(), "rg-lra-answers-"));
			await writeVaultFile(dir, "Work/Review.md", NOTE);
			s = await STACKS[name](dir);
		});
		afterEach(async () => {
			await s.close();
			await rm(dir, { recursive: true, force: true });
		});
		const read = () => s.api(PATH);

		describe("creating a note", () => {
			it("answers PUT with 204 and the new note's revision in ETag, as LRA does", async () => {
				const res = await s.api("/vault/Work/New.md", { method: "PUT", body: "new\n", headers: MARKDOWN });
				expect(res.status, res.text).toBe(204);
				expect(res.text).toBe("");
				expect(res.headers.etag).toBe(`"${sha256Token("new\n")}"`);
				expect(await s.file("Work/New.md")).toBe("new\n");
			});

			it("answers a POST that creates the note with 204 and its revision", async () => {
				const res = await s.api("/vault/Work/Log.md", { method: "POST", body: "- first\n", headers: MARKDOWN });
				expect(res.status, res.text).toBe(204);
				expect(res.headers.etag).toBe(`"${sha256Token("- first\n")}"`);
			});

			it("still refuses to replace an existing note it never read (the guard is unchanged)", async () => {
				const res = await s.api(PATH, { method: "PUT", body: "gone\n", headers: MARKDOWN });
				expect(res.status).toBe(428);
				expect(await s.file("Work/Review.md")).toBe(NOTE);
			});
		});

		describe("error bodies", () => {
			it("carry LRA's errorCode and a message that starts with what happened and the next step", async () => {
				const res = await s.api("/vault/Work/Missing.md");
				const body = lraError(res, 404, 40400);
				expect(body).toMatchObject({ type: "/problems/note-not-found", status: 404 });
				expect(body.message.slice(0, 200)).toMatch(/^No such note\. Check the path/);
				expect(body.message).toContain(body.detail);
			});

			it("say 40101 for a missing key", async () => {
				const res = await s.api("/vault/", { headers: { Authorization: "Bearer not-a-key-0123456789abcdef" } });
				lraError(res, 401, 40101);
			});

			it("name a MOVE's missing, invalid or taken Destination with LRA's codes (40020, 40022, 40920)", async () => {
				const tag = (await s.api(PATH)).headers.etag as string;
				await writeVaultFile(dir, "Work/Taken.md", "taken\n");
				lraError(await s.api(PATH, { method: "MOVE", headers: { "If-Match": tag } }), 400, 40020);
				lraError(
					await s.api(PATH, { method: "MOVE", headers: { "If-Match": tag, Destination: "../outside.md" } }),
					400,
					40022,
				);
				lraError(
					await s.api(PATH, { method: "MOVE", headers: { "If-Match": tag, Destination: "Work/Taken.md" } }),
					409,
					40920,
				);
				expect(await s.file("Work/Review.md")).toBe(NOTE);
			});

			it("put the next step of a stale write within the first 200 characters", async () => {
				await read();
				await s.edit("Work/Review.md", NOTE.replace("- one", "- one\n- the person's"));
				const res = await s.api(PATH, { method: "PUT", body: NOTE + "agent\n", headers: MARKDOWN });
				const body = lraError(res, 412, 41200);
				expect(body.message.slice(0, 200)).toMatch(/changed since you read it\. Read the note again \(GET\)/);
			});
		});

		describe("1.x header PATCH", () => {
			it("answers 200 with the patched note and LRA's Deprecation header", async () => {
				await read();
				const res = await s.api(PATH, {
					method: "PATCH",
					body: "- two\n",
					headers: {
						...MARKDOWN,
						"Markdown-Patch-Version": "1",
						Operation: "append",
						"Target-Type": "heading",
						Target: encodeURIComponent("Review::Open"),
					},
				});
				expect(res.status, res.text).toBe(200);
				expect(res.headers.deprecation).toBe(SUNSET);
				const patched = NOTE.replace("- one\n", "- one\n- two\n");
				expect(res.text).toBe(patched);
				expect(res.headers.etag).toBe(`"${sha256Token(patched)}"`);
				expect(await s.file("Work/Review.md")).toBe(patched);
			});

			it("sends the Deprecation header on a 1.x refusal too", async () => {
				const res = await s.api(PATH, {
					method: "PATCH",
					body: "x\n",
					headers: { ...MARKDOWN, "Markdown-Patch-Version": "1", "Target-Type": "heading", Target: "Review" },
				});
				lraError(res, 400, 40056);
				expect(res.headers.deprecation).toBe(SUNSET);
			});

			it.each([
				[{ "Target-Type": "heading", Target: "Review" }, 40056],
				[{ Operation: "append", Target: "Review" }, 40053],
				[{ Operation: "sideways", "Target-Type": "heading", Target: "Review" }, 40057],
				[{ Operation: "append", "Target-Type": "paragraph", Target: "Review" }, 40054],
			])("names the missing or wrong header with LRA's code: %o → %i", async (headers, code) => {
				lraError(
					await s.api(PATH, {
						method: "PATCH",
						body: "x\n",
						headers: { ...MARKDOWN, "Markdown-Patch-Version": "1", ...headers },
					}),
					400,
					code,
				);
			});

			it("sends LRA's Deprecation on a version 1 document map and a version 1 header-targeted read", async () => {
				const map = await s.api(PATH, {
					headers: { Accept: "application/vnd.olrapi.document-map+json", "Markdown-Patch-Version": "1" },
				});
				expect(map.headers.deprecation).toBe(SUNSET);
				const part = await s.api(PATH, {
					headers: { "Markdown-Patch-Version": "1", "Target-Type": "heading", Target: "Review::Open" },
				});
				expect(part.status, part.text).toBe(200);
				expect(part.headers.deprecation).toBe(SUNSET);
				expect(part.text).toBe("- one\n");
			});

			it("sends no Deprecation on a 2.0 answer", async () => {
				await read();
				const res = await s.api(PATH, {
					method: "PATCH",
					body: JSON.stringify({ targetType: "heading", target: ["Later"], operation: "append", content: "x" }),
					headers: JSON_BODY,
				});
				expect(res.status, res.text).toBe(200);
				expect(res.headers.deprecation).toBeUndefined();
			});
		});

		describe("a PATCH answered with the whole patched note", () => {
			it("counts as the client's read of all of it: its next tokenless PUT is held to that, not refused as a part read", async () => {
				const map = await s.api(PATH, { headers: { Accept: "application/vnd.olrapi.document-map+json" } });
				const version = map.json<{ version: string }>().version;
				const patched = await s.api(`${PATH}/heading/Later`, {
					method: "PATCH",
					body: "More.\n",
					headers: { ...MARKDOWN, Operation: "append", "If-Match": version },
				});
				expect(patched.status, patched.text).toBe(200);
				const put = await s.api(PATH, { method: "PUT", body: "# Rewritten\n", headers: MARKDOWN });
				expect(put.status, put.text).toBe(204);
				expect(await s.file("Work/Review.md")).toBe("# Rewritten\n");
			});

			it("still refuses that PUT once someone else changed the note since", async () => {
				await s.api(PATH, { headers: { Accept: "application/vnd.olrapi.document-map+json" } });
				const patched = await s.api(PATH, {
					method: "PATCH",
					body: "x\n",
					headers: {
						...MARKDOWN,
						"Markdown-Patch-Version": "1",
						Operation: "append",
						"Target-Type": "heading",
						Target: "Later",
					},
				});
				expect(patched.status, patched.text).toBe(200);
				await s.edit("Work/Review.md", patched.text + "the person's line\n");
				const put = await s.api(PATH, { method: "PUT", body: "# Rewritten\n", headers: MARKDOWN });
				expect(put.status, put.text).toBe(412);
				expect(await s.file("Work/Review.md")).toBe(patched.text + "the person's line\n");
			});
		});

		describe("frontmatter values", () => {
			it("are JSON, a string included, from a URL target and from a 1.x header target", async () => {
				const url = await s.api(`${PATH}/frontmatter/title`);
				expect(url.status).toBe(200);
				expect(url.headers["content-type"]).toMatch(/^application\/json/);
				expect(JSON.parse(url.text)).toBe("Weekly review");
				const header = await s.api(PATH, {
					headers: { "Markdown-Patch-Version": "1", "Target-Type": "frontmatter", Target: "title" },
				});
				expect(JSON.parse(header.text)).toBe("Weekly review");
				expect(JSON.parse((await s.api(`${PATH}/frontmatter/priority`)).text)).toBe(3);
			});
		});

		describe("a folder", () => {
			it.each(["PUT", "POST", "PATCH", "DELETE"])("refuses %s with 405 (40510), nothing written", async (method) => {
				const res = await s.api("/vault/Work/", {
					method,
					body: method === "DELETE" ? undefined : "x\n",
					headers: MARKDOWN,
				});
				lraError(res, 405, 40510);
				expect(await visibleFiles(dir)).toEqual(["Work/Review.md"]);
			});
		});

		describe("PATCH status codes", () => {
			it("answers a 2.0 PATCH whose target is missing with 404", async () => {
				await read();
				const res = await s.api(PATH, {
					method: "PATCH",
					body: JSON.stringify({ targetType: "heading", target: ["Nowhere"], operation: "append", content: "x" }),
					headers: JSON_BODY,
				});
				lraError(res, 404, 40400);
				expect(await s.file("Work/Review.md")).toBe(NOTE);
			});

			it("answers a raw-content PATCH to a missing heading in the URL with 404", async () => {
				await read();
				const res = await s.api(`${PATH}/heading/Nowhere`, {
					method: "PATCH",
					body: "x",
					headers: { ...MARKDOWN, Operation: "append" },
				});
				lraError(res, 404, 40400);
			});

			it("refuses an instruction body sent to a URL target with 422 (42200)", async () => {
				await read();
				const res = await s.api(`${PATH}/heading/Later`, {
					method: "PATCH",
					body: JSON.stringify({ targetType: "heading", target: ["Later"], operation: "append", content: "x" }),
					headers: { "Content-Type": "application/vnd.olrapi.patch-instruction+json", Operation: "append" },
				});
				lraError(res, 422, 42200);
				expect(await s.file("Work/Review.md")).toBe(NOTE);
			});

			it("refuses an instruction body beside Target-Type/Target headers with 422 (42200)", async () => {
				const res = await s.api(PATH, {
					method: "PATCH",
					body: "{}",
					headers: {
						"Content-Type": "application/vnd.olrapi.patch-instruction+json",
						"Markdown-Patch-Version": "2",
						Operation: "append",
						"Target-Type": "heading",
						Target: encodeURIComponent('["Later"]'),
					},
				});
				lraError(res, 422, 42200);
			});

			it("takes the instruction content type alone as a JSON instruction", async () => {
				await read();
				const res = await s.api(PATH, {
					method: "PATCH",
					body: JSON.stringify({ targetType: "heading", target: ["Later"], operation: "append", content: "more" }),
					headers: { "Content-Type": "application/vnd.olrapi.patch-instruction+json" },
				});
				expect(res.status, res.text).toBe(200);
			});

			it("names a raw-content PATCH's missing or unknown Operation with LRA's code (40056, 40057)", async () => {
				lraError(await s.api(`${PATH}/heading/Later`, { method: "PATCH", body: "x", headers: MARKDOWN }), 400, 40056);
				lraError(
					await s.api(`${PATH}/heading/Later`, {
						method: "PATCH",
						body: "x",
						headers: { ...MARKDOWN, Operation: "sideways" },
					}),
					400,
					40057,
				);
				expect(await s.file("Work/Review.md")).toBe(NOTE);
			});

			it("names a malformed Within (40023), Target-Scope (40059) or Destination (40022) header with LRA's code", async () => {
				const raw = { ...MARKDOWN, Operation: "append" };
				lraError(
					await s.api(`${PATH}/heading/Later`, { method: "PATCH", body: "x", headers: { ...raw, Within: "1x" } }),
					400,
					40023,
				);
				lraError(
					await s.api(`${PATH}/heading/Later`, {
						method: "PATCH",
						body: "x",
						headers: { ...raw, "Target-Scope": "sideways" },
					}),
					400,
					40059,
				);
				lraError(await s.api(`${PATH}/heading/Later`, { headers: { "Target-Scope": "parent" } }), 400, 40059);
				lraError(
					await s.api(`${PATH}/heading/Later`, {
						method: "PATCH",
						headers: { Operation: "replace", "Target-Scope": "parent", Destination: "%7Bnot-json" },
					}),
					400,
					40022,
				);
				expect(await s.file("Work/Review.md")).toBe(NOTE);
			});

			it("refuses a malformed instruction with 40081 and an invalid version with 40082", async () => {
				lraError(
					await s.api(PATH, {
						method: "PATCH",
						body: JSON.stringify({ targetType: "paragraph", target: ["Later"], operation: "append", content: "x" }),
						headers: JSON_BODY,
					}),
					400,
					40081,
				);
				lraError(
					await s.api(PATH, { method: "PATCH", body: "{}", headers: { ...JSON_BODY, "Markdown-Patch-Version": "9" } }),
					400,
					40082,
				);
			});
		});

		describe("requests LRA refuses", () => {
			it("refuses header targeting on a GET, PUT or POST without Markdown-Patch-Version: 1 (40083)", async () => {
				const headers = { "Target-Type": "heading", Target: "Later" };
				lraError(await s.api(PATH, { headers }), 400, 40083);
				lraError(await s.api(PATH, { method: "PUT", body: "x\n", headers: { ...MARKDOWN, ...headers } }), 400, 40083);
				lraError(await s.api(PATH, { method: "POST", body: "x\n", headers: { ...MARKDOWN, ...headers } }), 400, 40083);
				expect(await s.file("Work/Review.md")).toBe(NOTE);
			});

			it("still does a header-targeted PUT under Markdown-Patch-Version: 1, marked deprecated", async () => {
				await read();
				const res = await s.api(PATH, {
					method: "PUT",
					body: "Something now.\n",
					headers: { ...MARKDOWN, "Markdown-Patch-Version": "1", "Target-Type": "heading", Target: "Later" },
				});
				expect(res.status, res.text).toBe(200);
				expect(res.headers.deprecation).toBe(SUNSET);
				expect(await s.file("Work/Review.md")).toBe(NOTE.replace("Nothing yet.\n", "Something now.\n"));
			});

			it("refuses a header-targeted PATCH that names no version (40084): the headers mean different things in 1 and 2", async () => {
				await read();
				const res = await s.api(PATH, {
					method: "PATCH",
					body: "x\n",
					headers: { ...MARKDOWN, Operation: "append", "Target-Type": "heading", Target: "Later" },
				});
				const body = lraError(res, 400, 40084);
				expect(body.message).toContain("Markdown-Patch-Version: 1");
				expect(await s.file("Work/Review.md")).toBe(NOTE);
			});

			it("never appends a JSON body to a note (40010)", async () => {
				await read();
				const res = await s.api(PATH, { method: "POST", body: JSON.stringify({ data: "value" }), headers: JSON_BODY });
				lraError(res, 400, 40010);
				expect(await s.file("Work/Review.md")).toBe(NOTE);
			});

			it("still appends a body sent without a Content-Type, or as curl sends a file", async () => {
				expect((await s.api("/vault/Work/Log.md", { method: "POST", body: "- a\n" })).status).toBe(204);
				expect(
					(
						await s.api("/vault/Work/Log.md", {
							method: "POST",
							body: "- b\n",
							headers: { "Content-Type": "application/x-www-form-urlencoded" },
						})
					).status,
				).toBe(204);
				expect(await s.file("Work/Log.md")).toBe("- a\n- b\n");
			});
		});

		describe("a heading or block id repeated", () => {
			const DUPLICATES = "x ^dup\n\ny ^dup\n\n# Notes\n\nfirst\n\n# Notes\n\nsecond\n\n# Notes\n\nthird\n";
			const MAP = { Accept: "application/vnd.olrapi.document-map+json" };

			it("gets a key of its own at each occurrence in the map, each reachable by a URL target", async () => {
				await s.edit("Dup.md", DUPLICATES);
				const map = (await s.api("/vault/Dup.md", { headers: MAP })).json<{
					headings: Record<string, unknown>;
					blocks: string[];
				}>();
				const keys = Object.keys(map.headings);
				expect(keys).toHaveLength(3);
				expect(keys[0]).toBe("Notes");
				expect(new Set(keys).size).toBe(3);
				const bodies = [];
				for (const key of keys)
					bodies.push((await s.api(`/vault/Dup.md/heading/${encodeURIComponent(key)}`)).text.trim());
				expect(bodies).toEqual(["first", "second", "third"]);
				expect(map.blocks).toHaveLength(2);
				expect((await s.api(`/vault/Dup.md/block/${encodeURIComponent(map.blocks[1]!)}`)).text.trim()).toBe("y");
			});

			it("is patched at the occurrence its key names, and only there", async () => {
				await s.edit("Dup.md", DUPLICATES);
				const map = (await s.api("/vault/Dup.md", { headers: MAP })).json<{
					headings: Record<string, unknown>;
					version: string;
				}>();
				const third = Object.keys(map.headings)[2]!;
				const res = await s.api("/vault/Dup.md", {
					method: "PATCH",
					body: JSON.stringify({
						targetType: "heading",
						target: [third],
						operation: "replace",
						content: "replaced third",
						ifMatch: map.version,
					}),
					headers: JSON_BODY,
				});
				expect(res.status, res.text).toBe(200);
				expect(await s.file("Dup.md")).toBe(DUPLICATES.replace("\n\nthird\n", "\nreplaced third\n"));
			});
		});

		describe("malformed frontmatter YAML", () => {
			const BROKEN = "---\npurpose: one: two\n---\n# Heading\nText.\n";
			it("refuses a frontmatter PATCH with 400 (40005), nothing written", async () => {
				await s.edit("Broken.md", BROKEN);
				await s.api("/vault/Broken.md");
				const res = await s.api("/vault/Broken.md", {
					method: "PATCH",
					body: JSON.stringify({ targetType: "frontmatter", target: "purpose", operation: "replace", value: "x" }),
					headers: JSON_BODY,
				});
				lraError(res, 400, 40005);
				expect(await s.file("Broken.md")).toBe(BROKEN);
			});

			it("refuses reading a frontmatter value from it with 400 (40005)", async () => {
				await s.edit("Broken.md", BROKEN);
				lraError(await s.api("/vault/Broken.md/frontmatter/purpose"), 400, 40005);
			});
		});

		describe("Accept", () => {
			it.each(["application/json", "application/json, text/plain, */*"])(
				"%s gets the markdown, as from LRA",
				async (accept) => {
					const res = await s.api(PATH, { headers: { Accept: accept } });
					expect(res.status).toBe(200);
					expect(res.headers["content-type"]).toBe("text/markdown; charset=utf-8");
					expect(res.text).toBe(NOTE);
				},
			);

			it("application/vnd.olrapi.note+json gets the note JSON", async () => {
				const res = await s.api(PATH, { headers: { Accept: "application/vnd.olrapi.note+json" } });
				expect(res.headers["content-type"]).toBe("application/vnd.olrapi.note+json; charset=utf-8");
				expect(res.json()).toMatchObject({
					path: "Work/Review.md",
					content: NOTE,
					frontmatter: { title: "Weekly review", priority: 3 },
				});
			});
		});

		describe("GET /", () => {
			it("carries the fields LRA clients read, with and without a key", async () => {
				const open = await s.api("/", { headers: { Authorization: "" } });
				expect(open.json()).toMatchObject({
					status: "OK",
					authenticated: false,
					versions: { obsidian: expect.any(String), self: expect.any(String) },
					service: expect.any(String),
				});
				const keyed = await s.api("/");
				expect(keyed.json()).toMatchObject({
					status: "OK",
					authenticated: true,
					versions: { obsidian: expect.any(String), self: expect.any(String) },
					manifest: { id: "revision-guard", version: expect.any(String) },
				});
			});
		});
	},
);
