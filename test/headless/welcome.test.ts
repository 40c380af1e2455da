/** `npm start`'s welcome text: the MCP URL beside the REST one, the connect lines, and the note the curl lines use. */
import { describe, expect, it } from "vitest";
import { claudeCommand, mcpClientJson, pickSampleNote, welcomeText } from "../../src/headless/welcome";

it("prints the MCP endpoint on the same port, under the unchanged REST API line", () => {
	const text = welcomeText({ folder: "/vault", port: 27125, key: "k", notes: 1, changed: 0, sampleNote: "a.md" });
	const lines = text.split("\n");
	const rest = lines.indexOf("  REST API: http://127.0.0.1:27125/");
	expect(rest).toBeGreaterThan(0);
	expect(lines[rest + 1]).toBe("  MCP:      http://127.0.0.1:27125/mcp");
});

describe("connecting an agent", () => {
	it("prints the Claude Code command and an MCP client's JSON for the port and key in use", () => {
		const text = welcomeText({
			folder: "/vault",
			port: 31234,
			key: "the-key_0123456789",
			notes: 1,
			changed: 0,
			sampleNote: "a.md",
		});
		const lines = text.split("\n").map((line) => line.trim());
		expect(lines).toContain(
			'claude mcp add --transport http revision-guard http://127.0.0.1:31234/mcp --header "Authorization: Bearer the-key_0123456789"',
		);
		expect(lines).toContain(
			'{"mcpServers":{"revision-guard":{"type":"http","url":"http://127.0.0.1:31234/mcp","headers":{"Authorization":"Bearer the-key_0123456789"}}}}',
		);
	});

	it("builds each line for any base and key", () => {
		expect(claudeCommand("http://127.0.0.1:1", "k")).toBe(
			'claude mcp add --transport http revision-guard http://127.0.0.1:1/mcp --header "Authorization: Bearer k"',
		);
		expect(JSON.parse(mcpClientJson("http://127.0.0.1:1", "k"))).toEqual({
			mcpServers: {
				"revision-guard": { type: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer k" } },
			},
		});
	});
});

describe("the note the curl lines use", () => {
	it("is never a .bak, even one that sorts first (Welcome.20261127-145516.bak.md before Welcome.md)", () => {
		expect(pickSampleNote(["Welcome.20261127-145516.bak.md", "Welcome.md", "Projects/Plan.md"], "")).toBe("Welcome.md");
		expect(pickSampleNote(["Welcome.20261127-145516.BAK.md", "Welcome.md"], "")).toBe("Welcome.md");
	});

	it("is never a note in the backup folder", () => {
		expect(pickSampleNote(["Agent backups/A.md", "Projects/Plan.md"], "Agent backups")).toBe("Projects/Plan.md");
	});

	it("is none when the folder holds only .bak notes (the text then shows a placeholder)", () => {
		expect(pickSampleNote(["Welcome.20261127-145516.bak.md"], "")).toBeNull();
	});

	it("is the shallowest note, then the first by name", () => {
		expect(pickSampleNote(["b/a.md", "z.md", "c.md"], "")).toBe("c.md");
	});
});
