/**
 * Notes and conflict records as MCP resources, on one MCP server: resources/list (paged), resources/templates/list,
 * resources/read, and, for a session, resources/subscribe and unsubscribe, each a request handler of the server.
 */
import type { McpServer } from "../protocol/server";
import { ErrorCode, McpError } from "../protocol/types";
import { validateVaultPath } from "../../core/path";
import type { AgentActor } from "../../service/notes/actor";
import type { AgentNotes } from "../../service/notes/agent-notes";
import { vaultRefusalOf } from "../../service/refusals/vault-refusals";
import { listNoteResources } from "./listing";
import { readResource } from "./reading";
import { NoteSubscriptions } from "./subscriptions";
import { CONFLICT_TEMPLATE, NOTE_TEMPLATE, parseResourceUri } from "./uris";

export interface ResourceOptions {
	notes: AgentNotes;
	/** Who reads: a resources/read of a note counts as this actor's read, exactly as read_note does. */
	actor: () => AgentActor;
	/** Subscriptions need a session to notify; without one (stateless requests) they are not offered. */
	subscriptions: { max?: number } | null;
	onError?: (error: unknown) => void;
}

/** Call before the server connects (capabilities are fixed then). */
export function attachResources(server: McpServer, options: ResourceOptions): void {
	const { notes, actor } = options;
	const protocol = server;
	protocol.registerCapabilities({ resources: { subscribe: options.subscriptions !== null, listChanged: false } });
	const answer = <T>(run: () => Promise<T>) => answered(run, options.onError);
	protocol.setRequestHandler("resources/list", (params) =>
		answer(() => listNoteResources(notes, actor(), params.cursor as string | undefined)),
	);
	protocol.setRequestHandler("resources/templates/list", () =>
		Promise.resolve({
			resourceTemplates: [
				{
					uriTemplate: NOTE_TEMPLATE,
					name: "note",
					description:
						"A note of the vault by its vault-relative path; reading it counts as your read (its revision is in _meta).",
					mimeType: "text/markdown",
				},
				{
					uriTemplate: CONFLICT_TEMPLATE,
					name: "conflict",
					description: "The record a refused write created (its id is the conflictId), as JSON.",
					mimeType: "application/json",
				},
			],
		}),
	);
	protocol.setRequestHandler("resources/read", (params) =>
		answer(() => readResource(notes, actor(), params.uri as string)),
	);
	if (options.subscriptions === null) return;
	const subscriptions = new NoteSubscriptions({
		notes,
		actor,
		max: options.subscriptions.max,
		send: (uri) => protocol.sendResourceUpdated({ uri }),
	});
	protocol.setRequestHandler("resources/subscribe", (params) =>
		answer(async () => {
			const path = subscribable(notes, params.uri as string);
			if (!(await subscriptions.add(path))) {
				throw new McpError(
					ErrorCode.InvalidParams,
					`Not subscribed: this session already follows ${subscriptions.size} notes, the most ` +
						`it may. Unsubscribe from one first.`,
				);
			}
			return {};
		}),
	);
	protocol.setRequestHandler("resources/unsubscribe", (params) =>
		answer(() => {
			const target = parseResourceUri(params.uri as string);
			if (target.kind === "note") subscriptions.remove(target.path);
			return Promise.resolve({});
		}),
	);
	// Subscriptions end with the session: whatever closes its server.
	protocol.onClose(() => subscriptions.close());
}

/** The note a URI names, when it may be subscribed to (an McpError, InvalidParams, saying why not). */
export function subscribable(notes: AgentNotes, uri: string): string {
	const target = parseResourceUri(uri);
	if (target.kind !== "note") {
		throw new McpError(
			ErrorCode.InvalidParams,
			"Only notes (revision-guard://note/<path>) can be subscribed to. To wait for a conflict's " +
				"outcome, call conflict_status with wait.",
			{ uri },
		);
	}
	const checked = validateVaultPath(target.path, notes.pathPolicy(), "note");
	if (!checked.ok)
		throw new McpError(ErrorCode.InvalidParams, `Invalid note path ${JSON.stringify(target.path)}: ${checked.reason}`, {
			uri,
		});
	return checked.path;
}

/** A protocol error for what the caller can fix; anything unexpected is reported and answered without internals. */
async function answered<T>(run: () => Promise<T>, onError?: (error: unknown) => void): Promise<T> {
	try {
		return await run();
	} catch (error) {
		if (error instanceof McpError) throw error;
		const refused = vaultRefusalOf(error);
		if (refused) throw new McpError(ErrorCode.InvalidParams, refused.message);
		onError?.(error);
		throw new McpError(
			ErrorCode.InternalError,
			"The server hit an unexpected error while handling this request; retry, and report it if it repeats.",
		);
	}
}
