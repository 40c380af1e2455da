/**
 * MCP without a session. The 2026 drafts of the specification drop `Mcp-Session-Id`, and some clients never keep it,
 * so a POST without a session id that is not an initialize is answered by a server and transport made for that one
 * request and closed with it. Such a caller has no implicit-token identity: nothing it read stands in for a revision,
 * so replacing, patching or deleting needs `revision` (edit_note and append_note need none). Safety never depends on
 * session state; a session's remembered reads are only a convenience on top.
 */
import type { IncomingMessage, ServerResponse } from "http";
import type { McpServer } from "./protocol/server";
import { StreamableHttpTransport } from "./protocol/streamable-http";
import { agentActor } from "../service/notes/actor";
import type { AgentNotes } from "../service/notes/agent-notes";
import { attachResources } from "./resources";
import { createMcpServer } from "./tools";
import { listedTools, listOnly, type ToolSet } from "./tool-visibility";
import { scopeOfOwner } from "./session-scope";

export class StatelessRequests {
	/** Servers answering a request now, so closing the endpoint closes them too. */
	private readonly live = new Set<McpServer>();

	constructor(
		private readonly notes: AgentNotes,
		private readonly onError?: (error: unknown) => void,
	) {}

	/** Answers one request on `response`. `owner` is the key's client id (long-polls count per key, across requests). */
	async answer(
		request: IncomingMessage,
		response: ServerResponse,
		body: unknown,
		owner: string,
		agent: string,
		toolSet: ToolSet = "revision-guard",
	): Promise<void> {
		// No client id in the actor: reads are not remembered, and a tokenless replace is refused (428's rule), never held to
		// an old read. Its writes still move its key's REST reads along, as a session's do.
		const actor = () => agentActor(agent, undefined, owner, scopeOfOwner(this.notes, owner, agent));
		// No elicitation and no subscriptions: both need a session whose client listens for what the server sends later.
		const server = createMcpServer({ notes: this.notes, actor, key: owner, onError: this.onError }, toolSet);
		listOnly(server, listedTools(toolSet, this.notes, actor));
		attachResources(server, { notes: this.notes, actor, subscriptions: null, onError: this.onError });
		// No session id: the transport validates no session and announces none.
		const transport = new StreamableHttpTransport(server);
		this.live.add(server);
		response.once("close", () => this.close(server));
		await transport.handle(request, response, body);
	}

	closeAll(): Promise<void> {
		for (const server of [...this.live]) this.close(server);
		return Promise.resolve();
	}

	get size(): number {
		return this.live.size;
	}

	private close(server: McpServer): void {
		if (this.live.delete(server)) server.close();
	}
}
