/**
 * One MCP server (one per session, or per request without one): JSON-RPC in, JSON-RPC out. It answers initialize and
 * ping, our tools (tool-registry.ts) and the request handlers registered on it (resources), and sends what the server
 * starts itself (a question to the person, a note's change) through `send`. What a client sees (codes, messages,
 * which failure is a tool result and which a protocol error) is what the MCP SDK 1.32 answered.
 */
import type { Timers } from "../../core/timers";
import type { Shape } from "../schema";
import { paramsProblem } from "./request-params";
import { ToolRegistry, type ToolConfig, type ToolHandler } from "./tool-registry";
import {
	ErrorCode,
	McpError,
	type ClientCapabilities,
	type ElicitRequestFormParams,
	type ElicitResult,
	type JsonRpcError,
	type JsonRpcMessage,
	type JsonRpcRequest,
	type JsonRpcResult,
	type RequestId,
} from "./types";

/** The versions an initialize may ask for, newest first (the SDK's list); any other is answered with the newest. */
export const SESSION_VERSIONS: readonly string[] = [
	"2025-11-25",
	"2025-06-18",
	"2025-03-26",
	"2024-11-05",
	"2024-10-07",
];

export interface RequestExtra {
	signal: AbortSignal;
	requestId: RequestId;
}

export type RequestHandler = (params: Record<string, unknown>, extra: RequestExtra) => Promise<Record<string, unknown>>;

/**
 * Where the server's own messages go (a session's GET stream); they are dropped when nobody listens. It returns false
 * when it dropped the message (anything else counts as sent), so a question nobody can receive is not waited for.
 */
export type Outbox = (message: JsonRpcMessage) => unknown;

interface Pending {
	resolve: (result: Record<string, unknown>) => void;
	reject: (error: Error) => void;
	timer: unknown;
}

export type Answer = JsonRpcResult | JsonRpcError;

export class McpServer {
	private readonly tools = new ToolRegistry();
	private readonly handlers = new Map<string, RequestHandler>();
	/** Calls under way by id: a set, since a client may reuse an id, and closing must stop every call, not the last. */
	private readonly running = new Map<RequestId, Set<AbortController>>();
	private readonly pending = new Map<number, Pending>();
	private readonly closeListeners: (() => void)[] = [];
	private capabilities: Record<string, unknown> = { tools: { listChanged: true } };
	private clientCapabilities: ClientCapabilities | undefined;
	private nextId = 0;
	private closed = false;
	/** Which tools tools/list shows this caller (tool-visibility.ts); the others stay callable. */
	listed: (name: string) => boolean = () => true;
	outbox: Outbox = () => undefined;

	constructor(
		private readonly info: { name: string; version: string },
		/** The host's timers (Obsidian's window timers, or Node's): how long a question to the person may wait. */
		readonly timers: Timers,
		private readonly instructions?: string,
	) {}

	registerTool<I extends Shape>(name: string, config: ToolConfig<I>, handler: ToolHandler<I>): void {
		this.tools.register(name, config, handler);
	}

	setRequestHandler(method: string, handler: RequestHandler): void {
		this.handlers.set(method, handler);
	}

	registerCapabilities(capabilities: Record<string, unknown>): void {
		this.capabilities = { ...this.capabilities, ...capabilities };
	}

	getClientCapabilities(): ClientCapabilities | undefined {
		return this.clientCapabilities;
	}

	onClose(listener: () => void): void {
		this.closeListeners.push(listener);
	}

	/** A notification or a client's answer to one of our requests: nothing is sent back. */
	receive(message: JsonRpcMessage): void {
		if ("method" in message && !("id" in message)) {
			if (message.method === "notifications/cancelled") {
				const requestId = message.params?.requestId;
				if (typeof requestId === "string" || typeof requestId === "number") this.abortAll(this.running.get(requestId));
			}
			return;
		}
		if (("result" in message || "error" in message) && typeof message.id === "number") this.settle(message);
	}

	/** The answer to a request, or null when it was cancelled (or the server closed) first: then none is sent. */
	async answer(request: JsonRpcRequest): Promise<Answer | null> {
		const controller = new AbortController();
		const sameId = this.running.get(request.id) ?? new Set<AbortController>();
		this.running.set(request.id, sameId.add(controller));
		try {
			const result = await this.run(request, { signal: controller.signal, requestId: request.id });
			return controller.signal.aborted ? null : { result, jsonrpc: "2.0", id: request.id };
		} catch (error) {
			if (controller.signal.aborted) return null;
			const { code, message, data } = (typeof error === "object" && error !== null ? error : {}) as {
				code?: unknown;
				message?: unknown;
				data?: unknown;
			};
			return {
				jsonrpc: "2.0",
				id: request.id,
				error: {
					code: Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError,
					message: typeof message === "string" ? message : "Internal error",
					...(data !== undefined ? { data } : {}),
				},
			};
		} finally {
			sameId.delete(controller);
			if (sameId.size === 0 && this.running.get(request.id) === sameId) this.running.delete(request.id);
		}
	}

