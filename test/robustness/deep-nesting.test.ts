/**
 * Nothing a note or a request contains may take the process down. Deeply nested YAML in a note's frontmatter once
 * crashed the whole process with an out-of-memory error in V8's regular-expression compiler (no try/catch can stop
 * that); a deeply nested JSON body was a 500. Each is answered now, and the server keeps serving.
 */
import { describe, expect, it } from "vitest";
import { eachHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { call } from "../helpers/http-client";
import { readVaultFile, writeVaultFile } from "../helpers/vault-files";

let h: Harness;
eachHeadless((harness) => (h = harness), {}, { noServerErrors: true });

const DEEP_YAML = `---\ntags: ${"[".repeat(60_000)}\n---\n# Body\n\nfirst paragraph\n\nlast paragraph\n`;

describe("deeply nested input", () => {
	it("serves a note whose frontmatter nests 60,000 deep, with frontmatter null and a warning", async () => {
		await writeVaultFile(h.dir, "Deep.md", DEEP_YAML);
		const read = await h.api("/vault/Deep.md", { headers: { Accept: "application/vnd.olrapi.note+json" } });
		expect(read.status, read.text.slice(0, 300)).toBe(200);
		const body = read.json<{ content: string; frontmatter: unknown; warnings: string[]; tags: string[] }>();
		expect(body.content === DEEP_YAML).toBe(true);
		expect(body.frontmatter).toBeNull();
		expect(body.warnings[0]).toMatch(/nested too deeply/);
		expect((await h.api("/")).status).toBe(200);
	});

	it("refuses a frontmatter PATCH of such a note (400) and leaves it alone", async () => {
		await writeVaultFile(h.dir, "Deep.md", DEEP_YAML);
		const etag = (await h.api("/vault/Deep.md")).headers.etag as string;
		const patch = await h.api("/vault/Deep.md", {
			method: "PATCH",
			body: "x",
			headers: {
				"If-Match": etag,
				"Markdown-Patch-Version": "1",
				Operation: "replace",
				"Target-Type": "frontmatter",
				Target: "title",
			},
		});
		expect(patch.status, patch.text.slice(0, 300)).toBe(400);
		expect((await readVaultFile(h.dir, "Deep.md")).toString() === DEEP_YAML).toBe(true);
	});

	it("merges such notes line by line instead of parsing their frontmatter", async () => {
		await writeVaultFile(h.dir, "Deep.md", DEEP_YAML);
		const etag = (await h.api("/vault/Deep.md")).headers.etag as string;
		await writeVaultFile(h.dir, "Deep.md", DEEP_YAML + "the person's line\n");
		const put = await h.api("/vault/Deep.md", {
			method: "PUT",
			body: DEEP_YAML.replace("# Body", "# Body by the agent"),
			headers: { "If-Match": etag, Prefer: "merge=auto" },
		});
		expect(put.status, put.text.slice(0, 300)).toBe(200);
		const merged = (await readVaultFile(h.dir, "Deep.md")).toString();
		expect(merged.endsWith("# Body by the agent\n\nfirst paragraph\n\nlast paragraph\nthe person's line\n")).toBe(true);
	});

	it.each([
		[200_000, /too large/],
		[100_000, /nested more than 64 levels/],
	])("answers a PATCH whose JSON value nests %i deep with 400", async (depth, reason) => {
		await writeVaultFile(h.dir, "Note.md", "---\ntitle: a\n---\n");
		const etag = (await h.api("/vault/Note.md")).headers.etag as string;
		const deep = "[".repeat(depth) + "]".repeat(depth);
		const patch = await h.api("/vault/Note.md", {
			method: "PATCH",
			body: deep,
			headers: {
				"If-Match": etag,
				"Markdown-Patch-Version": "1",
				Operation: "replace",
				"Target-Type": "frontmatter",
				Target: "title",
				"Content-Type": "application/json",
			},
		});
		expect(patch.status, patch.text.slice(0, 300)).toBe(400);
		expect(patch.json<{ detail: string }>().detail).toMatch(reason);
		expect((await readVaultFile(h.dir, "Note.md")).toString()).toBe("---\ntitle: a\n---\n");
	});

	it("answers an MCP message that nests 200,000 deep with a JSON-RPC parse error", async () => {
		const deep = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
		const res = await call(h.port, "/mcp", {
			method: "POST",
			body: deep,
			headers: {
				Authorization: `Bearer ${TEST_KEY}`,
				"Content-Type": "application/json",
				Accept: "application/json, text/event-stream",
			},
		});
		expect(res.status).toBe(400);
		expect(res.json<{ error: { code: number } }>().error.code).toBe(-32700);
	});
});
