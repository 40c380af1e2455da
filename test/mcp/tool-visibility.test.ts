/**
 * Which tools an agent sees: our set at /mcp (and /mcp/), the Local REST API 5.1's at /mcp/lra; the other set stays
 * callable by name at either, so a script pinned to LRA's names works at /mcp without an agent seeing every tool twice.
 * Obsidian-only tools are listed only inside Obsidian, the command tools only for a key allowed to run commands.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../src/mcp/tools";
import { LRA_TOOL_NAMES } from "../../src/mcp/lra";
import { TEST_KEY } from "../helpers/headless-harness";
import { connect, connectStateless, type Connected } from "./mcp-client";
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
