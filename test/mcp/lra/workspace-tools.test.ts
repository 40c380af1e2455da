/**
 * active_file_get_path, command_list, command_execute, open_file and periodic_note_get_path as the Local REST API's
 * MCP clients call them: errors headless (no Obsidian), and inside Obsidian through the same service as REST, a
 * command running only for an allowed key.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import type { App } from "../../obsidian-stub";
import type { Connected } from "../mcp-client";
import type { Subject } from "../subjects";
import { eachLraSubject, jsonOf } from "./lra-client";

describe("Local REST API workspace tools headless", () => {
	let mcp: Connected;
	let s: Subject;
	eachLraSubject("node filesystem", {}, (subject, client) => {
		s = subject;
		mcp = client;
	});

	it("answers errors for what only Obsidian has, naming the plain folder", async () => {
		for (const [tool, args] of [
			["active_file_get_path", {}],
			["command_list", {}],
			["command_execute", { commandId: "editor:save-file" }],
			["open_file", { path: "Plan.md" }],
		] as const) {
			const result = await mcp.tool(tool, args);
			expect(result.isError, tool).toBe(true);
			expect(result.prose, tool).toMatch(/plain folder|active editor/);
		}
	});

	it("periodic_note_get_path names today's note and creates it (the headless default format)", async () => {
		const { path } = jsonOf<{ path: string }>(await mcp.tool("periodic_note_get_path", { period: "yearly" }));
		expect(path).toBe(`${new Date().getFullYear()}.md`);
		expect(await readFile(join(s.dir, path), "utf8")).toBe("");
	});
});

describe("Local REST API workspace tools in Obsidian", () => {
	let mcp: Connected;
	let s: Subject;
	eachLraSubject("obsidian", { "Plan.md": "# Plan\n" }, (subject, client) => {
		s = subject;
		mcp = client;
	});
	const app = (): App => s.app!;

	it("lists commands, runs one only once the key is allowed, and credits its change to the key", async () => {
		app().commands.addCommand({
			id: "test:stamp",
			name: "Stamp",
			callback: () => app().vault.process(app().vault.getFileByPath("Plan.md")!, (text) => `${text}stamped\n`),
		});
		expect(jsonOf<{ commands: { id: string }[] }>(await mcp.tool("command_list", {})).commands).toEqual([
			{ id: "test:stamp", name: "Stamp" },
		]);
		const refused = await mcp.tool("command_execute", { commandId: "test:stamp" });
		expect(refused.isError).toBe(true);
		expect(refused.prose).toMatch(/^Refused: the key "test-agent" may not run Obsidian commands/);
		s.settings.commandKeys = ["test-agent"];
		expect(jsonOf(await mcp.tool("command_execute", { commandId: "test:stamp" }))).toEqual({
			message: "OK",
			changed: [{ path: "Plan.md", change: "modified", undoable: false }],
		});
		expect(await readFile(join(s.dir, "Plan.md"), "utf8")).toBe("# Plan\nstamped\n");
		expect((await mcp.tool("command_execute", { commandId: "no-such" })).isError).toBe(true);
	});

	it("opens a note, and says which is active", async () => {
		expect(jsonOf(await mcp.tool("open_file", { path: "Plan.md", newLeaf: true }))).toEqual({ message: "OK" });
		expect((await mcp.tool("open_file", { path: "Missing.md" })).isError).toBe(true);
		expect((await mcp.tool("active_file_get_path", {})).isError).toBe(true);
		app().openEditor("Plan.md");
		expect(jsonOf(await mcp.tool("active_file_get_path", {}))).toEqual({ path: "Plan.md" });
	});
});
