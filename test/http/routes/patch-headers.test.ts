/**
 * The Local REST API's PATCH headers this API does not carry out are refused by name (400 unsupported-header), in
 * every format a request can name a part of a note in: a header that changes what a request does is honoured or
 * refused, never ignored.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { eachHeadless, type Harness } from "../../helpers/headless-harness";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { readVaultFile, writeVaultFile } from "../../helpers/vault-files";

forbidServerErrors();

const NOTE = "---\nstatus: draft\n---\n# Plan\n\n## Delta\ndelta body stays\n\n## Log\n- one\n";

let h: Harness;
eachHeadless((harness) => (h = harness));

const note = async () => (await readVaultFile(h.dir, "Plan.md")).toString("utf8");

function expectRefused(res: CallResult, header: string): void {
	expect(res.status, res.text).toBe(400);
	expect(res.json()).toMatchObject({ type: "/problems/unsupported-header", header });
	expect(res.json<{ detail: string }>().detail).toContain(header);
}

describe("PATCH headers this API does not carry out", () => {
	let etag: string;
	beforeEach(async () => {
		await writeVaultFile(h.dir, "Plan.md", NOTE);
		etag = (await h.api("/vault/Plan.md")).headers.etag as string;
	});

	it("refuses Target-Scope: marker (a 1.x heading rename) instead of replacing the section's body", async () => {
		const res = await h.api("/vault/Plan.md", { method: "PATCH", body: "Echo", headers: { "If-Match": etag, "Markdown-Patch-Version": "1", Operation: "replace", "Target-Type": "heading", Target: "Plan::Delta", "Target-Scope": "marker" } });
		expectRefused(res, "Target-Scope");
		expect(await note()).toBe(NOTE);
	});

	it("refuses Reject-If-Content-Preexists: true, so a retried append is never applied twice unasked", async () => {
		const headers = { "If-Match": etag, "Markdown-Patch-Version": "1", Operation: "append", "Target-Type": "heading", Target: "Plan::Log", "Reject-If-Content-Preexists": "true" };
		expectRefused(await h.api("/vault/Plan.md", { method: "PATCH", body: "- two\n", headers }), "Reject-If-Content-Preexists");
		expectRefused(await h.api("/vault/Plan.md/heading/Plan/Log", { method: "POST", body: "- two\n", headers: { "If-Match": etag, "Reject-If-Content-Preexists": "true" } }), "Reject-If-Content-Preexists");
		expect(await note()).toBe(NOTE);
		// false asks for nothing this API does not do.
		const plain = await h.api("/vault/Plan.md", { method: "PATCH", body: "- two\n", headers: { ...headers, "Reject-If-Content-Preexists": "false" } });
		expect(plain.status, plain.text).toBe(200);
	});

	it("honours Apply-If-Content-Preexists: true (what it always does) and refuses false", async () => {
		const headers = { "If-Match": etag, "Markdown-Patch-Version": "1", Operation: "append", "Target-Type": "heading", Target: "Plan::Log" };
		expectRefused(await h.api("/vault/Plan.md", { method: "PATCH", body: "- two\n", headers: { ...headers, "Apply-If-Content-Preexists": "false" } }), "Apply-If-Content-Preexists");
		expect((await h.api("/vault/Plan.md", { method: "PATCH", body: "- two\n", headers: { ...headers, "Apply-If-Content-Preexists": "true" } })).status).toBe(200);
	});

	it.each([
		["Within", "1"],
		["Destination", "Other"],
		["Target-Scope", "markerAndContent"],
	])("refuses %s in every format that names a part", async (header, value) => {
		const formats: [string, Parameters<Harness["api"]>[1]][] = [
			["/vault/Plan.md", { method: "PATCH", body: "x\n", headers: { "If-Match": etag, "Markdown-Patch-Version": "1", Operation: "append", "Target-Type": "heading", Target: "Plan::Log", [header]: value } }],
			["/vault/Plan.md", { method: "PATCH", body: "x\n", headers: { "If-Match": etag, "Markdown-Patch-Version": "2", Operation: "append", "Target-Type": "heading", Target: encodeURIComponent('["Plan", "Log"]'), [header]: value } }],
			["/vault/Plan.md/heading/Plan/Log", { method: "PATCH", body: "x\n", headers: { "If-Match": etag, Operation: "append", [header]: value } }],
			["/vault/Plan.md/heading/Plan/Log", { headers: { [header]: value } }],
			["/vault/Plan.md", { method: "PUT", body: "x\n", headers: { "If-Match": etag, "Markdown-Patch-Version": "1", "Target-Type": "heading", Target: "Plan::Log", [header]: value } }],
			["/vault/Plan.md", { method: "PATCH", body: JSON.stringify({ targetType: "heading", target: ["Plan", "Log"], operation: "append", content: "x\n", ifMatch: etag }), headers: { "Content-Type": "application/json", [header]: value } }],
		];
		for (const [url, options] of formats) expectRefused(await h.api(url, options), header);
		expect(await note()).toBe(NOTE);
	});

	it("accepts Target-Scope: content, the default", async () => {
		const res = await h.api("/vault/Plan.md", { method: "PATCH", body: "- two\n", headers: { "If-Match": etag, "Markdown-Patch-Version": "1", Operation: "append", "Target-Type": "heading", Target: "Plan::Log", "Target-Scope": "content" } });
		expect(res.status, res.text).toBe(200);
		expect(await note()).toBe(NOTE.replace("- one\n", "- one\n- two\n"));
	});

	it("takes Trim-Target-Whitespace true or false (targets never begin or end with whitespace), and refuses anything else", async () => {
		const headers = { "If-Match": etag, "Markdown-Patch-Version": "1", Operation: "replace", "Target-Type": "frontmatter", Target: "status" };
		expectRefused(await h.api("/vault/Plan.md", { method: "PATCH", body: "done", headers: { ...headers, "Trim-Target-Whitespace": "maybe" } }), "Trim-Target-Whitespace");
		const res = await h.api("/vault/Plan.md", { method: "PATCH", body: "done", headers: { ...headers, "Trim-Target-Whitespace": "false" } });
		expect(res.status, res.text).toBe(200);
		expect(await note()).toContain("status: done");
	});
});
