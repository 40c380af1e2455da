/** The tool contract: exactly seven tools, each with input and output schemas, and descriptions that state the revision rule. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_ROUTES } from "../../src/host/api-server";
import { TOOL_NAMES } from "../../src/mcp/tools";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
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
	it("lists exactly the seven tools, each with an object inputSchema and outputSchema", async () => {
		const { tools } = await mcp.client.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(["append_note", "conflict_status", "delete_note", "list_notes", "note_changes", "read_note", "write_note"]);
		expect([...TOOL_NAMES].sort()).toEqual(tools.map((tool) => tool.name).sort());
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
		const inputs = (name: string) => ({ properties: Object.keys(byName[name]!.inputSchema.properties ?? {}).sort(), required: [...(byName[name]!.inputSchema.required ?? [])].sort() });
		const outputs = (name: string) => Object.keys(byName[name]!.outputSchema?.properties ?? {}).sort();
		expect(inputs("read_note")).toEqual({ properties: ["path"], required: ["path"] });
		expect(outputs("read_note")).toEqual(["content", "path", "revision"]);
		expect(inputs("write_note")).toEqual({ properties: ["allow_empty", "content", "merge", "path", "revision"], required: ["content", "path"] });
		expect(outputs("write_note")).toEqual(["created", "merged", "path", "revision"]);
		expect(inputs("append_note")).toEqual({ properties: ["content", "path"], required: ["content", "path"] });
		expect(outputs("append_note")).toEqual(["path", "revision"]);
		expect(inputs("delete_note")).toEqual({ properties: ["path", "revision"], required: ["path", "revision"] });
		expect(outputs("delete_note")).toEqual(["deleted", "path"]);
		expect(inputs("list_notes")).toEqual({ properties: ["folder"], required: [] });
		expect(outputs("list_notes")).toEqual(["folder", "folders", "notes"]);
		expect(inputs("note_changes")).toEqual({ properties: ["offset", "path", "since", "to"], required: ["path", "since"] });
		expect(outputs("note_changes")).toEqual(expect.arrayContaining(["diff", "path", "revision", "to", "truncated", "nextOffset"]));
		expect(inputs("conflict_status")).toEqual({ properties: ["id", "wait"], required: ["id"] });
		expect(outputs("conflict_status")).toEqual(expect.arrayContaining(["id", "path", "status", "backupPath", "resolvedRevision"]));
	});

	it("says plainly that writes need the revision from the last read, and offers merge: \"auto\"", async () => {
		const { tools } = await mcp.client.listTools();
		const description = (name: string) => tools.find((tool) => tool.name === name)?.description ?? "";
		for (const name of ["read_note", "write_note", "delete_note"]) {
			expect(description(name), name).toMatch(/revision from your last read/);
		}
		expect(description("read_note")).toContain("write_note");
		expect(description("write_note")).toContain("`revision`");
		expect(description("write_note")).toContain('merge: "auto"');
		expect(description("list_notes")).toContain("Not recursive");
		expect(mcp.client.getInstructions()).toContain("every write to an existing note needs the revision from your last read");
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
