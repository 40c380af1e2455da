/**
 * MCP 2026-07-28 at /mcp: every request stands alone. Its wire (the `_meta` fields and mirrored headers) is checked
 * first (wire.ts); server/discover is answered here; tools and resources go to an MCP server built for this one
 * request, the same one a 2025 session gets, so both eras share one set of tools, resources and guard rules. The
 * caller has no session and so no implicit read: replacing, patching, deleting or moving a note needs `revision`.
 */
import type { ServerResponse } from "http";
import type { Answer, McpServer } from "../protocol/server";
import { json, type ApiResponse, type JsonValue } from "../../http/response";
import { agentActor } from "../../service/notes/actor";
import type { AgentNotes } from "../../service/notes/agent-notes";
import { attachResources } from "../resources";
import { scopeOfOwner } from "../session-scope";
import { createMcpServer, INSTRUCTIONS, VERSION } from "../tools";
import { LRA_INSTRUCTIONS } from "../lra";
import { listedTools, listOnly, type ToolSet } from "../tool-visibility";
import { CACHE_HINTS } from "./cache-hints";
import { elicitsForms, PersonQuestions, QuestionCatcher, type Asking } from "./ask-person";
import { ModernListens } from "./listen";
import { RequestStates } from "./request-state";
import {
	checkModern,
	INVALID_PARAMS,
	META_SERVER_INFO,
	METHOD_NOT_FOUND,
	SUPPORTED_VERSIONS,
	type Headers,
	type ModernRequest,
	type WireRefusal,
} from "./wire";

/** The methods a per-request server answers; everything else 2026-07-28 defines is answered here or not served. */
const SERVED_BY_TOOLS_AND_RESOURCES: ReadonlySet<string> = new Set([
	"tools/list",
	"tools/call",
	"resources/list",
	"resources/templates/list",
	"resources/read",
]);
const SERVER_INFO = { name: "revision-guard", version: VERSION };

export interface Caller {
	/** The key's client id: what limits and scopes are counted by. */
	owner: string;
	agent: string;
	toolSet: ToolSet;
}

export class ModernRequests {
	/** Servers answering a request now, so closing the endpoint closes them too. */
	private readonly live = new Set<McpServer>();

	private readonly questions: PersonQuestions;
	readonly listens = new ModernListens();

	constructor(
		private readonly notes: AgentNotes,
		private readonly onError?: (error: unknown) => void,
	) {
		this.questions = new PersonQuestions(new RequestStates(notes.now));
	}

	/** Null when the answer was streamed on `response` (subscriptions/listen). */
	async answer(headers: Headers, body: unknown, response: ServerResponse, caller: Caller): Promise<ApiResponse | null> {
		const checked = checkModern(headers, body);
		if (!checked.ok) return refusal(checked.refusal);
		const { request } = checked;
		// A notification asks for no answer; the core protocol defines none a client sends over HTTP.
		if (!isRequest(body)) return { status: 202 };
		if (request.method === "server/discover") return complete(request, this.discover(caller.toolSet));
		const asking = this.asking(caller);
		if (request.method === "subscriptions/listen") return this.listens.listen(request, response, asking);
		if (!SERVED_BY_TOOLS_AND_RESOURCES.has(request.method)) {
			return refusal({
				status: 404,
				code: METHOD_NOT_FOUND,
				message: `Method not found: ${request.method} is not served at this endpoint in 2026-07-28.`,
				id: request.id,
			});
		}
		if (request.method === "tools/call" && ("requestState" in request.params || "inputResponses" in request.params))
			return this.retry(request, asking);
		// Only a client that declared form elicitation may be sent a question (2026-07-28's MRTR).
		const catcher =
			request.method === "tools/call" && elicitsForms(request.clientCapabilities) ? new QuestionCatcher(asking) : null;
		const answer = await this.forward(request, response, caller, asking, catcher);
		if ("error" in answer) return json(200, answer as unknown as JsonValue);
		if (catcher?.caught)
			return answerWith(
				request,
				this.questions.inputRequired(
					catcher.caught,
					caller.owner,
					String(request.params.name),
					request.params.arguments ?? {},
				),
			);
		return complete(request, (answer as { result: Record<string, unknown> }).result);
	}

	closeAll(): Promise<void> {
		this.listens.closeAll();
		for (const server of [...this.live]) this.close(server);
		return Promise.resolve();
	}

