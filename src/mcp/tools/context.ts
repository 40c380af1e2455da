/** What every MCP tool is given (the guard, who is calling) and the small helpers they share: paths, results, errors. */
import type { CallToolResult } from "../protocol/types";
import { validateVaultPath } from "../../core/path";
import type { HeldRead } from "../../service/stores/read-ledger";
import { parseEntityTagCondition, type EntityTagCondition } from "../../core/revision";
import type { AgentActor } from "../../service/notes/actor";
import type { AgentNotes } from "../../service/notes/agent-notes";
import type { PersonOutcome, RefusedWrite } from "../elicitation/ask-person";
import { vaultRefusalOf } from "../../service/refusals/vault-refusals";

export interface ToolContext {
	/** The application service: every tool works through it. */
	notes: AgentNotes;
	/**
	 * The caller: its key's name (read per call, so a renamed key shows at once) and, for implicit tokens, the key's
	 * client id plus the session id.
	 */
	actor(): AgentActor;
	/** The key's client id alone: limits that belong to a key (long-polls) count all its sessions together. */
	key: string;
	/** Unexpected errors (never sent to the agent). */
	onError?: (error: unknown) => void;
	/** Asks the person, in the agent's client, what to do about a stale write (sessions whose client can be asked). */
	askPerson?: (path: string, outcome: RefusedWrite) => Promise<PersonOutcome>;
	/**
	 * What the call's missing revision stands for, as captured when its request arrived (sessions only); undefined when
	 * nothing was captured, and the writer then takes the session's last read at the call.
	 */
	heldAtArrival?: (requestId: string | number, path: string) => HeldRead | null | undefined;
}

/** A tool's answer when it worked: the JSON as text (for clients that ignore structured content) and as structure. */
export function ok(structured: Record<string, unknown>): CallToolResult {
	return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A tool error, returned (throw a ToolFailure of it to end a tool from deeper down): prose that says what happened
 * and what to call next, then (optionally) the facts as JSON. No structuredContent, because clients check it against
 * the tool's success schema.
 */
export function toolError(text: string, details?: Record<string, unknown>): CallToolResult {
	const content: CallToolResult["content"] = [{ type: "text", text }];
	if (details) content.push({ type: "text", text: JSON.stringify(details) });
	return { isError: true, content };
}

/** A call that cannot go on, thrown from anywhere in a tool body and answered by `guarded` (as REST's Problem is). */
export class ToolFailure extends Error {
	constructor(readonly result: CallToolResult) {
		super("tool failure");
		this.name = "ToolFailure";
	}
}

/** The same validator REST uses; MCP paths are plain strings, so there is no percent-decoding step. */
export function checkPath(context: ToolContext, path: string, kind: "note" | "folder"): string {
	const checked = validateVaultPath(path, context.notes.pathPolicy(), kind);
	if (checked.ok) return checked.path;
	throw new ToolFailure(toolError(`Invalid path "${path}": ${checked.reason} Nothing was read or written.`));
}

/**
 * A revision the agent passed, as the If-Match the writer checks, read as REST reads If-Match: a token as a JSON
 * answer carries it, or an ETag copied from REST, quotes and all (a weak `W/` one stays weak, so it never passes).
 * Anything else is no revision at all, refused as malformed-precondition (as REST's 400), never taken as stale.
 */
export function ifMatchOf(revision: string | undefined): EntityTagCondition {
	return parseEntityTagCondition(revision);
}

/** A revision as an agent may paste it: bare, quoted, or as a weak ETag. */
export function unquoted(revision: string): string {
	return revision.replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
}

/**
 * Runs a tool body: the one place a ToolFailure, or a gateway's refusal of a path, becomes a tool error with its
 * reason; anything unexpected is reported to the host and answered without internals, as REST's 500 is.
 */
export async function guarded(context: ToolContext, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
	try {
		return await run();
	} catch (error) {
		if (error instanceof ToolFailure) return error.result;
		const refused = vaultRefusalOf(error);
		// Something was written: the caller must read it back, not take "nothing was written".
		if (refused?.kind === "not-durable")
			return toolError(
				refused.change === "deleted"
					? `${refused.message} Ask the person to check the disk (free space, errors) before relying on the ` +
							`delete; if the note is back after a crash, call delete_note again once the disk is sound.`
					: `${refused.message} Call read_note {"path":${JSON.stringify(refused.path)}} to see what it holds, ` +
							`and ask the person to check the disk (free space, errors) before relying on it.`,
				{
					error: refused.kind,
					path: refused.path,
					diskError: refused.diskError ?? null,
					revision: refused.revision ?? null,
					trashedTo: refused.trashedTo ?? null,
				},
			);
		if (refused)
			return toolError(`${refused.message} Nothing was read or written.`, {
				error: refused.kind,
				reason: refused.reason,
				path: refused.path,
				...(refused.existing ? { existing: refused.existing } : {}),
			});
		context.onError?.(error);
		return toolError(
			"The server hit an unexpected error while handling this call. Nothing was written " +
				"by the failed step; retry, and report it if it repeats.",
		);
	}
}

/** The WriteRequest field for a call's arrival-time held revision (absent when none was captured). */
export function heldAt(
	context: ToolContext,
	requestId: string | number,
	path: string,
): { heldRevision?: HeldRead | null } {
	const held = context.heldAtArrival?.(requestId, path);
	return held === undefined ? {} : { heldRevision: held };
}
