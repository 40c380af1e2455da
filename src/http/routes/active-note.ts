/**
 * /active/: the note open in Obsidian's active editor, as in the Local REST API. Each request resolves that note's
 * path once and hands it to the very handler /vault/{path} uses, so reads and writes are guarded exactly alike.
 */
import { validateVaultPath } from "../../core/path";
import { problem } from "../problems";
import type { ApiResponse } from "../response";
import { actorOf, type Handler, type Method, type RequestContext } from "../router";
import { patchNote } from "./vault-patch";
import { readVault } from "./vault-read";
import { appendNote, deleteNote, putNote } from "./vault-write";
import { withRest } from "../request-context";

/** `/active/` as the Local REST API spells it, and `/active` for clients that drop the slash. */
export function matchActive(raw: string): string | null {
	return raw === "/active/" || raw === "/active" ? "" : null;
}

export const ACTIVE_HANDLERS: Partial<Record<Method, Handler>> = {
	GET: onActiveNote(readVault),
	PUT: onActiveNote(putNote),
	POST: onActiveNote(appendNote),
	PATCH: onActiveNote(patchNote),
	DELETE: onActiveNote(deleteNote),
};

function onActiveNote(handler: Handler): Handler {
	return async (context: RequestContext): Promise<ApiResponse> => {
		const { notes } = context;
		const path = await notes.activeNote(actorOf(context));
		if (path === null) {
			return problem(
				"no-active-note",
				"No note is open in an active editor (a headless host never has one), so nothing " +
					"was read or written. Use /vault/{path} with the note's path.",
			);
		}
		if (!validateVaultPath(path, notes.pathPolicy(), "note").ok) {
			return problem(
				"no-active-note",
				`The active file "${path}" is not a note this API serves, so nothing was read or ` +
					`written. Open a note, or use /vault/{path}.`,
				{ path },
			);
		}
		const rest = path.split("/").map(encodeURIComponent).join("/");
		const answer = await handler(withRest(context, rest));
		// Which note the answer is about: the active one can change between requests.
		const location = `/vault/${rest}`;
		return { ...answer, headers: { ...answer.headers, "Content-Location": location } };
	};
}
