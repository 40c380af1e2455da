/**
 * The tool contract: exactly seventeen tools listed headless (more inside Obsidian: tool-visibility.test.ts), each with input
 * and output schemas, the MCP 2025-11-25 annotations clients use to decide what needs a person's approval, and
 * descriptions that state the revision rule and which tool to use.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_ROUTES } from "../../src/host/api-server";
import { TOOL_NAMES } from "../../src/mcp/tools";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { allFiles, sha256Token, visibleFiles, writeVaultFile } from "../helpers/vault-files";
import { connect, type Connected } from "./mcp-client";

let h: Harness;
let mcp: Connected;
beforeAll(async () => {
	h = await startHeadless();
	mcp = await connect(h.port, TEST_KEY);
});
afterAll(async () => {
	await mcp.close();
	await h.close();
});

describe("tools/list", () => {
	it("lists exactly the seventeen tools headless (the note tools, search and periodic_note), each with an object inputSchema and outputSchema", async () => {
		const { tools } = await mcp.client.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual([
			"append_note",
			"conflict_status",
			"copy_note",
			"delete_note",
			"edit_note",
			"list_notes",
			"list_tags",
			"move_note",
			"note_changes",
			"note_outline",
			"patch_note",
			"periodic_note",
			"proposal_status",
			"query_notes",
			"read_note",
			"search_notes",
			"write_note",
		]);
		expect([...TOOL_NAMES, "periodic_note"].sort()).toEqual(tools.map((tool) => tool.name).sort());
		for (const tool of tools) {
			expect(tool.inputSchema.type, tool.name).toBe("object");
			expect(tool.outputSchema?.type, tool.name).toBe("object");
			expect(Object.keys(tool.outputSchema?.properties ?? {}).length, tool.name).toBeGreaterThan(0);
			expect(tool.description?.length, tool.name).toBeGreaterThan(40);
		}
	});

	it("declares the documented inputs and outputs", async () => {
		const { tools } = await mcp.client.listTools();
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
		const inputs = (name: string) => ({
			properties: Object.keys(byName[name]!.inputSchema.properties ?? {}).sort(),
			required: [...(byName[name]!.inputSchema.required ?? [])].sort(),
		});
		const outputs = (name: string) => Object.keys(byName[name]!.outputSchema?.properties ?? {}).sort();
		expect(inputs("read_note")).toEqual({ properties: ["path"], required: ["path"] });
		expect(outputs("read_note")).toEqual(["content", "path", "revision"]);
		expect(inputs("note_outline")).toEqual({ properties: ["path"], required: ["path"] });
		expect(outputs("note_outline")).toEqual([
			"blocks",
			"frontmatterFields",
			"headings",
			"path",
			"revision",
			"truncated",
		]);
		expect(inputs("edit_note")).toEqual({ properties: ["edits", "path", "revision"], required: ["edits", "path"] });
		// A tool that changes content may answer a proposal instead (issue 24): proposalId, status and backupPath.
		expect(outputs("edit_note")).toEqual(["backupPath", "path", "proposalId", "revision", "status"]);
		const edit = byName.edit_note!.inputSchema.properties!.edits as {
			items: { properties: Record<string, unknown>; required: string[] };
			maxItems: number;
		};
		expect(Object.keys(edit.items.properties).sort()).toEqual(["new_string", "old_string", "replace_all"]);
		expect(edit.items.required.sort()).toEqual(["new_string", "old_string"]);
		expect(edit.maxItems).toBe(100);
		expect(inputs("patch_note")).toEqual({
			properties: [
				"content",
				"create_target_if_missing",
				"destination",
				"json",
				"operation",
				"path",
				"reject_if_content_preexists",
				"revision",
				"scope",
				"target",
				"target_type",
				"within",
			],
			required: ["operation", "path", "target", "target_type"],
		});
		expect(outputs("patch_note")).toEqual(["backupPath", "path", "proposalId", "revision", "status", "warnings"]);
		expect(inputs("write_note")).toEqual({
			properties: ["allow_empty", "content", "merge", "path", "revision"],
			required: ["content", "path"],
		});
		expect(outputs("write_note")).toEqual([
			"backupPath",
			"created",
			"mergeRules",
			"merged",
			"path",
			"proposalId",
			"revision",
			"status",
		]);
		expect(inputs("append_note")).toEqual({ properties: ["content", "path"], required: ["content", "path"] });
		expect(outputs("append_note")).toEqual(["backupPath", "path", "proposalId", "revision", "status"]);
		expect(inputs("delete_note")).toEqual({ properties: ["path", "revision"], required: ["path", "revision"] });
		expect(outputs("delete_note")).toEqual(["deleted", "path"]);
		expect(inputs("move_note")).toEqual({
			properties: ["destination", "destination_revision", "overwrite", "path", "revision"],
			required: ["destination", "path"],
		});
		expect(outputs("move_note")).toEqual(["changeTag", "from", "path", "revision", "rewritten"]);
		expect(inputs("copy_note")).toEqual({
			properties: ["destination", "destination_revision", "overwrite", "path", "revision"],
			required: ["destination", "path"],
		});
		expect(outputs("copy_note")).toEqual(["changeTag", "created", "from", "path", "revision"]);
		expect(inputs("list_notes")).toEqual({ properties: ["folder"], required: [] });
		expect(outputs("list_notes")).toEqual(["folder", "folders", "notes"]);
		expect(inputs("note_changes")).toEqual({
			properties: ["offset", "path", "since", "to"],
			required: ["path", "since"],
		});
		expect(outputs("note_changes")).toEqual(
			expect.arrayContaining(["diff", "path", "revision", "to", "truncated", "nextOffset"]),
		);
		expect(inputs("conflict_status")).toEqual({ properties: ["id", "wait"], required: ["id"] });
		expect(outputs("conflict_status")).toEqual(
			expect.arrayContaining(["id", "path", "status", "backupPath", "resolvedRevision"]),
		);
		expect(inputs("proposal_status")).toEqual({ properties: ["id", "wait"], required: ["id"] });
		expect(outputs("proposal_status")).toEqual(
			expect.arrayContaining(["id", "path", "status", "backupPath", "note", "acceptedRevision"]),
		);
		expect(inputs("list_tags")).toEqual({ properties: ["after", "limit"], required: [] });
		expect(outputs("list_tags")).toEqual(["next", "tags"]);
		expect(inputs("search_notes")).toEqual({
			properties: ["context_length", "cursor", "include_backups", "limit", "query"],
			required: ["query"],
		});
		expect(outputs("search_notes")).toEqual(["nextCursor", "results", "total"]);
		expect(inputs("query_notes")).toEqual({
			properties: ["cursor", "dql", "include_backups", "limit", "logic"],
			required: [],
		});
		expect(outputs("query_notes")).toEqual(["nextCursor", "results", "total"]);
	});

	it('says plainly that writes need the revision from the last read, and offers merge: "auto"', async () => {
		const { tools } = await mcp.client.listTools();
		const description = (name: string) => tools.find((tool) => tool.name === name)?.description ?? "";
		for (const name of ["read_note", "write_note", "patch_note", "delete_note", "move_note"]) {
			expect(description(name), name).toMatch(/revision from your last read/);
		}
		expect(description("read_note")).toContain("write_note");
		expect(description("write_note")).toContain("`revision`");
		expect(description("write_note")).toContain('merge: "auto"');
		expect(description("list_notes")).toContain("Not recursive");
		expect(mcp.client.getInstructions()).toContain(
			"Replacing, patching or deleting an existing note needs the revision from your last read",
		);
	});

	it("tells the agent when to use edit_note, patch_note or write_note", async () => {
		const { tools } = await mcp.client.listTools();
		const description = (name: string) => tools.find((tool) => tool.name === name)?.description ?? "";
		expect(description("edit_note")).toContain("No revision is needed");
		expect(description("edit_note")).toContain("$& and $$ are plain text");
		expect(description("edit_note")).toMatch(/replace a whole note, use write_note/);
		expect(description("patch_note")).toMatch(/edit_note needs no revision; to replace the whole note, use write_note/);
		expect(description("write_note")).toMatch(/To change only part of a note, prefer edit_note .* or patch_note/);
		expect(description("read_note")).toContain("edit_note needs none");
		for (const name of ["edit_note", "patch_note", "write_note", "append_note"])
			expect(mcp.client.getInstructions(), name).toContain(name);
	});

	it("annotates every tool as MCP 2025-11-25 defines: closed world; reads read-only; replacing writes destructive; only delete and move idempotent", async () => {
		const { tools } = await mcp.client.listTools();
		const annotations = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
		const reads = { readOnlyHint: true, openWorldHint: false };
		const rewrites = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
		expect(annotations).toEqual({
			read_note: reads,
			note_outline: reads,
			list_notes: reads,
			note_changes: reads,
			conflict_status: reads,
			proposal_status: reads,
			list_tags: reads,
			search_notes: reads,
			query_notes: reads,
			write_note: rewrites,
			patch_note: rewrites,
			edit_note: rewrites,
			append_note: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
			delete_note: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
			move_note: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
			copy_note: rewrites,
			// It may create the note from its template (adding only), and a repeat finds it made.
			periodic_note: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
		});
		// Each tool keeps its human title.
		for (const tool of tools) expect(tool.title, tool.name).toMatch(/^[A-Z][a-z]/);
	});
});

describe("what the idempotent hints promise", () => {
	it("a repeated delete_note has no further effect: the note is gone, or changed and then nothing is kept", async () => {
		await writeVaultFile(h.dir, "Gone.md", "bye\n");
		const args = { path: "Gone.md", revision: sha256Token("bye\n") };
		expect((await mcp.tool("delete_note", args)).structured).toEqual({ path: "Gone.md", deleted: true });
		const trashed = (await allFiles(h.dir)).filter((path) => path.startsWith(".trash/"));
		expect((await mcp.tool("delete_note", args)).details).toMatchObject({ error: "note-not-found" });
		await writeVaultFile(h.dir, "Gone.md", "back, changed\n");
		expect((await mcp.tool("delete_note", args)).details).toMatchObject({ error: "stale-revision" });
		expect((await visibleFiles(h.dir)).filter((path) => path.startsWith("Gone"))).toEqual(["Gone.md"]);
		expect((await allFiles(h.dir)).filter((path) => path.startsWith(".trash/"))).toEqual(trashed);
		expect(h.guard.conflicts.list().filter((record) => record.path === "Gone.md")).toEqual([]);
	});

	it("a repeated move_note has no further effect: the note is gone from its path", async () => {
		await writeVaultFile(h.dir, "Here.md", "move me\n");
		const args = { path: "Here.md", destination: "There.md", revision: sha256Token("move me\n") };
		expect((await mcp.tool("move_note", args)).isError).toBe(false);
		expect((await mcp.tool("move_note", args)).details).toMatchObject({ error: "note-not-found" });
		expect((await visibleFiles(h.dir)).filter((path) => path.startsWith("Here") || path.startsWith("There"))).toEqual([
			"There.md",
		]);
	});

	it("a repeated write_note is not idempotent: after someone else's change, the same call leaves a .bak and a conflict", async () => {
		await writeVaultFile(h.dir, "Same.md", "one\n");
		const args = { path: "Same.md", content: "mine\n", revision: sha256Token("one\n") };
		expect((await mcp.tool("write_note", args)).isError).toBe(false);
		expect((await mcp.tool("write_note", args)).isError).toBe(false); // unchanged: nothing happens
		await writeVaultFile(h.dir, "Same.md", "theirs\n");
		const again = await mcp.tool("write_note", args);
		expect(again.details).toMatchObject({ error: "stale-revision", backupPath: expect.stringContaining(".bak") });
		// (The other program's save dropped the agent's "mine": the outside-save net may record that too, on its own.)
		expect(
			h.guard.conflicts.list().filter((record) => record.path === "Same.md" && record.source !== "outside"),
		).toHaveLength(1);
	});
});

describe("the OpenAPI document", () => {
	it("lists /mcp with GET, POST and DELETE, and the route table has it (so the OpenAPI test checks both ways)", async () => {
		const doc = (await h.api("/openapi.json")).json<{ paths: Record<string, Record<string, { summary: string }>> }>();
		expect(Object.keys(doc.paths["/mcp"] ?? {}).sort()).toEqual(["delete", "get", "post"]);
		for (const operation of Object.values(doc.paths["/mcp"]!)) expect(operation.summary).toContain("MCP");
		const route = HOST_ROUTES.find((entry) => entry.template === "/mcp");
		expect(Object.keys(route?.handlers ?? {}).sort()).toEqual(["DELETE", "GET", "POST"]);
		expect(route?.public).toBeFalsy();
	});
});
