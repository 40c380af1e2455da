/**
 * The skill file agents load (skills/revision-guard/SKILL.md) stays true to the commands: the frontmatter Claude Code
 * and Codex read, and every command and argument its examples use exists.
 */
import { readFileSync } from "fs";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { CLI_COMMANDS } from "../../src/cli/commands";

const SKILL = readFileSync(join(__dirname, "../../skills/revision-guard/SKILL.md"), "utf8");

describe("the skill file", () => {
	it("starts with the frontmatter skills need: a name matching its folder and a bounded description", () => {
		const match = /^---\nname: ([a-z0-9-]+)\ndescription: (.+)\n---\n/.exec(SKILL);
		expect(match?.[1]).toBe("revision-guard");
		expect(match![2]!.length).toBeLessThanOrEqual(1024);
		expect(match![2]).toContain("revision-guard:read");
	});

	it("uses only commands and arguments that exist", () => {
		const commandLines = SKILL.split("\n").flatMap((line) => [
			...line.matchAll(/obsidian (?:vault="[^"]*" )?revision-guard:(\w+)((?: [^`]*)?)/g),
		]);
		expect(commandLines.length).toBeGreaterThan(10);
		for (const [line, action, rest] of commandLines) {
			const command = CLI_COMMANDS.find((candidate) => candidate.action === action);
			expect(command, line).toBeDefined();
			for (const [, name] of (rest ?? "").matchAll(/(?:^| )([a-z0-9]+)=/g))
				expect(Object.keys(command!.flags), `${name}= in: ${line}`).toContain(name);
		}
		for (const action of CLI_COMMANDS.map((command) => command.action))
			expect(SKILL).toContain(`revision-guard:${action}`);
	});

	it("forbids the unguarded ways to change a note", () => {
		expect(SKILL).toMatch(/Never use `obsidian create \.\.\. overwrite`/);
	});
});
