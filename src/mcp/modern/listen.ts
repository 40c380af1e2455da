/**
 * 2026-07-28's subscriptions/listen on note URIs: the answer is an SSE stream that acknowledges what it will send,
 * then carries notifications/resources/updated whenever someone other than this client changes a listed note, with
 * the same rules as a 2025 session's resources/subscribe (resources/subscriptions.ts: a note hidden from the key is
 * never announced). "This client" is the key's stateless MCP requests: they have no session to tell them apart. The
 * stream ends when the client goes away (nothing is left listening) or, with a closing result, when the host stops.
 * Streams are capped per key and in all, like long-polls, and refused past the cap rather than left to pile up.
 */
import type { ServerResponse } from "http";
import { McpError } from "../protocol/types";
import type { ApiResponse } from "../../http/response";
import { json } from "../../http/response";
import type { NoteChange } from "../../service/notes/agent-notes";
import { vaultRefusalOf } from "../../service/refusals/vault-refusals";
import { subscribable } from "../resources";
import { DEFAULT_MAX_SUBSCRIPTIONS, NoteSubscriptions } from "../resources/subscriptions";
import type { Asking } from "./ask-person";
import { INVALID_PARAMS, type ModernRequest } from "./wire";

/** Streams one key may hold open at once (as many as its long-polls). */
export const LISTENS_PER_KEY = 16;
/** Streams everyone together may hold open at once. */
export const LISTENS_IN_ALL = 128;
/** An SSE comment this often keeps idle proxies and clients from closing a quiet stream. */
export const KEEP_ALIVE_MS = 25_000;
/** JSON-RPC's implementation-defined range (-32000..-32019): the server is at its limit, retry later. */
const TOO_MANY = -32000;
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

export interface ListenCaps {
	perKey: number;
	inAll: number;
}

interface Stream {
	id: string | number | null;
	response: ServerResponse;
	end(graceful: boolean): void;
}

export class ModernListens {
	private readonly byKey = new Map<string, number>();
	private readonly streams = new Set<Stream>();

	constructor(private readonly caps: ListenCaps = { perKey: LISTENS_PER_KEY, inAll: LISTENS_IN_ALL }) {}

	/** Streams open now (tests, diagnostics). */
	get size(): number {
		return this.streams.size;
	}

	/** Null once the stream is answered (it stays open); an ApiResponse for anything refused. */
	async listen(request: ModernRequest, response: ServerResponse, asking: Asking): Promise<ApiResponse | null> {
		const uris = requestedNotes(request.params);
		if (typeof uris === "string") return error(200, request.id, INVALID_PARAMS, `Invalid params: ${uris}`);
		const paths: string[] = [];
		for (const uri of uris) {
			try {
				paths.push(subscribable(asking.notes, uri));
			} catch (refusal) {
				if (refusal instanceof McpError)
					return error(200, request.id, INVALID_PARAMS, refusal.message.replace(/^MCP error -?\d+: /, ""));
				throw refusal;
			}
		}
		const held = this.byKey.get(asking.owner) ?? 0;
		if (held >= this.caps.perKey)
			return error(
				429,
				request.id,
				TOO_MANY,
				`Too many listens: this key already holds ${held} subscriptions/listen streams, the ` +
					`most it may. Close one (or follow several notes on one stream), then retry.`,
				{ "Retry-After": "5" },
			);
		if (this.streams.size >= this.caps.inAll)
			return error(
				503,
				request.id,
				TOO_MANY,
				`Too many listens: the server holds ${this.streams.size} subscriptions/listen streams, ` +
					`the most it may. Retry later.`,
				{ "Retry-After": "5" },
			);
		this.byKey.set(asking.owner, held + 1);

		let acknowledged = false;
		const early: string[] = [];
		const id = request.id;
		const notify = (uri: string) => {
			if (!acknowledged) early.push(uri);
			else
				write(response, {
					jsonrpc: "2.0",
					method: "notifications/resources/updated",
					params: { uri, _meta: { [SUBSCRIPTION_ID]: id } },
				});
			return Promise.resolve();
		};
		const own = (change: NoteChange) =>
			change.by?.kind === "agent" && change.by.client === undefined && change.by.keyClient === asking.owner;
		const subscriptions = new NoteSubscriptions({
			notes: asking.notes,
			actor: asking.actor,
			send: notify,
			ownChange: own,
			max: DEFAULT_MAX_SUBSCRIPTIONS,
		});
		const timers = asking.notes.timers;
		let keepAlive: unknown = null;
		let ended = false;
		const stream: Stream = {
			id,
			response,
			end: (graceful) => {
				if (ended) return;
				ended = true;
				subscriptions.close();
				timers.cancel(keepAlive);
				this.streams.delete(stream);
				const left = (this.byKey.get(asking.owner) ?? 1) - 1;
				if (left > 0) this.byKey.set(asking.owner, left);
				else this.byKey.delete(asking.owner);
				if (graceful && response.headersSent && !response.writableEnded) {
					write(response, { jsonrpc: "2.0", id, result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: id } } });
					response.end();
				}
			},
		};
		this.streams.add(stream);
		response.once("close", () => stream.end(false));
		try {
			for (const path of paths) await subscriptions.add(path);
		} catch (failure) {
			stream.end(false);
			const refused = vaultRefusalOf(failure);
			if (refused) return error(200, id, INVALID_PARAMS, `Invalid params: ${refused.message}`);
			throw failure;
		}
		// The client went away while its notes were looked up: nothing to answer, nothing left listening.
		if (ended) return null;
		response.writeHead(200, {
			"Content-Type": "text/event-stream",
			"Cache-Control": "no-cache, no-transform",
			"X-Accel-Buffering": "no",
		});
		write(response, {
			jsonrpc: "2.0",
			method: "notifications/subscriptions/acknowledged",
			params: { notifications: { resourceSubscriptions: uris }, _meta: { [SUBSCRIPTION_ID]: id } },
		});
		acknowledged = true;
		for (const uri of early.splice(0)) void notify(uri);
		const beat = () => {
			if (ended) return;
			response.write(":\n\n");
			keepAlive = timers.schedule(beat, KEEP_ALIVE_MS);
		};
		keepAlive = timers.schedule(beat, KEEP_ALIVE_MS);
		return null;
	}

	/** The host stops: every stream gets its closing result, then ends. */
	closeAll(): void {
		for (const stream of [...this.streams]) stream.end(true);
	}
}

/** The note URIs a listen asks for, or what is wrong with its filter. Other notification types are not offered. */
function requestedNotes(params: Record<string, unknown>): string[] | string {
	const filter = params.notifications;
	if (typeof filter !== "object" || filter === null || Array.isArray(filter))
		return "subscriptions/listen needs params.notifications, the filter of what to send.";
	const uris = (filter as Record<string, unknown>).resourceSubscriptions ?? [];
	if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === "string"))
		return "notifications.resourceSubscriptions must be a list of note URIs (revision-guard://note/<path>).";
	if (uris.length > DEFAULT_MAX_SUBSCRIPTIONS)
		return `one stream follows at most ${DEFAULT_MAX_SUBSCRIPTIONS} notes; this asked for ${uris.length}.`;
	return [...new Set(uris)];
}

function write(response: ServerResponse, message: Record<string, unknown>): void {
	if (!response.writableEnded) response.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function error(
	status: number,
	id: string | number | null,
	code: number,
	message: string,
	headers: Record<string, string> = {},
): ApiResponse {
	return json(status, { jsonrpc: "2.0", id, error: { code, message } }, headers);
}
