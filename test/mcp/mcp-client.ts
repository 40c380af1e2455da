/** The official SDK client against our server on 127.0.0.1, plus raw JSON-RPC calls for what a well-behaved client never sends. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { call, type CallResult } from "../helpers/http-client";

export interface Connected {
	client: Client;
	transport: StreamableHTTPClientTransport;
	/** Calls a tool and returns its result (tool errors included, as isError results). */
	tool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
	close(): Promise<void>;
}

export interface ToolResult {
	isError: boolean;
	/** The text of every content block, joined. */
	text: string;
	/** The first text block (the prose, for errors). */
	prose: string;
	structured: Record<string, unknown> | undefined;
	/** The facts a tool error adds as a second, JSON text block. */
	details: Record<string, unknown> | undefined;
}

export async function connect(port: number, key: string, headers: Record<string, string> = {}): Promise<Connected> {
	const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}`, ...headers } } });
	const client = new Client({ name: "revision-guard-test", version: "1.0.0" });
	await client.connect(transport);
	return {
		client,
		transport,
		async tool(name, args) {
			const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
			const texts = result.content.filter((block) => block.type === "text").map((block) => block.text);
			return {
				isError: result.isError === true,
				text: texts.join("\n"),
				prose: texts[0] ?? "",
				structured: result.structuredContent,
				details: result.isError && texts[1] !== undefined ? (JSON.parse(texts[1]) as Record<string, unknown>) : undefined,
			};
		},
		async close() {
			await client.close();
		},
	};
}

export const MCP_ACCEPT = "application/json, text/event-stream";

export const INITIALIZE = {
	jsonrpc: "2.0",
	id: 1,
	method: "initialize",
	params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** POSTs one JSON-RPC message (or raw text) to /mcp with our own HTTP client, so every header is ours to choose. */
export function postMcp(port: number, body: unknown, headers: Record<string, string> = {}): Promise<CallResult> {
	return call(port, "/mcp", {
		method: "POST",
		headers: { "Content-Type": "application/json", Accept: MCP_ACCEPT, ...headers },
		body: typeof body === "string" ? body : JSON.stringify(body),
	});
}

/** Opens a session by hand: initialize, then the initialized notification; returns the session id. */
export async function rawSession(port: number, key: string): Promise<string> {
	const auth = { Authorization: `Bearer ${key}` };
	const init = await postMcp(port, INITIALIZE, auth);
	if (init.status !== 200) throw new Error(`initialize answered ${init.status}: ${init.text}`);
	const id = init.headers["mcp-session-id"] as string;
	const ready = await postMcp(port, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...auth, "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" });
	if (ready.status !== 202) throw new Error(`initialized answered ${ready.status}: ${ready.text}`);
	return id;
}
