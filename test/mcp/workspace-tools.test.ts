/** active_note, open_note, list_commands and run_command inside Obsidian (listed only there: tool-visibility.test.ts). */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { changeTagOf } from "../../src/core/revision-tokens";
import { sha256Token } from "../helpers/vault-files";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, type Subject } from "./subjects";

describe("workspace tools in Obsidian", () => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject("obsidian", { "Plan.md": "# Plan\n" }, (subject, client) => {
		s = subject;
		mcp = client;
	});

	it("active_note and open_note", async () => {
		expect((await mcp.tool("active_note", {})).isError).toBe(true);
		s.app!.openEditor("Plan.md");
		expect((await mcp.tool("active_note", {})).structured).toEqual({ path: "Plan.md" });
		expect((await mcp.tool("open_note", { path: "Plan.md", new_tab: true })).structured).toEqual({
			path: "Plan.md",
			opened: true,
		});
		expect(s.app!.workspace.openedIn).toEqual(["new"]);
		expect((await mcp.tool("open_note", { path: "Nope.md" })).isError).toBe(true);
	});

	it("run_command refuses a key not allowed, and for an allowed one lists what changed, with change tags", async () => {
		const app = s.app!;
		app.commands.addCommand({
			id: "test:stamp",
			name: "Stamp",
			callback: () => app.vault.process(app.vault.getFileByPath("Plan.md")!, (text) => `${text}stamped\n`),
		});
		expect((await mcp.tool("list_commands", {})).structured).toEqual({
			commands: [{ id: "test:stamp", name: "Stamp" }],
			allowed: false,
		});
		const refused = await mcp.tool("run_command", { id: "test:stamp" });
		expect(refused.prose).toContain("may not run Obsidian commands");
		s.settings.commandKeys = ["test-agent"];
		await mcp.tool("read_note", { path: "Plan.md" });
		const ran = await mcp.tool("run_command", { id: "test:stamp" });
		expect(ran.structured).toEqual({
			id: "test:stamp",
			changed: [
				{
					path: "Plan.md",
					change: "modified",
					undoable: true,
					changeTag: changeTagOf(sha256Token("# Plan\nstamped\n")),
				},
			],
		});
		expect(await readFile(join(s.dir, "Plan.md"), "utf8")).toBe("# Plan\nstamped\n");
	});
});

describe("workspace tools headless", () => {
	let mcp: Connected;
	eachMcpSubject("node filesystem", {}, (_subject, client) => {
		mcp = client;
	});

	it("answer that a plain folder has no Obsidian (they are not listed there, but callable)", async () => {
		for (const tool of ["list_commands", "open_note"]) {
			const result = await mcp.tool(tool, tool === "open_note" ? { path: "Plan.md" } : {});
			expect(result.prose, tool).toContain("plain folder");
		}
	});
});
