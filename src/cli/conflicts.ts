/**
 * revision-guard:conflicts and revision-guard:resolve. A conflict is what a refused write left for the person: the
 * record and the .bak. An agent can look at it, see the automatic three-way merge (what it read, the note now, what
 * it proposed), and apply that merge when it is clean, through the guarded writer like any write. It cannot dismiss
 * a conflict: the record and the .bak are the person's to settle. A write of the agent's that lands on the revision
 * the conflict was refused against resolves it.
 */
import { conflictForAgents } from "../service/conflicts/conflict-view";
import { revisionField } from "../core/revision-tokens";
import type { ConflictStatus } from "../core/conflicts";
import { headOfText } from "../core/diff/page";
import { diffCapBytes } from "../service/history/diff-pages";
import { commandLine, throwFailure, ok } from "./answer";
import { AGENT_FLAG, type CliCommand } from "./command";
import { writeAnswer } from "./outcome";

const STATUSES: readonly ConflictStatus[] = ["open", "resolved", "dismissed"];
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export const conflictsCommand: CliCommand = {
	action: "conflicts",
	description: "List conflicts (refused writes kept as .bak notes), newest first, or show one by id.",
	flags: {
		id: { value: "<conflictId>", description: "Show this conflict only." },
		status: { value: "open|resolved|dismissed", description: "Only conflicts with this status." },
		path: { value: "<path>", description: "Only conflicts on this note." },
		limit: { value: "<count>", description: `At most this many (default ${DEFAULT_LIMIT}, up to ${MAX_LIMIT}).` },
	},
	async run(args, notes) {
		const id = args.text("id");
		if (id !== undefined) {
			const record =
				notes.conflict(args.actor(notes), id) ??
				throwFailure(
					"conflict-not-found",
					`There is no conflict "${id.slice(0, 100)}".`,
					`List them: ${commandLine("conflicts", {})}.`,
					{ id: id.slice(0, 100) },
				);
			return ok({ conflict: conflictForAgents(record) });
		}
		const status = args.has("status") ? args.choice("status", STATUSES) : undefined;
		const path = args.has("path") ? args.notePath(notes) : undefined;
		const limit = Math.max(1, args.count("limit", DEFAULT_LIMIT, MAX_LIMIT));
		const records = notes
			.listConflicts(args.actor(notes), status ? { status } : undefined)
			.filter((record) => path === undefined || record.path === path);
		return ok({
			conflicts: records.slice(0, limit).map(conflictForAgents),
			total: records.length,
			...(records.length > limit ? { truncated: true } : {}),
		});
	},
};

export const resolveCommand: CliCommand = {
	action: "resolve",
	description:
		"Show a conflict's automatic three-way merge; with apply, write it when it is clean (guarded like any write).",
	flags: {
		id: { value: "<conflictId>", description: "The conflictId a refused write reported." },
		apply: { description: "Write the merge to the note if it is clean." },
		diff3: { description: "Show what you read (the base) inside conflict markers too." },
		...AGENT_FLAG,
	},
	async run(args, notes) {
		const id = args.required("id", "the conflictId a refused write reported");
		const actor = args.actor(notes);
		const apply = args.flag("apply");
		const diff3 = args.flag("diff3");
		const record =
			notes.conflict(actor, id) ??
			throwFailure(
				"conflict-not-found",
				`There is no conflict "${id.slice(0, 100)}".`,
				`List them: ${commandLine("conflicts", {})}.`,
				{ id: id.slice(0, 100) },
			);
		if (record.status !== "open") {
			return throwFailure(
				"conflict-not-open",
				`Conflict ${id} is already ${record.status}; nothing was written.`,
				`Read the note for what it holds now: ${commandLine("read", { path: record.path })}.`,
				{ conflict: conflictForAgents(record) },
			);
		}
		const preview = await notes.conflictMerge(actor, id, diff3);
		if (!preview) {
			return throwFailure(
				"proposal-not-kept",
				`The text conflict ${id} refused is no longer kept (its .bak was changed or removed), ` +
					`so there is nothing to merge.`,
				`Read the note (${commandLine("read", { path: record.path })}) and write your change again.`,
				{ id, path: record.path },
			);
		}
		const { sides, result, text } = preview;
		const path = record.path;
		if (sides.mineRevision === null) {
			return throwFailure(
				"note-not-found",
				`"${path}" no longer exists, so there is nothing to merge into; your text is in "${record.backupPath ?? "(not kept)"}".`,
				`To create the note again, read the .bak and write it: ${commandLine("read", { path: record.backupPath ?? path })}.`,
				{ id, path, backupPath: record.backupPath },
			);
		}
		// Bounded like every answer: the merge is a whole note, so it gets the diff cap a refusal's diff gets.
		const shown = headOfText(text, diffCapBytes(notes.settings()));
		// The whole merge carries every change the note made since the agent's read, so it can hand the note's revision;
		// a cut one cannot (core/revision-tokens).
		const mineSight = shown.truncated ? "none" : "whole";
		const facts = {
			id,
			path,
			clean: result.clean,
			conflicts: result.conflicts,
			baseRetained: sides.base !== null,
			...revisionField("currentRevision", sides.mineRevision, mineSight),
			backupPath: record.backupPath,
		};
		if (!apply || !result.clean) {
			const cut = shown.truncated ? { mergeTruncated: true } : {};
			const writeIt = shown.truncated
				? `read the note (${commandLine("read", { path })}) for its revision and write the result with it`
				: `run ${commandLine("write", { path, revision: sides.mineRevision, file: "/absolute/path/to/merged.md" })}`;
			const manual =
				`Resolve the <<<<<<< / ======= / >>>>>>> markers in the merge${shown.truncated ? " (cut here: merge the note and the .bak yourself)" : ""}, ` +
				`write the result to a file, then ${writeIt}.`;
			if (apply)
				return throwFailure(
					"merge-has-conflicts",
					`The automatic merge has ${result.conflicts} conflict(s), so nothing was written.`,
					manual,
					{ ...facts, merge: shown.text, ...cut },
				);
			const next = result.clean
				? `The merge is clean: write it with ${commandLine("resolve", { id, apply: true })}.`
				: manual;
			return ok({ ...facts, merge: shown.text, ...cut, next });
		}
		const outcome = await notes.write({
			path,
			operation: { kind: "replace", body: text },
			// The merge was made against this revision of the note; if it moved on, the write is refused like any stale one.
			ifMatch: { kind: "tags", tags: [{ weak: false, opaque: sides.mineRevision }] },
			ifNoneMatch: { kind: "absent" },
			actor,
			heldRevision: null,
		});
		const answer = writeAnswer("resolve", path, outcome);
		return answer.ok ? { ...answer, id, applied: true, status: notes.conflict(actor, id)?.status ?? null } : answer;
	},
};
