/**
 * Which tools an agent sees: our set at /mcp (and /mcp/), the Local REST API 5.1's at /mcp/lra; the other set stays
 * callable by name at either, so a script pinned to LRA's names works at /mcp without an agent seeing every tool twice.
 * Obsidian-only tools are listed only inside Obsidian, the command tools only for a key allowed to run commands.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../src/mcp/tools";
import { LRA_TOOL_NAMES } from "../../src/mcp/lra";
import { TEST_KEY } from "../helpers/headless-harness";
import { CALLABLE_TOOLS } from "../../src/mcp/tool-visibility";
import { WORKSPACE_TOOL_NAMES } from "../../src/mcp/tools/workspace-tools";
import { connect, connectStateless, type Connected } from "./mcp-client";
import { modern } from "./modern/modern-client";
import { SUBJECTS, SUBJECT_NAMES, type Subject } from "./subjects";

const OURS = [...TOOL_NAMES, "periodic_note"].sort();

let s: Subject;
const clients: Connected[] = [];
afterEach(async () => {
	for (const client of clients.splice(0)) await client.close();
	await s.close();
});

async function listed(path: string, stateless = false): Promise<string[]> {
	const client = stateless
		? await connectStateless(s.port, TEST_KEY)
		: await connect(s.port, TEST_KEY, {}, undefined, path);
	clients.push(client);
	return (await client.client.listTools()).tools.map((tool) => tool.name).sort();
}

describe("tools/list headless", () => {
	it("lists our tools at /mcp and /mcp/ (statelessly too), and only the Local REST API's at /mcp/lra", async () => {
		s = await SUBJECTS["node filesystem"]!();
		expect(await listed("/mcp")).toEqual(OURS);
		expect(await listed("/mcp/")).toEqual(OURS);
		expect(await listed("/mcp", true)).toEqual(OURS);
		expect(await listed("/mcp/lra")).toEqual([...LRA_TOOL_NAMES].sort());
		expect(await listed("/mcp/lra/")).toEqual([...LRA_TOOL_NAMES].sort());
	});
});

describe("tools/list in Obsidian", () => {
	it("adds active_note and open_note, and the command tools only once the key is allowed", async () => {
		s = await SUBJECTS.obsidian!();
		expect(await listed("/mcp")).toEqual([...OURS, "active_note", "open_note"].sort());
		s.settings.commandKeys = ["test-agent"];
		// Decided when the list is asked for: the same session sees the person's new choice.
		expect((await clients[0]!.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
			[...OURS, "active_note", "list_commands", "open_note", "run_command"].sort(),
		);
		expect(await listed("/mcp/lra")).toEqual([...LRA_TOOL_NAMES].sort());
	});
});

describe.each(SUBJECT_NAMES)("the set that is not listed, over the %s gateway", (name) => {
	it("is still callable by name: vault_list at /mcp, list_notes at /mcp/lra", async () => {
		s = await SUBJECTS[name]!();
		await s.create("Plan.md", "# Plan\n");
		const ours = await connect(s.port, TEST_KEY);
		const theirs = await connect(s.port, TEST_KEY, {}, undefined, "/mcp/lra");
		clients.push(ours, theirs);
		expect(JSON.parse((await ours.tool("vault_list", {})).text)).toEqual({ files: ["Plan.md"] });
		expect((await theirs.tool("list_notes", {})).structured).toMatchObject({ notes: [{ path: "Plan.md" }] });
	});

	it("gives /mcp/lra the Local REST API's instructions, /mcp ours", async () => {
		s = await SUBJECTS[name]!();
		const ours = await connect(s.port, TEST_KEY);
		const theirs = await connect(s.port, TEST_KEY, {}, undefined, "/mcp/lra");
		clients.push(ours, theirs);
		expect(ours.client.getInstructions()).toContain("read_note");
		expect(theirs.client.getInstructions()).toContain("vault_read");
	});
});

describe.each(SUBJECT_NAMES)("a call naming no tool of ours, over the %s gateway", (name) => {
	it("is the protocol error -32602 in every era, not a failed tool run", async () => {
		s = await SUBJECTS[name]!();
		const session = await connect(s.port, TEST_KEY);
		const stateless = await connectStateless(s.port, TEST_KEY);
		clients.push(session, stateless);
		for (const client of [session, stateless]) {
			await expect(client.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({
				code: -32602,
				message: expect.stringContaining("Unknown tool: no_such_tool") as unknown,
			});
		}
		const answer = await modern(s.port, "tools/call", { name: "no_such_tool", arguments: {} });
		expect(answer.result).toBeUndefined();
		expect(answer.error).toMatchObject({ code: -32602, message: "Unknown tool: no_such_tool" });
		// The tools it knows still run, the other set's included.
		expect((await session.tool("vault_list", {})).isError).toBe(false);
	});
});

describe("the tools a server answers to", () => {
	it("are exactly the tools every server registers, listed or not", async () => {
		s = await SUBJECTS.obsidian!();
		s.settings.commandKeys = ["test-agent"];
		const ours = await connect(s.port, TEST_KEY);
		const theirs = await connect(s.port, TEST_KEY, {}, undefined, "/mcp/lra");
		clients.push(ours, theirs);
		const listed = [
			...(await ours.client.listTools()).tools.map((tool) => tool.name),
			...(await theirs.client.listTools()).tools.map((tool) => tool.name),
		];
		expect([...CALLABLE_TOOLS].sort()).toEqual(listed.sort());
		expect([...CALLABLE_TOOLS]).toEqual(expect.arrayContaining([...WORKSPACE_TOOL_NAMES, ...LRA_TOOL_NAMES]));
	});
});
