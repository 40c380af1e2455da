/** revision-guard:read and revision-guard:changes: what a note holds now with its revision, and what changed since one. */
import { changeTagOf, revisionField, tokenFor } from "../core/revision-tokens";
import { utf8Length } from "../core/utf8";
import { commandLine, throwFailure, ok } from "./answer";
import { AGENT_FLAG, PATH_FLAG, type CliCommand } from "./command";
import { bodyCapBytes } from "./content";

export const readCommand: CliCommand = {
	action: "read",
	description: "Read a note with its revision; pass that revision to write, patch or delete it.",
	flags: { ...PATH_FLAG, ...AGENT_FLAG },
	async run(args, notes) {
		const path = args.notePath(notes);
		const actor = args.actor(notes);
		const read = await notes.read(actor, path);
		if (read.kind !== "read") {
			return throwFailure(
				"note-not-found",
				`There is no note at "${path}".`,
				`Check the path. To create the note, run ${commandLine("write", { path, file: "/absolute/path/to/text.md" })}.`,
				{ path },
			);
		}
		// Bounded like every answer: a note too big to be written back in one piece is not sent in one piece either.
		const cap = bodyCapBytes(notes);
		if (utf8Length(read.content) > cap) {
			return throwFailure(
				"note-too-large",
				`"${path}" is ${read.stat.size} bytes, over the ${cap / 1024 / 1024} MB answer limit, so its content was not sent.`,
				"Change it in place with revision-guard:edit or revision-guard:patch (they need no " +
					"full copy), or ask the person to raise the body size limit.",
				{ path, changeTag: changeTagOf(read.revision), size: read.stat.size },
			);
		}
		return ok({
			path: read.path,
			revision: read.revision,
			content: read.content,
			size: read.stat.size,
			mtime: read.stat.mtime,
		});
	},
};

export const changesCommand: CliCommand = {
	action: "changes",
	description: "Show what changed in a note since a revision you read, as a unified diff (in pages).",
	flags: {
		...PATH_FLAG,
		since: { value: "<revision>", description: "The revision you read." },
		to: { value: "<revision>", description: "Diff to this revision instead of the note now (for the next page)." },
		offset: { value: "<line>", description: "The first diff line to show (from nextOffset)." },
		...AGENT_FLAG,
	},
	async run(args, notes) {
		const path = args.notePath(notes);
		const actor = args.actor(notes);
		const since = args.revision("since") ?? args.required("since", "the revision you read");
		const to = args.revision("to");
		const offset = args.count("offset", 0);
		const answer = await notes.changes(actor, path, { since, offset, ...(to ? { to } : {}) });
		if (answer.kind === "missing")
			return throwFailure("note-not-found", `There is no note at "${path}".`, "Check the path.", { path });
		if (answer.kind === "not-retained") {
			return throwFailure(
				"base-not-retained",
				`Revision ${answer.revision} of "${path}" is not retained (or never existed), so no diff can be made.`,
				`Read the note to start from its current content: ${commandLine("read", { path })}.`,
				{ path },
			);
		}
		const { page, sight } = answer;
		// As REST's /changes: the note's revision only with the whole diff to it from a token the caller had.
		const more =
			page.nextOffset === null
				? {}
				: {
						truncated: true,
						nextOffset: page.nextOffset,
						next: commandLine("changes", { path, since, to: changeTagOf(answer.to), offset: String(page.nextOffset) }),
					};
		const toSight = answer.to === answer.revision ? sight : "none";
		return ok({
			path,
			since,
			to: tokenFor(answer.to, toSight),
			...revisionField("revision", answer.revision, sight),
			changed: answer.changed,
			offset,
			diff: page.text,
			...more,
			...(page.lineCut ? { lineCut: true } : {}),
		});
	},
};
