/**
 * The HTTP glue of MCP (Streamable HTTP, POST/GET/DELETE /mcp). The API server calls it after its Host, Origin and
 * key checks; here the body is read under the same cap as REST, the request is matched to its session (which must
 * belong to the same key), and the SDK's transport answers it.
 */
import type { IncomingMessage, ServerResponse } from "http";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { jsonRefusal } from "../core/nesting";
import { bodyTextOrRefuse } from "../http/body";
import { problem, Problem } from "../http/problems";
import { json, type ApiResponse } from "../http/response";
import { clientIdOf } from "../http/security";
import type { AgentNotes } from "../service/agent-notes";
import type { AgentKey } from "../settings";
import { McpSessions, type McpSession, type SessionOptions } from "./sessions";

/** Deeper than any tool call's arguments need, far shallower than what a recursive step chokes on. */
const MAX_MESSAGE_NESTING = 128;
const ALLOW = "GET, POST, DELETE";

export class McpEndpoint {
	readonly sessions: McpSessions;

	constructor(
		private readonly notes: AgentNotes,
		options: SessionOptions = {},
	) {
		this.sessions = new McpSessions(notes, options);
	}

	/** Answers an authenticated /mcp request: an ApiResponse for the server to send, or null once the transport has answered. */
	async handle(request: IncomingMessage, response: ServerResponse, agent: AgentKey, cors: Record<string, string>): Promise<ApiResponse | null> {
		const method = request.method ?? "GET";
		if (method !== "GET" && method !== "POST" && method !== "DELETE") {
			return problem("method-not-allowed", `${method} is not allowed on /mcp; use ${ALLOW} (MCP Streamable HTTP).`, {}, { Allow: ALLOW });
		}
		let body: unknown = undefined;
		if (method === "POST") {
			body = await this.readMessage(request);
		}
		const owner = clientIdOf(agent.key);
		const id = headerValue(request, "mcp-session-id");
		let session: McpSession | null;
		if (id === undefined) {
			const initializes = Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
			if (!initializes) return jsonRpcError(400, -32000, "Bad Request: no Mcp-Session-Id header. Start a session with an initialize request, then send its Mcp-Session-Id on every request.");
			session = await this.sessions.open(owner, agent.name);
		} else {
			// Another key's session is answered exactly like an unknown one, so a session id reveals nothing to other keys.
			session = this.sessions.find(id, owner);
			if (!session) return jsonRpcError(404, -32001, "Session not found: it ended, expired, or was opened with another key. Start a new session with an initialize request.");
		}
		session.agent = agent.name;
		for (const [name, value] of Object.entries(cors)) response.setHeader(name, value);
		if (cors["Access-Control-Allow-Origin"]) response.setHeader("Access-Control-Expose-Headers", "ETag, Location, Mcp-Session-Id");
		response.setHeader("X-Content-Type-Options", "nosniff");
		const current = session;
		this.sessions.begin(current);
		response.once("close", () => this.sessions.finish(current));
		await current.transport.handleRequest(request, response, body);
		// An initialize the transport refused (a wrong Accept, say) leaves a session nobody can name: drop it now.
		if (id === undefined && current.transport.sessionId === undefined) await this.sessions.end(current.id);
		return null;
	}

	close(): Promise<void> {
		return this.sessions.closeAll();
	}

	/** The JSON-RPC message, or the request stops with a Problem (the server answers it). */
	private async readMessage(request: IncomingMessage): Promise<unknown> {
		const text = await bodyTextOrRefuse(request, this.notes.settings().maxBodyMB);
		// Real JSON-RPC messages nest a few levels; a deeply nested one could overflow what recurses over it later.
		const unsafe = jsonRefusal(text, MAX_MESSAGE_NESTING);
		if (unsafe !== null) throw new Problem(jsonRpcError(400, -32700, `Parse error: the message was not read because ${unsafe}.`));
		try {
			return JSON.parse(text) as unknown;
		} catch {
			throw new Problem(jsonRpcError(400, -32700, "Parse error: the body is not valid JSON."));
		}
	}
}

/** A JSON-RPC error, as MCP clients expect for protocol-level refusals (the SDK's own transport answers the same way). */
function jsonRpcError(status: number, code: number, message: string): ApiResponse {
	return json(status, { jsonrpc: "2.0", error: { code, message }, id: null });
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value[0] : value;
}