	get size(): number {
		return this.live.size;
	}

	private discover(toolSet: ToolSet): Record<string, unknown> {
		return {
			supportedVersions: [...SUPPORTED_VERSIONS],
			// subscribe: notes can be followed with subscriptions/listen (resourceSubscriptions).
			capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: false } },
			instructions: toolSet === "lra" ? LRA_INSTRUCTIONS : INSTRUCTIONS,
		};
	}

	/** The request answered by a server made for it and closed with it (or when the client goes away first). */
	private asking({ owner, agent }: Caller): Asking {
		// No client id in the actor: nothing read is remembered, so a tokenless replace is refused, never held to a read.
		return {
			notes: this.notes,
			owner,
			agent: () => agent,
			actor: () => agentActor(agent, undefined, owner, scopeOfOwner(this.notes, owner, agent)),
		};
	}

	/** A retry with the person's answer: carried out here, never run as a new call (which would be refused again). */
	private async retry(request: ModernRequest, asking: Asking): Promise<ApiResponse> {
		if (!("requestState" in request.params)) {
			return json(200, {
				jsonrpc: "2.0",
				id: request.id,
				error: {
					code: INVALID_PARAMS,
					message:
						"Invalid params: inputResponses without requestState; nothing was written. Send inputResponses " +
						"only with the requestState of the InputRequiredResult they answer.",
				},
			});
		}
		const answer = await this.questions.retry(request.params, asking);
		if (answer.kind === "refused")
			return json(200, { jsonrpc: "2.0", id: request.id, error: { code: INVALID_PARAMS, message: answer.message } });
		if (answer.kind === "input-required") return answerWith(request, answer.result);
		return complete(request, answer.result);
	}

	private async forward(
		request: ModernRequest,
		response: ServerResponse,
		caller: Caller,
		asking: Asking,
		catcher: QuestionCatcher | null,
	): Promise<Answer> {
		const { owner, toolSet } = caller;
		const actor = asking.actor;
		const server = createMcpServer(
			{
				notes: this.notes,
				actor,
				key: owner,
				onError: this.onError,
				...(catcher ? { askPerson: catcher.askPerson } : {}),
			},
			toolSet,
		);
		attachResources(server, { notes: this.notes, actor, subscriptions: null, onError: this.onError });
		listOnly(server, listedTools(toolSet, this.notes, actor));
		this.live.add(server);
		response.once("close", () => this.close(server));
		const id = request.id ?? 0;
		try {
			const answer = await server.answer({ jsonrpc: "2.0", id, method: request.method, params: request.params });
			// Cancelled only by the client going away (closing the server): an answer nobody reads.
			return (
				answer ?? { jsonrpc: "2.0", id, error: { code: -32603, message: "The request ended before it was answered." } }
			);
		} finally {
			this.close(server);
		}
	}

	private close(server: McpServer): void {
		if (this.live.delete(server)) server.close();
	}
}

/** A result as it is (an InputRequiredResult carries its own resultType), with who answered. */
function answerWith(request: ModernRequest, result: Record<string, unknown>): ApiResponse {
	return json(200, {
		jsonrpc: "2.0",
		id: request.id,
		result: { ...result, _meta: { [META_SERVER_INFO]: SERVER_INFO } },
	});
}

/** A complete result: resultType, who answered, and the cache hints of the methods that carry them. */
function complete(request: ModernRequest, result: Record<string, unknown>): ApiResponse {
	const meta =
		typeof result._meta === "object" && result._meta !== null ? (result._meta as Record<string, unknown>) : {};
	const hints = Object.hasOwn(CACHE_HINTS, request.method) ? CACHE_HINTS[request.method] : {};
	const body = { ...result, resultType: "complete", ...hints, _meta: { ...meta, [META_SERVER_INFO]: SERVER_INFO } };
	return json(200, { jsonrpc: "2.0", id: request.id, result: body });
}

function refusal({ status, code, message, data, id }: WireRefusal): ApiResponse {
	return json(status, {
		jsonrpc: "2.0",
		id,
		error: { code, message, ...(data ? { data } : {}) },
	} as unknown as JsonValue);
}

function isRequest(body: unknown): boolean {
	return typeof body === "object" && body !== null && "id" in body;
}
