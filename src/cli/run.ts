/**
 * Runs one CLI command: the one place where what went wrong becomes its JSON answer (a malformed argument, a refused
 * path, a note that is not UTF-8, or anything unexpected, which is reported to the host and answered without
 * internals). A handler never throws to Obsidian: the agent always gets one JSON object.
 */
import type { AgentNotes } from "../service/notes/agent-notes";
import { vaultRefusalOf } from "../service/refusals/vault-refusals";
import { answerText, CliFailure, failure, type CliError } from "./answer";
import { Arguments, type CliArguments } from "./args";
import type { CliCommand } from "./command";

export async function runCliCommand(
	command: CliCommand,
	data: CliArguments,
	notes: AgentNotes | null,
	onError?: (error: unknown) => void,
): Promise<string> {
	if (!notes) {
		return answerText(
			failure(
				"not-ready",
				"Revision Guard has not finished starting (or could not start; its settings say why), " +
					"so nothing was read or written.",
				"Wait a few seconds and run the same command again. Do not fall back to Obsidian's own unguarded commands.",
			),
		);
	}
	try {
		const args = new Arguments(data, command.action, Object.keys(command.flags));
		return answerText(await command.run(args, notes));
	} catch (error) {
		if (error instanceof CliFailure) return answerText(error.answer);
		const refused = vaultRefusal(error);
		if (refused) return answerText(refused);
		onError?.(error);
		return answerText(
			failure(
				"internal-error",
				"Revision Guard hit an unexpected error while handling this command. Nothing was written by the failed step.",
				"Retry; if it keeps failing, tell the person (Obsidian's developer console has the details).",
			),
		);
	}
}

/** A gateway's refusal of a path or of a note's bytes, as REST and MCP answer it. */
function vaultRefusal(error: unknown): CliError | null {
	const refused = vaultRefusalOf(error);
	switch (refused?.kind) {
		case undefined:
			return null;
		case "note-not-utf8":
			return failure(
				"note-not-utf8",
				`${refused.message} Nothing was read or written.`,
				"Ask the person to fix the note's encoding in an editor.",
				{ path: refused.path },
			);
		case "name-clash":
			return failure("name-clash", `${refused.message} Nothing was written.`, "Use the existing note's exact name.", {
				path: refused.path,
				existing: refused.existing ?? null,
			});
		case "note-not-ready":
			return failure("note-not-ready", refused.message, "Retry in a moment; read the note first to update it.", {
				path: refused.path,
			});
		case "invalid-path":
			return failure(
				"invalid-path",
				`${refused.message} Nothing was read or written.`,
				"Use the path of a note inside the vault.",
				{ path: refused.path },
			);
		case "not-durable":
			return failure(
				"not-durable",
				refused.message,
				refused.change === "deleted"
					? "Ask the person to check the disk (free space, errors) before relying on the delete; if the note " +
							"is back after a crash, delete it again once the disk is sound."
					: "Read the note back to see what it holds, and ask the person to check the disk (free space, errors) " +
							"before relying on it.",
				{
					path: refused.path,
					diskError: refused.diskError ?? null,
					revision: refused.revision ?? null,
					trashedTo: refused.trashedTo ?? null,
				},
			);
	}
}
