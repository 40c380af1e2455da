/**
 * The HTTP glue of MCP (Streamable HTTP, POST/GET/DELETE /mcp). The API server calls it after its Host, Origin and
 * key checks; here the body is read under the same cap as REST, the request is matched to its session (which must
 * belong to the same key), and its transport (protocol/streamable-http.ts) answers it. A POST without a session id that is not an
 * initialize is answered statelessly (stateless.ts), as the 2026 drafts of the specification, which drop sessions, ask.
 */
import type { IncomingMessage, ServerResponse } from "http";
import { jsonRefusal } from "../core/nesting";
import { bodyTextOrRefuse } from "../http/body";
import { problem, Problem } from "../http/problems";
import { json, type ApiResponse } from "../http/response";
import { clientIdOf } from "../http/security";
import { agentActor } from "../service/notes/actor";
import type { AgentNotes } from "../service/notes/agent-notes";
import type { AgentKey } from "../settings";
import { ModernRequests } from "./modern/requests";
import { isInitializeRequest } from "./protocol/messages";
import { isModern } from "./modern/wire";
import { McpSessions, type McpSession, type SessionOptions } from "./sessions";
import { StatelessRequests } from "./stateless";
import { toolSetOf } from "./tool-visibility";

/** Deeper than any tool call's arguments need, far shallower than what a recursive step chokes on. */
const MAX_MESSAGE_NESTING = 128;
const ALLOW = "GET, POST, DELETE";

export class McpEndpoint {
	readonly sessions: McpSessions;
	readonly stateless: StatelessRequests;
	readonly modern: ModernRequests;

	constructor(
		private readonly notes: AgentNotes,
		options: SessionOptions = {},
	) {
		this.sessions = new McpSessions(notes, options);
		this.stateless = new StatelessRequests(notes, options.onError);
		this.modern = new ModernRequests(notes, options.onError);
	}

	/** Answers an authenticated /mcp request: an ApiResponse for the server to send, or null once the transport has answered. */
	async handle(
		request: IncomingMessage,
		response: ServerResponse,
		agent: AgentKey,
		cors: Record<string, string>,
	): Promise<ApiResponse | null> {
		const method = request.method ?? "GET";
		if (method !== "GET" && method !== "POST" && method !== "DELETE") {
			return problem(
				"method-not-allowed",
				`${method} is not allowed on /mcp; use ${ALLOW} (MCP Streamable HTTP).`,
				{},
				{ Allow: ALLOW },
			);
		}
		let body: unknown = undefined;
		if (method === "POST") {
			body = await this.readMessage(request);
		}
		// A 2026-07-28 client has no stream to GET and no session to DELETE (2025 clients name their own version).
		if (method !== "POST" && isModern(request.headers, undefined)) {
			return jsonRpcError(
				405,
				-32000,
				`Method not allowed: MCP 2026-07-28 has no sessions and no GET stream, so ${method} ` +
					`means nothing here. Send each request as a POST; follow notes with subscriptions/listen.`,
				{ Allow: "POST" },
			);
		}
		const owner = clientIdOf(agent.key);
		// 2026-07-28 has no sessions: a modern request is answered on its own, whatever Mcp-Session-Id it carries.
		if (method === "POST" && isModern(request.headers, body)) {
			// Set now: a subscriptions/listen answer is streamed, not returned.
			setHeaders(response, cors);
			return this.modern.answer(request.headers, body, response, {
				owner,
				agent: agent.name,
				toolSet: toolSetOf(request.url),
			});
		}
		const id = headerValue(request, "mcp-session-id");
		let session: McpSession | null;
		if (id === undefined) {
			// GET is the stream of a session's server messages: without a session there is none, which MCP says with a 405.
			if (method === "GET")
				return jsonRpcError(
					405,
					-32000,
					"Method not allowed: without an Mcp-Session-Id there is no stream of server messages " +
						"to GET. Send each request as a POST (with or without a session).",
					{ Allow: "POST" },
				);
			if (method === "DELETE")
				return jsonRpcError(400, -32000, "Bad Request: no Mcp-Session-Id header, so there is no session to end.");
			const initializes = Array.isArray(body)
				? body.some((message) => isInitializeRequest(message))
				: isInitializeRequest(body);
			// An initialize opens a session (what 2025-11-25 clients expect); anything else is answered on its own.
			if (!initializes) {
				setHeaders(response, cors);
				await this.stateless.answer(request, response, body, owner, agent.name, toolSetOf(request.url));
				return null;
			}
			session = await this.sessions.open(owner, agent.name, toolSetOf(request.url));
		} else {
			// Another key's session is answered exactly like an unknown one, so a session id reveals nothing to other keys.
			session = this.sessions.find(id, owner);
			if (!session)
				return jsonRpcError(
					404,
					-32001,
					"Session not found: it ended, expired, or was opened with another key. Start a new " +
						"session with an initialize request.",
				);
		}
		session.agent = agent.name;
		setHeaders(response, cors);
		const current = session;
		this.sessions.begin(current);
		response.once("close", () => this.sessions.finish(current));
		if (method === "GET") this.sessions.listen(current, response);
		// Before any of its calls run: a tokenless write is held to what this session had read when it was SENT.
		if (method === "POST")
			current.held.capture(body, this.notes.pathPolicy(), (path) =>
				this.notes.holdRevision(agentActor(current.agent, current.client, owner), path),
			);
		await current.transport.handle(request, response, body);
		// An initialize the transport refused (a wrong Accept, say) leaves a session nobody can name: drop it now.
		if (id === undefined && current.transport.sessionId === undefined) await this.sessions.end(current.id);
		return null;
	}

	async close(): Promise<void> {
		await Promise.all([this.sessions.closeAll(), this.stateless.closeAll(), this.modern.closeAll()]);
	}

	/** The JSON-RPC message, or the request stops with a Problem (the server answers it). */
	private async readMessage(request: IncomingMessage): Promise<unknown> {
		const text = await bodyTextOrRefuse(request, this.notes.settings().maxBodyMB);
		// Real JSON-RPC messages nest a few levels; a deeply nested one could overflow what recurses over it later.
		const unsafe = jsonRefusal(text, MAX_MESSAGE_NESTING);
		if (unsafe !== null)
			throw new Problem(jsonRpcError(400, -32700, `Parse error: the message was not read because ${unsafe}.`));
		try {
			return JSON.parse(text) as unknown;
		} catch {
			throw new Problem(jsonRpcError(400, -32700, "Parse error: the body is not valid JSON."));
		}
	}
}

/** A JSON-RPC error, as MCP clients expect for protocol-level refusals (the session transport answers the same way). */
function jsonRpcError(
	status: number,
	code: number,
	message: string,
	headers: Record<string, string> = {},
): ApiResponse {
	return json(status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

function setHeaders(response: ServerResponse, cors: Record<string, string>): void {
	for (const [name, value] of Object.entries(cors)) response.setHeader(name, value);
	if (cors["Access-Control-Allow-Origin"])
		response.setHeader("Access-Control-Expose-Headers", "ETag, Location, Mcp-Session-Id");
	response.setHeader("X-Content-Type-Options", "nosniff");
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value[0] : value;
}
