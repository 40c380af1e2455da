/** What a handler is given for one request: the parsed request, the caller, the service, and lazy body and signal. */
import type { IncomingMessage, ServerResponse } from "http";
import { agentActor } from "../service/actor";
import type { AgentNotes } from "../service/agent-notes";
import type { AgentKey } from "../settings";
import { bodyTextOrRefuse } from "./body";
import type { Method, RequestContext } from "./router";
import { clientIdOf } from "./security";

export interface ParsedRequest {
	method: Method;
	rest: string;
	query: URLSearchParams;
	agent: AgentKey | null;
	notes: AgentNotes;
}

export function requestContext(request: IncomingMessage, response: ServerResponse, parsed: ParsedRequest): RequestContext {
	const { agent, notes } = parsed;
	let gone: AbortController | null = null;
	return {
		...parsed,
		headers: request.headers,
		actor: agent ? agentActor(agent.name, clientIdOf(agent.key)) : null,
		// Made on first use (only long-polls ask): aborted when the client goes away before its answer.
		get signal() {
			if (gone === null) {
				gone = new AbortController();
				const controller = gone;
				if (response.closed) controller.abort();
				else response.once("close", () => controller.abort());
			}
			return gone.signal;
		},
		body: () => bodyTextOrRefuse(request, notes.settings().maxBodyMB),
	};
}
