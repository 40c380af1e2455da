/** What a handler is given for one request: the parsed request, the caller, the service, and lazy body and signal. */
import type { IncomingMessage, ServerResponse } from "http";
import { agentActor } from "../service/notes/actor";
import type { AgentNotes } from "../service/notes/agent-notes";
import type { AgentKey } from "../settings";
import type { KeyScope } from "../core/key-scope";
import { bodyTextOrRefuse } from "./body";
import type { Method, RequestContext } from "./router";
import { clientIdOf } from "./security";

export interface ParsedRequest {
	method: Method;
	rest: string;
	query: URLSearchParams;
	agent: AgentKey | null;
	/** The agent key's scope, compiled from its settings (the server refuses a key whose lists do not compile). */
	scope?: KeyScope;
	notes: AgentNotes;
}

export function requestContext(
	request: IncomingMessage,
	response: ServerResponse,
	parsed: ParsedRequest,
): RequestContext {
	return new HttpRequestContext(request, response, parsed);
}

/**
 * The same request naming another remainder (the active note's path, a URL target's note). The copy reads through
 * to the original, so its lazy signal and body stay the request's own.
 */
export function withRest(context: RequestContext, rest: string): RequestContext {
	return Object.assign(Object.create(context) as RequestContext, { rest });
}

/**
 * A class, not an object literal with a getter spread into it: that literal cost about 2.6 µs a request (V8 builds
 * it slowly), more than routing it.
 */
class HttpRequestContext implements RequestContext {
	readonly method: ParsedRequest["method"];
	readonly rest: string;
	readonly query: URLSearchParams;
	readonly agent: AgentKey | null;
	readonly notes: AgentNotes;
	readonly headers: IncomingMessage["headers"];
	readonly actor: RequestContext["actor"];
	private gone: AbortController | null = null;

	constructor(
		private readonly request: IncomingMessage,
		private readonly response: ServerResponse,
		parsed: ParsedRequest,
	) {
		this.method = parsed.method;
		this.rest = parsed.rest;
		this.query = parsed.query;
		this.agent = parsed.agent;
		this.notes = parsed.notes;
		this.headers = request.headers;
		this.actor = parsed.agent
			? agentActor(parsed.agent.name, clientIdOf(parsed.agent.key), undefined, parsed.scope)
			: null;
	}

	/** Made on first use (only long-polls ask): aborted when the client goes away before its answer. */
	get signal(): AbortSignal {
		if (this.gone === null) {
			const controller = new AbortController();
			this.gone = controller;
			if (this.response.closed) controller.abort();
			else this.response.once("close", () => controller.abort());
		}
		return this.gone.signal;
	}

	body(): Promise<string> {
		return bodyTextOrRefuse(this.request, this.notes.settings().maxBodyMB);
	}
}
