/** `npm start` prints the MCP URL beside the REST one (whose line other tests parse, so it stays as it was). */
import { expect, it } from "vitest";
import { welcomeText } from "../../src/headless/welcome";

it("prints the MCP endpoint on the same port, under the unchanged REST API line", () => {
	const text = welcomeText({ folder: "/vault", port: 27125, key: "k", notes: 1, changed: 0, sampleNote: "a.md" });
	const lines = text.split("\n");
	const rest = lines.indexOf("  REST API: http://127.0.0.1:27125/");
	expect(rest).toBeGreaterThan(0);
	expect(lines[rest + 1]).toBe("  MCP:      http://127.0.0.1:27125/mcp");
});