	/** Asks the person a form question through the client (elicitation/create); its answer is checked by `validate`. */
	async elicitInput(
		params: ElicitRequestFormParams,
		options: { timeout: number; validate: (content: Record<string, unknown>) => string | null },
	): Promise<ElicitResult> {
		if (!this.clientCapabilities?.elicitation?.form) throw new Error("Client does not support form elicitation.");
		const result = await this.request("elicitation/create", { ...params, mode: "form" }, options.timeout);
		const action = result.action;
		const content = result.content;
		if (action !== "accept" && action !== "decline" && action !== "cancel")
			throw new Error("The client's answer to elicitation/create has no valid action.");
		if (content !== undefined && (typeof content !== "object" || content === null || Array.isArray(content)))
			throw new Error("The client's answer to elicitation/create has content that is not an object.");
		const answer: ElicitResult = { action, ...(content ? { content: content as Record<string, unknown> } : {}) };
		if (answer.action === "accept" && answer.content) {
			const problem = options.validate(answer.content);
			if (problem !== null)
				throw new McpError(
					ErrorCode.InvalidParams,
					`Elicitation response content does not match requested schema: ${problem}`,
				);
		}
		return answer;
	}

	sendResourceUpdated(params: { uri: string }): Promise<void> {
		if (!this.closed) this.outbox({ jsonrpc: "2.0", method: "notifications/resources/updated", params });
		return Promise.resolve();
	}

	/** Stops every call under way (none of them is answered), fails every question asked, then tells the listeners. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		const running = [...this.running.values()];
		this.running.clear();
		for (const calls of running) this.abortAll(calls);
		const pending = [...this.pending.values()];
		this.pending.clear();
		for (const listener of this.closeListeners) listener();
		for (const { reject, timer } of pending) {
			this.timers.cancel(timer);
			reject(new McpError(ErrorCode.ConnectionClosed, "Connection closed"));
		}
	}

	private abortAll(calls: Set<AbortController> | undefined): void {
		for (const controller of [...(calls ?? [])]) controller.abort();
	}

	private async run(request: JsonRpcRequest, extra: RequestExtra): Promise<Record<string, unknown>> {
		const { method } = request;
		const params = request.params ?? {};
		if (method === "ping") return {};
		// Checked before the params, as our transport wrapper did: an unknown tool is -32602 whatever its arguments.
		if (method === "tools/call" && typeof params.name === "string" && !this.tools.has(params.name))
			throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${params.name.slice(0, 200)}`);
		if (method !== "initialize" && method !== "tools/list" && method !== "tools/call" && !this.handlers.has(method))
			throw protocolError(ErrorCode.MethodNotFound, "Method not found");
		const problem = paramsProblem(method, request.params);
		if (problem !== null) throw protocolError(ErrorCode.InternalError, problem);
		switch (method) {
			case "initialize":
				return this.initialize(params);
			case "tools/list":
				return { tools: this.tools.list(this.listed) };
			case "tools/call":
				return this.tools.call(params.name as string, params.arguments, extra);
			default:
				return this.handlers.get(method)!(params, extra);
		}
	}

	private initialize(params: Record<string, unknown>): Record<string, unknown> {
		this.clientCapabilities = params.capabilities as ClientCapabilities;
		const requested = params.protocolVersion as string;
		return {
			protocolVersion: SESSION_VERSIONS.includes(requested) ? requested : SESSION_VERSIONS[0],
			capabilities: this.capabilities,
			serverInfo: this.info,
			...(this.instructions ? { instructions: this.instructions } : {}),
		};
	}

	private request(method: string, params: Record<string, unknown>, timeout: number): Promise<Record<string, unknown>> {
		if (this.closed) return Promise.reject(new McpError(ErrorCode.ConnectionClosed, "Connection closed"));
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			const timer = this.timers.schedule(() => {
				this.pending.delete(id);
				const error = new McpError(ErrorCode.RequestTimeout, "Request timed out", { timeout });
				this.outbox({
					jsonrpc: "2.0",
					method: "notifications/cancelled",
					params: { requestId: id, reason: String(error) },
				});
				reject(error);
			}, timeout);
			this.pending.set(id, { resolve, reject, timer });
			// Sent to nobody (the stream closed after the caller checked): no answer can come, so none is waited for.
			if (this.outbox({ jsonrpc: "2.0", id, method, params }) === false) {
				this.pending.delete(id);
				this.timers.cancel(timer);
				reject(new McpError(ErrorCode.ConnectionClosed, "Connection closed: no stream to send the request on"));
			}
		});
	}

	private settle(message: JsonRpcResult | JsonRpcError): void {
		const pending = this.pending.get(message.id as number);
		if (!pending) return;
		this.pending.delete(message.id as number);
		this.timers.cancel(pending.timer);
		if ("result" in message) pending.resolve(message.result);
		else pending.reject(new McpError(message.error.code, message.error.message, message.error.data));
	}
}

/** An error answered with exactly this message (an McpError's starts with "MCP error <code>: "). */
function protocolError(code: number, message: string): Error {
	return Object.assign(new Error(message), { code });
}
