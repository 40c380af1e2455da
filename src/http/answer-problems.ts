/**
 * The one place where what went wrong inside a request becomes its answer: a thrown Problem (a bad path, body or
 * id), a gateway's refusal of a path or of a note's bytes, or a change the disk failed to make durable. Anything
 * else is left to the server's 500.
 */
import { vaultRefusalOf } from "../service/refusals/vault-refusals";
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
	const refused = vaultRefusalOf(error);
	switch (refused?.kind) {
		case undefined:
			return null;
		case "note-not-utf8":
			return problem(
				"note-not-utf8",
				`${refused.message} Nothing was read or written. Open it in an editor that can fix ` +
					`its encoding, or ask the person to.`,
				{ path: refused.path },
			);
		case "name-clash":
			return problem(
				"name-clash",
				`${refused.message} Nothing was written. Use the existing note's exact name, as listed.`,
				{ path: refused.path, existing: refused.existing ?? null },
			);
		case "note-not-ready":
			return problem(
				"note-not-ready",
				`${refused.message} Retry in a moment; GET it first to update it.`,
				{ path: refused.path },
				{ "Retry-After": "1" },
			);
		case "invalid-path":
			return problem("invalid-path", `${refused.message} Nothing was read or written.`);
		case "not-durable":
			return problem(
				"not-durable",
				refused.change === "deleted"
					? `${refused.message} Ask the person to check the disk (free space, errors) before relying on the ` +
							`delete; if the note is back after a crash, DELETE it again once the disk is sound.`
					: `${refused.message} GET it to read back what it holds, and ask the person to check the disk ` +
							`(free space, errors) before relying on it.`,
				{
					path: refused.path,
					diskError: refused.diskError ?? null,
					revision: refused.revision ?? null,
					trashedTo: refused.trashedTo ?? null,
				},
			);
	}
}
