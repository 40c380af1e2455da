/** The official SDK client against our server on 127.0.0.1, plus raw JSON-RPC calls for what a well-behaved client never sends. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
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

/** `path`: where the endpoint is asked (/mcp/lra lists the Local REST API's tools). */
export async function connect(
	port: number,
	key: string,
	headers: Record<string, string> = {},
	fetch?: FetchLike,
	path = "/mcp",
): Promise<Connected> {
	const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}${path}`), {
		requestInit: { headers: { Authorization: `Bearer ${key}`, ...headers } },
		...(fetch ? { fetch } : {}),
	});
	const client = new Client({ name: "revision-guard-test", version: "1.0.0" });
	await client.connect(transport);
	return {
		client,
		transport,
		async tool(name, args) {
			return toolResult((await client.callTool({ name, arguments: args })) as CallToolResult);
		},
		async close() {
			await client.close();
		},
	};
}

/**
 * The SDK client as a stateless client (what the 2026 drafts make every client): it never sees the Mcp-Session-Id our
 * initialize answer announces, so it never sends one, and every later request is answered without a session.
 */
export function connectStateless(port: number, key: string): Promise<Connected> {
	// Our own HTTP client instead of fetch, with the session id taken out both ways. Answers are JSON (never streams).
	const withoutSessionIds: FetchLike = async (url, init) => {
		const headers = Object.fromEntries(new Headers(init?.headers).entries());
		delete headers["mcp-session-id"];
		const body = typeof init?.body === "string" ? { body: init.body } : {};
		const answer = await call(port, new URL(url).pathname, { method: init?.method ?? "GET", headers, ...body });
		const seen = new Headers();
		for (const [name, value] of Object.entries(answer.headers)) {
			if (name !== "mcp-session-id" && value !== undefined) for (const one of [value].flat()) seen.append(name, one);
		}
		const empty = answer.status === 202 || answer.status === 204;
		return new Response(empty ? null : answer.text, { status: answer.status, headers: seen });
	};
	return connect(port, key, {}, withoutSessionIds);
}

export function toolResult(result: CallToolResult): ToolResult {
	const texts = result.content.filter((block) => block.type === "text").map((block) => block.text);
	return {
		isError: result.isError === true,
		text: texts.join("\n"),
		prose: texts[0] ?? "",
		structured: result.structuredContent,
		details: result.isError && texts[1] !== undefined ? (JSON.parse(texts[1]) as Record<string, unknown>) : undefined,
	};
}

/** A tools/call message, for raw posts and batches. */
export function toolCall(id: number, name: string, args: Record<string, unknown>): Record<string, unknown> {
	return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** The tool results of a raw answer (one JSON-RPC response or a batch of them), in the order of their ids. */
export function toolResults(body: unknown): ToolResult[] {
	const responses = (Array.isArray(body) ? body : [body]) as { id: number; result: CallToolResult }[];
	return [...responses].sort((a, b) => a.id - b.id).map((response) => toolResult(response.result));
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
	const ready = await postMcp(
		port,
		{ jsonrpc: "2.0", method: "notifications/initialized" },
		{ ...auth, "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18" },
	);
	if (ready.status !== 202) throw new Error(`initialized answered ${ready.status}: ${ready.text}`);
	return id;
}
