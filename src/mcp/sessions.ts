/**
 * MCP sessions: one McpServer and transport per session, owned by the key that opened it, ended by DELETE, by going
 * idle, or by the server closing. Ending a session forgets what it read, so its implicit tokens cannot outlive it, and
 * ends its subscriptions (resources/index.ts listens for its server closing).
 */
import { randomBytes } from "crypto";
import type { ServerResponse } from "http";
import type { McpServer } from "./protocol/server";
import { StreamableHttpTransport } from "./protocol/streamable-http";
import { agentActor } from "../service/notes/actor";
import type { AgentNotes } from "../service/notes/agent-notes";
import { PersonAsker } from "./elicitation/ask-person";
import { attachResources } from "./resources";
import { HeldAtArrival } from "./held-at-arrival";
import { createMcpServer } from "./tools";
import { listedTools, listOnly, type ToolSet } from "./tool-visibility";
import { scopeOfOwner } from "./session-scope";

export interface McpSession {
	readonly id: string;
	/** The client id of the key that opened the session (`clientIdOf(key)`); no other key may use it. */
	readonly owner: string;
	/** The implicit-token identity: owner + ":" + session id. */
	readonly client: string;
	/** The key's name, refreshed on every request so a renamed key is credited under its new name. */
	agent: string;
	readonly transport: StreamableHttpTransport;
	readonly server: McpServer;
	/** What this session's tokenless writes were held to when their requests arrived. */
	readonly held: HeldAtArrival;
	/** Requests of this session still being answered (an open GET stream counts while it lasts). */
	active: number;
	/** GET streams open: the client listens for server requests (elicitation) and notifications (subscriptions). */
	listening: number;
	lastUsed: number;
	timer: unknown;
}

export interface SessionOptions {
	/** A session with no request under way for this long is ended. */
	idleMs?: number;
	/** Past this many sessions of one key, that key's least recently used session is ended to make room. */
	maxSessionsPerKey?: number;
	/** Notes one session may subscribe to. */
	maxSubscriptionsPerSession?: number;
	/** How long a question to the person (elicitation after a stale write) is waited for. */
	askTimeoutMs?: number;
	onError?: (error: unknown) => void;
}

export const DEFAULT_IDLE_MS = 30 * 60_000;
/** Sessions one key may hold: a client that opens too many ends its own oldest, never another key's. */
export const DEFAULT_MAX_SESSIONS_PER_KEY = 32;

export class McpSessions {
	private readonly sessions = new Map<string, McpSession>();
	private readonly idleMs: number;
	private readonly maxPerKey: number;

	constructor(
		private readonly notes: AgentNotes,
		private readonly options: SessionOptions = {},
	) {
		this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
		this.maxPerKey = options.maxSessionsPerKey ?? DEFAULT_MAX_SESSIONS_PER_KEY;
	}

	/** A new session for `owner`; the transport announces its id in the answer to the initialize request. */
	/** `toolSet`: the tools listed to this session (by the URL it was opened at); the others stay callable. */
	async open(owner: string, agent: string, toolSet: ToolSet = "revision-guard"): Promise<McpSession> {
		const own = [...this.sessions.values()].filter((session) => session.owner === owner);
		if (own.length >= this.maxPerKey) this.evictOldest(own);
		// 256 random bits: the id is a bearer of nothing by itself (the key is checked too), but it must not be guessable.
		const id = randomBytes(32).toString("base64url");
		const { onError } = this.options;
		const actor = () =>
			agentActor(session.agent, session.client, owner, scopeOfOwner(this.notes, owner, session.agent));
		const asker = new PersonAsker({
			notes: this.notes,
			server: () => session.server,
			agent: () => session.agent,
			actor,
			listening: () => session.listening > 0,
			timeoutMs: this.options.askTimeoutMs,
			onError,
		});
		const held = new HeldAtArrival();
		const server = createMcpServer(
			{
				notes: this.notes,
				actor,
				key: owner,
				onError,
				askPerson: (path, refused) => asker.ask(path, refused),
				heldAtArrival: (requestId, path) => held.take(requestId, path),
			},
			toolSet,
		);
		// One JSON answer per call: tools do not stream, and plain JSON is the simplest thing to proxy or debug. What the
		// server sends unasked (resource updates, a question to the person) goes on the session's GET stream.
		const transport = new StreamableHttpTransport(server, { sessionId: id, onDelete: () => void this.end(id) });
		const session: McpSession = {
			id,
			held,
			owner,
			client: `${owner}:${id}`,
			agent,
			transport,
			server,
			active: 0,
			listening: 0,
			lastUsed: this.notes.now(),
			timer: null,
		};
		attachResources(session.server, {
			notes: this.notes,
			actor,
			subscriptions: { max: this.options.maxSubscriptionsPerSession },
			onError,
		});
		server.onClose(() => void this.end(id));
		listOnly(server, listedTools(toolSet, this.notes, actor));
		this.sessions.set(id, session);
		this.arm(session);
		return session;
	}

	/** The session, only when `owner` opened it: another key's session looks exactly like a missing one. */
	find(id: string, owner: string): McpSession | null {
		const session = this.sessions.get(id);
		return session && session.owner === owner ? session : null;
	}

	/** A request of this session starts: it is not idle until every request under way has finished. */
	begin(session: McpSession): void {
		session.active++;
		session.lastUsed = this.notes.now();
		this.notes.timers.cancel(session.timer);
		session.timer = null;
	}

	/** A GET stream of this session is open until `response` closes. */
	listen(session: McpSession, response: ServerResponse): void {
		session.listening++;
		response.once("close", () => {
			session.listening = Math.max(0, session.listening - 1);
		});
	}

	finish(session: McpSession): void {
		session.active = Math.max(0, session.active - 1);
		session.lastUsed = this.notes.now();
		if (session.active === 0 && this.sessions.get(session.id) === session) this.arm(session);
	}

	/** Ends a session (idempotent): forgets its reads, stops its timer, closes its transport. */
	end(id: string): Promise<void> {
		const session = this.sessions.get(id);
		if (!session) return Promise.resolve();
		this.sessions.delete(id);
		this.notes.timers.cancel(session.timer);
		session.timer = null;
		this.notes.forgetClient(session.client);
		try {
			session.transport.close();
		} catch (error) {
			this.options.onError?.(error);
		}
		return Promise.resolve();
	}

	async closeAll(): Promise<void> {
		await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
	}

	get size(): number {
		return this.sessions.size;
	}

	private arm(session: McpSession): void {
		this.notes.timers.cancel(session.timer);
		session.timer = this.notes.timers.schedule(() => void this.end(session.id), this.idleMs);
	}

	/** Makes room among one key's sessions: its least recently used idle session goes first, else its least recently used. */
	private evictOldest(sessions: McpSession[]): void {
		const byAge = sessions.sort((a, b) => a.lastUsed - b.lastUsed);
		const victim = byAge.find((session) => session.active === 0) ?? byAge[0];
		if (victim) void this.end(victim.id);
	}
}
