/**
 * LRA 5.1's PATCH option headers, carried out as LRA defines them, over BOTH gateways: Target-Scope (renames,
 * whole sections, moves), Within, Destination, Reject-If-Content-Preexists and its older opposite
 * Apply-If-Content-Preexists, Trim-Target-Whitespace, and the Markdown-Patch-Warnings answer. Issue 22 refused these
 * (400 unsupported-header); issue 23 implements them, so these tests now assert what they do. A header a format has
 * no meaning for is still refused by name, never ignored.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { visibleFiles, writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../stacks";

forbidServerErrors();

const NOTE = "---\nstatus: draft\n---\n# Plan\n\n## Delta\n\ndelta body stays\n\n## Log\n- one\n";
const EDITED = NOTE.replace("delta body stays", "delta body, edited by the person");

function expectRefused(
	res: CallResult,
	status: number,
	type: string,
): { detail: string; header?: string; backupPath?: string } {
	expect(res.status, res.text).toBe(status);
	expect(res.json()).toMatchObject({ type: `/problems/${type}` });
	return res.json();
}

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("PATCH option headers over the %s gateway", (name) => {
	let dir: string;
	let s: Stack;
	let etag: string;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-patch-headers-"));
		await writeVaultFile(dir, "Plan.md", NOTE);
		await writeVaultFile(dir, "Keys.md", "---\ntitle: A\ntags: [x]\n---\nbody\n");
		s = await STACKS[name](dir);
		etag = (await s.api("/vault/Plan.md")).headers.etag as string;
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});
	const note = () => s.file("Plan.md");
	const url = (body: string, headers: Record<string, string>, path = "/vault/Plan.md/heading/Plan/Delta") =>
		s.api(path, { method: "PATCH", body, headers: { "If-Match": etag, ...headers } });
	const instruction = (fields: Record<string, unknown>, headers: Record<string, string> = {}) =>
		s.api("/vault/Plan.md", {
			method: "PATCH",
			body: JSON.stringify({ ifMatch: etag, ...fields }),
			headers: { "Content-Type": "application/json", ...headers },
		});

	describe("Target-Scope", () => {
		it("marker renames a heading from a URL target (raw-content mode), keeping its level and body", async () => {
			const res = await url("Echo", {
				Operation: "replace",
				"Target-Scope": "marker",
				"Content-Type": "text/markdown",
			});
			expect(res.status, res.text).toBe(200);
			expect(res.text).toBe(NOTE.replace("## Delta", "## Echo"));
			expect(await note()).toBe(NOTE.replace("## Delta", "## Echo"));
		});

		it("marker takes the whole heading line in format 1 (the 1.x rename)", async () => {
			const res = await s.api("/vault/Plan.md", {
				method: "PATCH",
				body: "### Echo\n",
				headers: {
					"If-Match": etag,
					"Markdown-Patch-Version": "1",
					Operation: "replace",
					"Target-Type": "heading",
					Target: "Plan::Delta",
					"Target-Scope": "marker",
				},
			});
			expect(res.status, res.text).toBe(200);
			expect(await note()).toBe(NOTE.replace("## Delta", "### Echo"));
		});

		it("markerAndContent deletes a whole section, and parent is refused in format 1 (a format 2 move)", async () => {
			expect((await url("", { Operation: "delete", "Target-Scope": "markerAndContent" })).status).toBe(200);
			expect(await note()).toBe(NOTE.replace("## Delta\n\ndelta body stays\n\n", ""));
			const format1 = await s.api("/vault/Plan.md", {
				method: "PATCH",
				body: "x",
				headers: {
					"Markdown-Patch-Version": "1",
					Operation: "replace",
					"Target-Type": "heading",
					Target: "Plan::Log",
					"Target-Scope": "parent",
				},
			});
			expect(expectRefused(format1, 400, "invalid-patch-instruction").detail).toMatch(/format 2 only/);
		});

		it("narrows a GET of a part: marker reads the label, markerAndContent the whole node as a replace takes it", async () => {
			const marker = await s.api("/vault/Plan.md/heading/Plan/Log", { headers: { "Target-Scope": "marker" } });
			expect(marker.status, marker.text).toBe(200);
			expect(marker.text).toBe("Log");
			expect(
				(await s.api("/vault/Plan.md/heading/Plan/Log", { headers: { "Target-Scope": "markerAndContent" } })).text,
			).toBe("# Log\n- one\n");
			expect(
				(await s.api("/vault/Plan.md/frontmatter/status", { headers: { "Target-Scope": "markerAndContent" } })).json(),
			).toEqual({ status: "draft" });
			expectRefused(
				await s.api("/vault/Plan.md/heading/Plan/Log", { headers: { "Target-Scope": "parent" } }),
				400,
				"invalid-patch-instruction",
			);
		});

		it("is refused by name where it has no meaning: beside a JSON instruction, on a PUT of a URL target", async () => {
			const refusals = [
				await instruction(
					{ targetType: "heading", target: ["Plan", "Log"], operation: "append", content: "x" },
					{ "Target-Scope": "marker" },
				),
				await s.api("/vault/Plan.md/heading/Plan/Log", {
					method: "PUT",
					body: "x\n",
					headers: { "If-Match": etag, "Target-Scope": "markerAndContent" },
				}),
			];
			for (const res of refusals) expect(expectRefused(res, 400, "unsupported-header").header).toBe("Target-Scope");
			expectRefused(
				await url("x", { Operation: "replace", "Target-Scope": "label" }),
				400,
				"invalid-patch-instruction",
			);
			expect(await note()).toBe(NOTE);
		});

		it("refuses a stale rename with 412 and keeps the renamed note as .bak; a part token (the document map's version) passes", async () => {
			await s.edit("Plan.md", EDITED);
			const stale = expectRefused(
				await url("Echo", { Operation: "replace", "Target-Scope": "marker" }),
				412,
				"stale-revision",
			);
			expect(await s.file(stale.backupPath!)).toBe(EDITED.replace("## Delta", "## Echo"));
			expect(await note()).toBe(EDITED);
			const { version } = (
				await s.api("/vault/Plan.md", { headers: { Accept: "application/vnd.olrapi.document-map+json" } })
			).json<{ version: string }>();
			const res = await s.api("/vault/Plan.md/heading/Plan/Delta", {
				method: "PATCH",
				body: "Echo",
				headers: { "If-Match": version, Operation: "replace", "Target-Scope": "marker" },
			});
			expect(res.status, res.text).toBe(200);
			expect(await note()).toBe(EDITED.replace("## Delta", "## Echo"));
		});
	});

	describe("Within and Destination", () => {
		it("Within splices the body literally into one block of the section's own body", async () => {
			const res = await url(" more", { Operation: "append", Within: "-1" }, "/vault/Plan.md/heading/Plan/Log");
			expect(res.status, res.text).toBe(200);
			expect(await note()).toBe(NOTE.replace("- one\n", "- one more\n"));
		});

		it("Within out of range is 404, and a malformed Within 400, writing nothing", async () => {
			expect(
				expectRefused(await url("x", { Operation: "append", Within: "5" }), 404, "target-not-found").detail,
			).toMatch(/out of range/);
			expectRefused(await url("x", { Operation: "append", Within: "first" }), 400, "invalid-patch-instruction");
			expect(await note()).toBe(NOTE);
		});

		it("Destination moves a heading section (Target-Scope: parent, no body)", async () => {
			const destination = encodeURIComponent(JSON.stringify({ parent: ["Plan"], place: "last" }));
			const res = await url("", { Operation: "replace", "Target-Scope": "parent", Destination: destination });
			expect(res.status, res.text).toBe(200);
			expect(await note()).toBe("---\nstatus: draft\n---\n# Plan\n\n## Log\n- one\n\n## Delta\n\ndelta body stays\n");
		});

		it.each(["Within", "Destination"])(
			"refuses %s in format 1 and beside a JSON instruction, by name",
			async (header) => {
				const format1 = await s.api("/vault/Plan.md", {
					method: "PATCH",
					body: "x\n",
					headers: {
						"If-Match": etag,
						"Markdown-Patch-Version": "1",
						Operation: "append",
						"Target-Type": "heading",
						Target: "Plan::Log",
						[header]: "1",
					},
				});
				expect(expectRefused(format1, 400, "unsupported-header").header).toBe(header);
				const json = await instruction(
					{ targetType: "heading", target: ["Plan", "Log"], operation: "append", content: "x" },
					{ [header]: "1" },
				);
				expect(expectRefused(json, 400, "unsupported-header").header).toBe(header);
				expect(await note()).toBe(NOTE);
			},
		);
	});

	describe("Reject-If-Content-Preexists and Apply-If-Content-Preexists", () => {
		it("refuses text already in the target with 409 (format 2), and adds text that is not", async () => {
			const again = await s.api("/vault/Plan.md/heading/Plan/Log", {
				method: "POST",
				body: "- one\n",
				headers: { "If-Match": etag, "Reject-If-Content-Preexists": "true" },
			});
			expect(expectRefused(again, 409, "content-preexists").detail).toMatch(/already in the target/);
			expect(await note()).toBe(NOTE);
			const fresh = await s.api("/vault/Plan.md/heading/Plan/Log", {
				method: "POST",
				body: "- two\n",
				headers: { "If-Match": etag, "Reject-If-Content-Preexists": "true" },
			});
			expect(fresh.status, fresh.text).toBe(200);
			expect(await note()).toBe(NOTE.replace("- one\n", "- one\n- two\n"));
		});

		it("refuses it in format 1 (400, as 1.x does) with Reject-If-Content-Preexists: true or Apply-If-Content-Preexists: false", async () => {
			const headers = {
				"If-Match": etag,
				"Markdown-Patch-Version": "1",
				Operation: "append",
				"Target-Type": "heading",
				Target: "Plan::Log",
			};
			const guards: Record<string, string>[] = [
				{ "Reject-If-Content-Preexists": "true" },
				{ "Apply-If-Content-Preexists": "false" },
			];
			for (const extra of guards) {
				const res = await s.api("/vault/Plan.md", {
					method: "PATCH",
					body: "- one\n",
					headers: { ...headers, ...extra },
				});
				expect(expectRefused(res, 400, "invalid-patch")).toMatchObject({ reason: "content-preexists" });
			}
			expect(await note()).toBe(NOTE);
			const res = await s.api("/vault/Plan.md", {
				method: "PATCH",
				body: "- one\n",
				headers: { ...headers, "Apply-If-Content-Preexists": "true" },
			});
			expect(res.status, res.text).toBe(200);
			expect(await note()).toBe(NOTE.replace("- one\n", "- one\n- one\n"));
		});

		it("takes rejectIfContentPreexists in a JSON instruction, and refuses the header beside one", async () => {
			expectRefused(
				await instruction({
					targetType: "heading",
					target: ["Plan", "Log"],
					operation: "append",
					content: "- one",
					rejectIfContentPreexists: true,
				}),
				409,
				"content-preexists",
			);
			expect(
				expectRefused(
					await instruction(
						{ targetType: "heading", target: ["Plan", "Log"], operation: "append", content: "- two" },
						{ "Reject-If-Content-Preexists": "true" },
					),
					400,
					"unsupported-header",
				).header,
			).toBe("Reject-If-Content-Preexists");
			expectRefused(
				await url("x", { Operation: "append", "Reject-If-Content-Preexists": "maybe" }),
				400,
				"invalid-patch-instruction",
			);
			expect(await note()).toBe(NOTE);
		});
	});

	describe("Trim-Target-Whitespace", () => {
		it("drops the blank line between heading and body on a format 1 prepend", async () => {
			const res = await s.api("/vault/Plan.md", {
				method: "PATCH",
				body: "first\n",
				headers: {
					"If-Match": etag,
					"Markdown-Patch-Version": "1",
					Operation: "prepend",
					"Target-Type": "heading",
					Target: "Plan::Delta",
					"Trim-Target-Whitespace": "true",
				},
			});
			expect(res.status, res.text).toBe(200);
			expect(await note()).toBe(NOTE.replace("## Delta\n\ndelta", "## Delta\nfirst\ndelta"));
		});

		it("is refused in format 2 (the engine owns the whitespace there, as in LRA 5.1) and when neither true nor false", async () => {
			expect(
				expectRefused(
					await url("x", { Operation: "append", "Trim-Target-Whitespace": "true" }),
					400,
					"unsupported-header",
				).header,
			).toBe("Trim-Target-Whitespace");
			const format1 = await s.api("/vault/Plan.md", {
				method: "PATCH",
				body: "x",
				headers: {
					"If-Match": etag,
					"Markdown-Patch-Version": "1",
					Operation: "append",
					"Target-Type": "heading",
					Target: "Plan::Log",
					"Trim-Target-Whitespace": "maybe",
				},
			});
			expectRefused(format1, 400, "invalid-patch-instruction");
			expect(await note()).toBe(NOTE);
			// false asks for nothing a JSON instruction does not do.
			const json = await instruction(
				{ targetType: "heading", target: ["Plan", "Log"], operation: "append", content: "- two" },
				{ "Trim-Target-Whitespace": "false" },
			);
			expect(json.status, json.text).toBe(200);
		});
	});

	describe("what LRA 5.1 answers besides", () => {
		it("sends Markdown-Patch-Warnings (percent-encoded JSON) when a heading is capped at level 6", async () => {
			const res = await instruction({
				targetType: "heading",
				target: ["Plan", "Delta"],
				operation: "replace",
				content: "##### deep",
			});
			expect(res.status, res.text).toBe(200);
			const warnings = JSON.parse(decodeURIComponent(res.headers["markdown-patch-warnings"] as string)) as {
				code: string;
			}[];
			expect(warnings[0]!.code).toBe("heading-depth-overflow");
			expect(await note()).toContain("###### deep\n");
			const plain = await instruction(
				{ targetType: "heading", target: ["Plan", "Log"], operation: "append", content: "- two" },
				{ "If-Match": res.headers.etag as string },
			);
			expect(plain.headers["markdown-patch-warnings"]).toBeUndefined();
		});

		it("answers a whole instruction sent to a URL target with 422, writing nothing", async () => {
			const res = await s.api("/vault/Plan.md/heading/Plan/Log", {
				method: "PATCH",
				body: JSON.stringify({ targetType: "heading", target: ["Plan", "Log"], operation: "append", content: "x" }),
				headers: { "If-Match": etag, "Content-Type": "application/vnd.olrapi.patch-instruction+json" },
			});
			expectRefused(res, 422, "conflicting-target");
			expect(await note()).toBe(NOTE);
		});

		it("refuses a frontmatter rename onto an existing key with 409, and writes no .bak for it", async () => {
			const tag = (await s.api("/vault/Keys.md")).headers.etag as string;
			const res = await s.api("/vault/Keys.md", {
				method: "PATCH",
				body: JSON.stringify({
					targetType: "frontmatter",
					target: "title",
					operation: "replace",
					scope: "marker",
					content: "tags",
					ifMatch: tag,
				}),
				headers: { "Content-Type": "application/json" },
			});
			expectRefused(res, 409, "target-exists");
			expect((await visibleFiles(dir)).filter((path) => path.endsWith(".bak.md"))).toEqual([]);
		});
	});
});
