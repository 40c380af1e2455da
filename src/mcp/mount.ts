/**
 * MCP (Streamable HTTP) mounted on the API server at /mcp. The endpoint, and with it the MCP SDK (most of the
 * bundle), is loaded on the first /mcp request, so Obsidian does not pay for evaluating it at every start.
 */
import type { Mount } from "../http/mount";
import { json } from "../http/response";
import type { AgentNotes } from "../service/notes/agent-notes";
import type { McpEndpoint } from "./endpoint";
import { MCP_ROUTE } from "./route";
import type { SessionOptions } from "./sessions";

export interface McpMount extends Mount {
	/** Sessions open now (0 before the first /mcp request loaded the endpoint). */
	sessionCount(): Promise<number>;
}

export function mcpMount(notes: AgentNotes, options: SessionOptions = {}): McpMount {
	let endpoint: Promise<McpEndpoint> | null = null;
	return {
		route: MCP_ROUTE,
		async handle(request, response, agent, cors) {
			endpoint ??= import("./endpoint").then(({ McpEndpoint }) => new McpEndpoint(notes, options));
			return (await endpoint).handle(request, response, agent, cors);
		},
		// Answered here, without loading the endpoint: a JSON-RPC error, as MCP clients expect, over a 503.
		startingUp(detail, retryAfter) {
			return json(
				503,
				{ jsonrpc: "2.0", error: { code: STARTING_UP, message: detail }, id: null },
				{ "Retry-After": String(retryAfter) },
			);
		},
		async close() {
			await (await endpoint)?.close();
		},
		async sessionCount() {
			return endpoint ? (await endpoint).sessions.size : 0;
		},
	};
}

/** JSON-RPC's implementation-defined range: the server cannot take the request yet, retry later. */
const STARTING_UP = -32002;
