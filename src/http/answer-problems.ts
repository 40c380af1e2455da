/**
 * The one place where what went wrong inside a request becomes its answer: a thrown Problem (a bad path, body or
 * id), or a gateway's refusal of a path or of a note's bytes. Anything else is left to the server's 500.
 */
import { NoteEncodingError, VaultPathError } from "../vault/errors";
import { problem, Problem } from "./problems";
import type { ApiResponse } from "./response";

/**
 * Runs a handler or a mount: the one place a thrown Problem, or a gateway's refusal of a path or of a note's bytes,
 * becomes the answer that explains it.
 */
export async function answerProblems<T extends ApiResponse | null>(run: () => Promise<T>): Promise<T | ApiResponse> {
	try {
		return await run();
	} catch (error) {
		if (error instanceof Problem) return error.response;
		const refused = gatewayRefusal(error);
		if (refused) return refused;
		throw error;
	}
}

export function gatewayRefusal(error: unknown): ApiResponse | null {
	if (error instanceof NoteEncodingError) {
		return problem("note-not-utf8", `${error.message} Nothing was read or written. Open it in an editor that can fix its encoding, or ask the person to.`, { path: error.path });
	}
	if (!(error instanceof VaultPathError)) return null;
	if (error.reason === "name-variant" || error.reason === "case-variant") {
		return problem("name-clash", `${error.message} Nothing was written. Use the existing note's exact name, as listed.`, { path: error.path, existing: error.existing ?? null });
	}
	if (error.reason === "not-indexed" || error.reason === "index-behind") {
		return problem("note-not-ready", `${error.message} Retry in a moment; GET it first to update it.`, { path: error.path }, { "Retry-After": "1" });
	}
	return problem("invalid-path", `${error.message} Nothing was read or written.`);
}
