/**
 * The service operations five Local REST API tools need: search (JsonLogic and simple, search-operations.ts), the tag
 * list, and guarded move and copy. The tools (service-tools.ts) are written against this interface: this is the one
 * place that connects them to their AgentNotes services.
 */
import { resolveDestination } from "../../core/destination";
import { tagPage } from "../../core/tags";
import type { AgentActor } from "../../service/notes/actor";
import type { AgentNotes } from "../../service/notes/agent-notes";
import { lraRelocationRefusal } from "./refusal";
import { notFoundSentence } from "../../core/refusal-wording";
import { invalidDestinationSentence } from "../tools/relocation";
import { lraSearchQuery, lraSearchSimple } from "./search-operations";

/**
 * What a tool answers once the operation exists: the Local REST API's JSON (and, when the answer is bounded short of
 * everything, a `note` saying how to have the rest), or a refusal in words.
 */
/** `facts`: what a refusal adds as JSON (its `error` code, the same on every surface). */
export type LraAnswer =
	{ ok: true; value: unknown; note?: string } | { ok: false; message: string; facts?: Record<string, unknown> };

export interface LraServiceOperations {
	/** search_query: `[{filename, result}]` for the notes whose metadata the JsonLogic query finds truthy. */
	searchQuery(actor: AgentActor, query: unknown): Promise<LraAnswer>;
	/** search_simple: `[{filename, score, matches: [{match: {start, end}, context}]}]`, best first. */
	searchSimple(actor: AgentActor, query: string, contextLength: number): Promise<LraAnswer>;
	/** tag_list: `{tags: [{name, count}]}`. */
	tagList(actor: AgentActor): Promise<LraAnswer>;
	/** vault_move: `{message: "OK", oldPath, newPath}`; guarded (the source needs this session's read of it). */
	move(actor: AgentActor, path: string, destination: string, allowOverwrite: boolean): Promise<LraAnswer>;
	/** vault_copy: `{message: "OK", sourcePath, newPath}`; a destination that exists is never overwritten unread. */
	copy(actor: AgentActor, path: string, destination: string, allowOverwrite: boolean): Promise<LraAnswer>;
}

/** One answer of tag_list holds at most this much (the Local REST API sends every tag; so do we, up to this). */
const TAG_LIST_CHARS = 2 * 1024 * 1024;

export function serviceOperations(notes: AgentNotes): LraServiceOperations {
	const destination = (path: string, wanted: string): { ok: true; to: string } | { ok: false; message: string } => {
		const resolved = resolveDestination(wanted, path, notes.pathPolicy(), false);
		return resolved.ok
			? { ok: true, to: resolved.path }
			: {
					ok: false,
					message: invalidDestinationSentence(wanted, resolved.reason),
				};
	};
	return {
		searchQuery: (actor, query) => lraSearchQuery(notes, actor, query),
		searchSimple: (actor, query, contextLength) => lraSearchSimple(notes, actor, query, contextLength),
		async tagList(actor) {
			return {
				ok: true,
				value: {
					tags: tagPage(await notes.facts.tags(actor), { limit: Number.MAX_SAFE_INTEGER, maxChars: TAG_LIST_CHARS })
						.tags,
				},
			};
		},
		// vault_move and vault_copy have no revision arguments: the session's whole read of each note stands in for one.
		async move(actor, path, wanted, allowOverwrite) {
			const target = destination(path, wanted);
			if (!target.ok) return target;
			const none = { kind: "absent" } as const;
			const outcome = await notes.move({
				from: path,
				to: target.to,
				ifMatch: none,
				overwrite: allowOverwrite,
				destinationIfMatch: none,
				actor,
			});
			if (outcome.kind === "moved") return { ok: true, value: { message: "OK", oldPath: path, newPath: outcome.to } };
			if (outcome.kind === "same-path") return { ok: true, value: { message: "OK", oldPath: path, newPath: path } };
			if (outcome.kind === "missing")
				return {
					ok: false,
					message: `${notFoundSentence(JSON.stringify(path), "moved")} Call vault_list to see what is there.`,
				};
			return lraRelocationRefusal(outcome, path, "move_note");
		},
		async copy(actor, path, wanted, allowOverwrite) {
			const target = destination(path, wanted);
			if (!target.ok) return target;
			const none = { kind: "absent" } as const;
			const outcome = await notes.copy({
				from: path,
				to: target.to,
				ifMatch: none,
				overwrite: allowOverwrite,
				destinationIfMatch: none,
				actor,
			});
			if (outcome.kind === "copied")
				return { ok: true, value: { message: "OK", sourcePath: path, newPath: outcome.to } };
			if (outcome.kind === "missing")
				return {
					ok: false,
					message: `${notFoundSentence(JSON.stringify(path), "copied")} Call vault_list to see what is there.`,
				};
			return lraRelocationRefusal(outcome, path, "copy_note");
		},
	};
}
