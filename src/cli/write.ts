/**
 * revision-guard:write, :append and :delete, each one call of the guarded writer. The CLI has no sessions, so no
 * read stands in for a missing revision: without `revision=`, :write only creates (an existing note is refused and the
 * text kept as a .bak), and :delete refuses outright.
 */
import { badArgument, commandLine, throwFailure } from "./answer";
import { AGENT_FLAG, CONTENT_FLAGS, PATH_FLAG, REVISION_FLAG, type CliCommand } from "./command";
import { textArgument } from "./content";
import { writeAnswer } from "./outcome";
import type { RefusalCode } from "../core/refusal-codes";

export const writeCommand: CliCommand = {
	action: "write",
	description:
		"Create a note, or replace one with the revision you read (a stale revision is refused " +
		"and your text kept as a .bak).",
	flags: {
		...PATH_FLAG,
		...REVISION_FLAG(
			"The revision revision-guard:read returned; required to replace an existing note. " +
				"Without it, the note is only created.",
		),
		...CONTENT_FLAGS,
		empty: { description: "Allow an empty text to empty the note." },
		merge: { value: "auto", description: "If your revision is stale, write the three-way merge when it is clean." },
		...AGENT_FLAG,
	},
	async run(args, notes) {
		const path = args.notePath(notes);
		const actor = args.actor(notes);
		const ifMatch = args.ifMatch();
		const allowEmpty = args.flag("empty");
		const merge = args.has("merge") ? args.choice("merge", ["auto"] as const) : undefined;
		if (merge && ifMatch.kind === "absent")
			badArgument(
				"merge",
				"merge=auto needs revision=: it merges your change made on that revision with the newer ones.",
				"Add revision=<the revision you read>, or leave out merge=auto.",
			);
		const body = (await textArgument(args, notes, "content", { required: true, fromFile: true }))!;
		const outcome = await notes.write({
			path,
			operation: { kind: "replace", body },
			ifMatch,
			// No revision means "create": If-None-Match: * makes that exact and atomic, whatever the token setting.
			ifNoneMatch: ifMatch.kind === "absent" ? { kind: "any" } : { kind: "absent" },
			actor,
			heldRevision: null,
			allowEmpty,
			...(merge ? { merge } : {}),
		});
		return writeAnswer("write", path, outcome);
	},
};

export const appendCommand: CliCommand = {
	action: "append",
	description: "Append text to the end of a note (created if missing); needs no revision, and checks one if given.",
	flags: {
		...PATH_FLAG,
		...CONTENT_FLAGS,
		...REVISION_FLAG("Optional: append only if the note is still this revision."),
		...AGENT_FLAG,
	},
	async run(args, notes) {
		const path = args.notePath(notes);
		const actor = args.actor(notes);
		const ifMatch = args.ifMatch();
		const body = (await textArgument(args, notes, "content", { required: true, fromFile: true }))!;
		const outcome = await notes.write({
			path,
			operation: { kind: "append", body },
			ifMatch,
			ifNoneMatch: { kind: "absent" },
			actor,
			heldRevision: null,
		});
		return writeAnswer("append", path, outcome);
	},
};

export const deleteCommand: CliCommand = {
	action: "delete",
	description: "Delete a note (to Obsidian's trash setting); needs the revision you read.",
	flags: { ...PATH_FLAG, ...REVISION_FLAG("The revision revision-guard:read returned (required)."), ...AGENT_FLAG },
	async run(args, notes) {
		const path = args.notePath(notes);
		const actor = args.actor(notes);
		if (!args.has("revision")) {
			throwFailure(
				"precondition-required" satisfies RefusalCode,
				`Deleting "${path}" needs the revision you read; nothing was deleted.`,
				`Read it first (${commandLine("read", { path })}), check it is what you mean to delete, ` +
					`then run revision-guard:delete again with revision=<the revision it returned>.`,
				{ argument: "revision", path },
			);
		}
		const outcome = await notes.write({
			path,
			operation: { kind: "delete" },
			ifMatch: args.ifMatch(),
			ifNoneMatch: { kind: "absent" },
			actor,
			heldRevision: null,
		});
		return writeAnswer("delete", path, outcome);
	},
};
