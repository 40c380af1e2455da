/**
 * Notes and conflicts as MCP resources, over both gateways, with the official SDK client: resources/list in bounded
 * pages with cursors (only what list_notes would serve, .bak notes included), resources/read of a note counting as
 * the session's read, and the resource links a stale write's refusal carries.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_KEY } from "../helpers/headless-harness";
import { sha256Token } from "../helpers/vault-files";
import { connectResources, partsOf, type ResourceClient } from "./resource-client";
import { SUBJECT_NAMES, SUBJECTS, type Subject } from "./subjects";

describe.each(SUBJECT_NAMES)("MCP resources over the %s gateway", (name) => {
	let s: Subject;
	let mcp: ResourceClient;
	beforeEach(async () => {
		s = await SUBJECTS[name]!();
		mcp = await connectResources(s.port, TEST_KEY);
	});
	afterEach(async () => {
		expect(s.errors).toEqual([]);
		await mcp.close();
		await s.close();
	});

	it("lists every served note in path order, in pages of at most 100 joined by cursors, and nothing the tools would not serve", async () => {
		const expected: string[] = [];
		for (let i = 0; i < 230; i++) {
			const path = `${i % 3 === 0 ? "Projects/" : ""}Note ${String(i).padStart(3, "0")} é.md`;
			await s.create(path, `# ${i}\n`);
			expected.push(path);
		}
		await s.create("picture.png", "not a note");
		await s.create(".hidden/secret.md", "hidden");
		expected.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

		const listed: string[] = [];
		let cursor: string | undefined;
		let pages = 0;
		do {
			const page = await mcp.client.listResources(cursor === undefined ? {} : { cursor });
			pages++;
			expect(page.resources.length).toBeLessThanOrEqual(100);
			for (const resource of page.resources) {
				// The first page opens with the OpenAPI document, as the Local REST API lists it (openapi-spec.test.ts).
				if (pages === 1 && resource === page.resources[0]) {
					expect(resource).toMatchObject({
						name: "openapi-spec",
						uri: "obsidian://local-rest-api/openapi.yaml",
						mimeType: "application/yaml",
					});
					continue;
				}
				expect(resource.uri).toBe(
					`revision-guard://note/${resource.name.split("/").map(encodeURIComponent).join("/")}`,
				);
				expect(resource.mimeType).toBe("text/markdown");
				expect(resource.size).toBe(Buffer.byteLength(`# ${Number(resource.name.match(/(\d{3})/)![1])}\n`));
				listed.push(resource.name);
			}
			cursor = page.nextCursor;
		} while (cursor !== undefined);
		expect(pages).toBe(3);
		expect(listed).toEqual(expected);
	});

	it("refuses a cursor it did not make", async () => {
		const error = await mcp.client.listResources({ cursor: "bm90IG91cnM" }).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(McpError);
		expect((error as McpError).code).toBe(-32602);
		expect((error as McpError).message).toContain("Invalid cursor");
	});

	it("reads a note with its revision, and the read counts as this session's read, as read_note's does", async () => {
		await s.create("Plan.md", "# Plan\n");
		// Without a read, a tokenless replace is refused: the session never saw the note.
		const unread = partsOf(await mcp.call("write_note", { path: "Plan.md", content: "# Plan\nmine\n" }));
		expect(unread.facts.error).toBe("precondition-required");

		const read = await mcp.client.readResource({ uri: "revision-guard://note/Plan.md" });
		expect(read.contents).toEqual([
			{
				uri: "revision-guard://note/Plan.md",
				mimeType: "text/markdown",
				text: "# Plan\n",
				_meta: { path: "Plan.md", revision: sha256Token("# Plan\n") },
			},
		]);
		const written = await mcp.call("write_note", { path: "Plan.md", content: "# Plan\nmine\n" });
		expect(written.isError).toBeFalsy();
		expect(written.structuredContent).toEqual({
			path: "Plan.md",
			revision: sha256Token("# Plan\nmine\n"),
			created: false,
		});
	});

	it("answers a URI it does not serve, a path outside the policy and a missing note with a protocol error naming the URI", async () => {
		for (const uri of [
			"file:///etc/passwd",
			"revision-guard://note/..%2Fescape.md",
			"revision-guard://note/.obsidian/app.json",
			"revision-guard://note/Missing.md",
			"revision-guard://note/%E0%A4%A.md",
		]) {
			const error = await mcp.client.readResource({ uri }).catch((caught: unknown) => caught);
			expect(error, uri).toBeInstanceOf(McpError);
			expect((error as McpError).code).toBe(-32602);
			expect((error as McpError).data).toEqual({ uri });
		}
	});

	it("announces the two URI templates", async () => {
		const { resourceTemplates } = await mcp.client.listResourceTemplates();
		expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
			"revision-guard://note/{+path}",
			"revision-guard://conflict/{id}",
		]);
	});

	it("links a stale write's refusal to the .bak, the conflict and the note, and each link reads back", async () => {
		await s.create("Plans/Q1 plan.md", "# Q1\n");
		const read = await mcp.call("read_note", { path: "Plans/Q1 plan.md" });
		const revision = (read.structuredContent as { revision: string }).revision;
		await s.edit("Plans/Q1 plan.md", "# Q1\nthe person's line\n");
		const refused = await mcp.call("write_note", {
			path: "Plans/Q1 plan.md",
			content: "# Q1\nthe agent's line\n",
			revision,
		});
		expect(refused.isError).toBe(true);
		const { prose, facts, links } = partsOf(refused);
		// The explanation stays: the links come after the prose and the facts.
		expect(prose).toContain("changed since you read it");
		expect(refused.content.slice(0, 2).map((block) => block.type)).toEqual(["text", "text"]);
		const backupPath = facts.backupPath as string;
		const conflictId = facts.conflictId as string;
		expect(links).toEqual([
			{
				uri: `revision-guard://note/${backupPath.split("/").map(encodeURIComponent).join("/")}`,
				name: backupPath,
				mimeType: "text/markdown",
			},
			{ uri: `revision-guard://conflict/${conflictId}`, name: `conflict ${conflictId}`, mimeType: "application/json" },
			{ uri: "revision-guard://note/Plans/Q1%20plan.md", name: "Plans/Q1 plan.md", mimeType: "text/markdown" },
		]);

		const backup = await mcp.client.readResource({ uri: links[0]!.uri });
		expect(backup.contents[0]).toMatchObject({ text: "# Q1\nthe agent's line\n", _meta: { path: backupPath } });
		const conflict = await mcp.client.readResource({ uri: links[1]!.uri });
		const record = conflict.contents[0]!;
		expect(record.mimeType).toBe("application/json");
		expect("text" in record && JSON.parse(record.text)).toMatchObject({
			id: conflictId,
			path: "Plans/Q1 plan.md",
			status: "open",
			backupPath,
			noteUri: links[2]!.uri,
			backupUri: links[0]!.uri,
		});
		const note = await mcp.client.readResource({ uri: links[2]!.uri });
		expect(note.contents[0]).toMatchObject({
			text: "# Q1\nthe person's line\n",
			_meta: { revision: sha256Token("# Q1\nthe person's line\n") },
		});

		// The .bak is listed (read-only, and said so) with the note.
		const listed = await mcp.client.listResources();
		expect(listed.resources.find((resource) => resource.name === backupPath)?.description).toContain("read-only");
		// A conflict that does not exist is a clear protocol error.
		const missing = await mcp.client
			.readResource({ uri: "revision-guard://conflict/nope" })
			.catch((caught: unknown) => caught);
		expect((missing as McpError).message).toContain('There is no conflict "nope"');
	});
});
