/**
 * MCP's 2025 Streamable HTTP transport for one session (or one request without a session), in JSON mode: a POST is
 * answered with the JSON answers of its requests (202 when it carries none), a GET opens the session's one event
 * stream (what the server sends unasked: a question to the person, a note's change), DELETE ends the session. Every
 * refusal (status, code and message) is the one the MCP SDK 1.32's transport gave, so clients see no change.
 */
import type { IncomingMessage, ServerResponse } from "http";
import { isInitializeRequest, isJsonRpcMessage, isRequest } from "./messages";
import { SESSION_VERSIONS, type Answer, type McpServer } from "./server";
import type { JsonRpcMessage } from "./types";

const MAX_BATCH_SIZE = 100;
/** A comment line on the event stream this often, so proxies and clients keep an idle stream open. */
const KEEP_ALIVE_MS = 15_000;

export interface TransportOptions {
	/** The session's id, announced when it is initialized; undefined answers one request without a session. */
	sessionId?: string;
	/** The client ended the session (DELETE). */
	onDelete?: () => void;
}

export class StreamableHttpTransport {
	/** Set once an initialize was answered (a session's id is then known to the client). */
	sessionId: string | undefined;
	private initialized = false;
	private closed = false;
	private stream: ServerResponse | null = null;
	private keepAlive: unknown = null;

	constructor(
		private readonly server: McpServer,
		private readonly options: TransportOptions = {},
	) {
		server.outbox = (message) => this.push(message);
	}

	/** Answers one HTTP request; `body` is the parsed JSON of a POST. */
	async handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
		if (this.closed) return refuse(response, 404, -32001, "Session not found");
		if (request.method === "POST") return this.post(request, response, body);
		if (request.method === "GET") return this.get(request, response);
		if (request.method === "DELETE") return this.delete(request, response);
		response.setHeader("Allow", "GET, POST, DELETE");
		return refuse(response, 405, -32000, "Method not allowed.");
	}

	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.endStream();
		this.server.close();
	}

	private async post(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
		const accept = header(request, "accept") ?? "";
		if (!accept.includes("application/json") || !accept.includes("text/event-stream"))
			return refuse(
				response,
				406,
				-32000,
				"Not Acceptable: Client must accept both application/json and text/event-stream",
			);
		if (!isJsonContentType(header(request, "content-type")))
			return refuse(response, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
		if (Array.isArray(body) && body.length > MAX_BATCH_SIZE)
			return refuse(response, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
		const messages: unknown[] = Array.isArray(body) ? body : [body];
		if (!messages.every(isJsonRpcMessage))
			return refuse(response, 400, -32700, "Parse error: Invalid JSON-RPC message");
		if (messages.some(isInitializeRequest)) {
			if (this.initialized && this.sessionId !== undefined)
				return refuse(response, 400, -32600, "Invalid Request: Server already initialized");
			if (messages.length > 1)
				return refuse(response, 400, -32600, "Invalid Request: Only one initialization request is allowed");
			this.sessionId = this.options.sessionId;
			this.initialized = true;
		} else if (!this.admitted(request, response)) return;
		const requests = messages.filter(isRequest);
		for (const message of messages) if (!isRequest(message)) this.server.receive(message);
		if (requests.length === 0) {
			response.writeHead(202).end();
			return;
		}
		const answers = await Promise.all(requests.map((message) => this.server.answer(message)));
		// One answer per id (a batch that repeats an id gets one), as the SDK's transport kept them.
		const byId = new Map<string | number, Answer | null>();
		requests.forEach((message, index) => byId.set(message.id, answers[index]!));
		const sent = [...byId.values()].filter((answer) => answer !== null);
		if (response.writableEnded || response.destroyed) return;
		// Every request was cancelled: MCP sends no answer to a cancelled request, so the POST ends with nothing.
		if (sent.length === 0) {
			response.writeHead(202).end();
			return;
		}
		response.writeHead(200, this.headers({ "Content-Type": "application/json" }));
		response.end(JSON.stringify(byId.size === 1 ? sent[0] : sent));
	}

	private get(request: IncomingMessage, response: ServerResponse): void {
		if (!(header(request, "accept") ?? "").includes("text/event-stream"))
			return refuse(response, 406, -32000, "Not Acceptable: Client must accept text/event-stream");
		if (!this.admitted(request, response)) return;
		if (this.stream !== null)
			return refuse(response, 409, -32000, "Conflict: Only one SSE stream is allowed per session");
		response.writeHead(
			200,
			this.headers({
				"Content-Type": "text/event-stream",
				"Cache-Control": "no-cache, no-transform",
				Connection: "keep-alive",
				"X-Accel-Buffering": "no",
			}),
		);
		response.flushHeaders();
		this.stream = response;
		const { timers } = this.server;
		const beat = () => {
			response.write(": keepalive\n\n");
			this.keepAlive = timers.schedule(beat, KEEP_ALIVE_MS);
		};
		this.keepAlive = timers.schedule(beat, KEEP_ALIVE_MS);
		response.once("close", () => {
			if (this.stream === response) this.endStream();
		});
	}

	private delete(request: IncomingMessage, response: ServerResponse): void {
		if (!this.admitted(request, response)) return;
		this.options.onDelete?.();
		response.writeHead(200).end();
		this.close();
	}

	/** A session's request names it and a version we speak; false once it was refused. */
	private admitted(request: IncomingMessage, response: ServerResponse): boolean {
		if (this.options.sessionId !== undefined) {
			if (!this.initialized) return refused(response, 400, -32000, "Bad Request: Server not initialized");
			const id = header(request, "mcp-session-id");
			if (!id) return refused(response, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
			if (id !== this.sessionId) return refused(response, 404, -32001, "Session not found");
		}
		const version = header(request, "mcp-protocol-version");
		if (version !== undefined && !SESSION_VERSIONS.includes(version)) {
			const supported = SESSION_VERSIONS.join(", ");
			return refused(
				response,
				400,
				-32000,
				`Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
			);
		}
		return true;
	}

	/** A message the server sends unasked: on the event stream when one is open, else dropped (false), as the SDK did. */
	private push(message: JsonRpcMessage): boolean {
		const stream = this.stream;
		if (stream === null || stream.writableEnded || stream.destroyed) return false;
		stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
		return true;
	}

	private endStream(): void {
		this.server.timers.cancel(this.keepAlive);
		this.keepAlive = null;
		const stream = this.stream;
		this.stream = null;
		if (stream !== null && !stream.writableEnded) stream.end();
	}

	private headers(headers: Record<string, string>): Record<string, string> {
		return this.sessionId === undefined ? headers : { ...headers, "mcp-session-id": this.sessionId };
	}
}

function refuse(response: ServerResponse, status: number, code: number, message: string): void {
	response.writeHead(status, { "Content-Type": "application/json" });
	response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

function refused(response: ServerResponse, status: number, code: number, message: string): false {
	refuse(response, status, code, message);
	return false;
}

function header(request: IncomingMessage, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** `application/json`, with or without parameters (charset), in any case. */
export function isJsonContentType(value: string | undefined): boolean {
	if (!value) return false;
	const essence = value.split(";", 1)[0]!.trim().toLowerCase();
	return essence === "application/json" && !value.slice(essence.length).includes(",");
}
