// @vitest-environment happy-dom
/**
 * MCP through the BUILT main.js (run `npm run build` first; `npm test` does), loaded as Obsidian loads it: the bundle
 * may require only `obsidian`, `electron` and Node built-ins, so the SDK must be bundled, and its transport must work
 * with the page's globals (happy-dom's here, as Electron's are in Obsidian).
 */
import { mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { isBuiltin } from "module";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { App } from "../obsidian-stub";
import { loadBuiltPlugin, requiredByPlugin, type LoadedPlugin } from "../helpers/built-plugin";
import { sha256Token } from "../helpers/vault-files";
import { postMcp, rawSession } from "./mcp-client";

const KEY = "e2e-key-0123456789abcdef0123456789abcdef";

let dir: string;
let plugin: LoadedPlugin;
let port: number;
const required = requiredByPlugin;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-mcp-e2e-"));
	await writeFile(join(dir, "Plan.md"), "# Plan\n\n- first\n");
	const app = new App(dir);
	plugin = loadBuiltPlugin(app);
	plugin.data = { port: 0, keys: [{ name: "e2e-agent", key: KEY, created: "2026-11-21T00:00:00Z" }] };
	await plugin.onload();
	app.workspace.triggerLayoutReady();
	for (let i = 0; i < 200 && !/127\.0\.0\.1:\d+/.test(plugin.serverStatus()); i++)
		await new Promise((resolve) => setTimeout(resolve, 25));
	port = Number(/127\.0\.0\.1:(\d+)/.exec(plugin.serverStatus())?.[1]);
});

afterEach(async () => {
	plugin.unload();
	await plugin.whenSettled();
	await rm(dir, { recursive: true, force: true });
});

it("serves MCP from the built plugin: read_note, then a stale write_note refused with a .bak, requiring no bundled-away package", async () => {
	const id = await rawSession(port, KEY);
	const headers = { Authorization: `Bearer ${KEY}`, "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" };
	const tool = async (name: string, args: Record<string, unknown>) => {
		const res = await postMcp(
			port,
			{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } },
			headers,
		);
		expect(res.status, res.text).toBe(200);
		return res.json<{
			result: { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] };
		}>().result;
	};
	const read = await tool("read_note", { path: "Plan.md" });
	expect(read.structuredContent).toEqual({
		path: "Plan.md",
		content: "# Plan\n\n- first\n",
		revision: sha256Token("# Plan\n\n- first\n"),
	});
	await writeFile(join(dir, "Plan.md"), "# Plan\n\n- first\n- the person's\n");
	const stale = await tool("write_note", { path: "Plan.md", content: "agent\n" });
	expect(stale.isError).toBe(true);
	const details = JSON.parse(stale.content[1]!.text) as { backupPath: string };
	expect(await readFile(join(dir, details.backupPath), "utf8")).toBe("agent\n");
	expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe("# Plan\n\n- first\n- the person's\n");
	expect(required.filter((name) => name !== "obsidian" && name !== "electron" && !isBuiltin(name))).toEqual([]);
});
