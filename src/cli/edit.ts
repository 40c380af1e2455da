/**
 * revision-guard:edit (exact old → new text, like Claude Code's Edit) and revision-guard:patch (a heading, block or
 * frontmatter key). Both are computed inside the writer's atomic step on the note as it is then, so they are never
 * computed on one version and written over another.
 */
import { MAX_EDITS, type TextEdit } from "../core/edit";
import { jsonRefusal } from "../core/nesting";
import type { PatchInstruction, PatchOperation, PatchScope, PatchTargetType } from "../core/patch";
import { algebraError } from "../core/patch-algebra";
import type { AgentNotes } from "../service/notes/agent-notes";
import { badArgument, commandLine, throwFailure } from "./answer";
import type { Arguments } from "./args";
import { AGENT_FLAG, CONTENT_FLAGS, PATH_FLAG, REVISION_FLAG, type CliCommand } from "./command";
import { textArgument } from "./content";
import { writeAnswer } from "./outcome";
import type { RefusalCode } from "../core/refusal-codes";

export const editCommand: CliCommand = {
	action: "edit",
	description:
		"Replace an exact text in a note (it must occur once, or pass all); needs no revision, " +
		"since it cannot erase what it did not match.",
	flags: {
		...PATH_FLAG,
		old: {
			value: "<text>",
			description:
				"The exact text to replace (the CLI turns \\n and \\t into newlines and tabs; use old64= for exact bytes).",
		},
		old64: { value: "<base64>", description: "The text to replace, as base64 of its UTF-8 bytes." },
		new: { value: "<text>", description: "The replacement (empty to remove the old text)." },
		new64: { value: "<base64>", description: "The replacement, as base64 of its UTF-8 bytes." },
		all: { description: "Replace every occurrence, not just one." },
		edits64: {
			value: "<base64>",
			description: `Several edits applied together, in order: base64 of a JSON list of {"old","new","replaceAll"?} (up to ${MAX_EDITS}).`,
		},
		...REVISION_FLAG("Optional: edit only if the note is still this revision."),
		...AGENT_FLAG,
	},
	async run(args, notes) {
		const path = args.notePath(notes);
		const actor = args.actor(notes);
		const ifMatch = args.ifMatch();
		const edits = args.has("edits64") ? await editList(args, notes) : [await oneEdit(args, notes)];
		const outcome = await notes.write({
			path,
			operation: { kind: "edit", edits },
			ifMatch,
			ifNoneMatch: { kind: "absent" },
			actor,
			heldRevision: null,
		});
		return writeAnswer("edit", path, outcome);
	},
};

async function oneEdit(args: Arguments, notes: AgentNotes): Promise<TextEdit> {
	const replaceAll = args.flag("all");
	const old = (await textArgument(args, notes, "old", { required: true }))!;
	const replacement = (await textArgument(args, notes, "new", { required: true }))!;
	return { old, new: replacement, ...(replaceAll ? { replaceAll } : {}) };
}

/** `edits64=`: several edits in one atomic call, as edit_note takes them over MCP. */
async function editList(args: Arguments, notes: AgentNotes): Promise<TextEdit[]> {
	const single = ["old", "old64", "new", "new64", "all"].find((name) => args.has(name));
	if (single)
		badArgument(
			single,
			`Give either edits64= or old=/new=, not both (${single}= was given too).`,
			"Put every edit in the edits64= list.",
		);
	const shape =
		'edits64= must be base64 of a JSON list like [{"old":"a","new":"b"},{"old":"c","new":"d","replaceAll":true}].';
	const text = (await textArgument(args, notes, "edits", { required: true }))!;
	let parsed: unknown;
	try {
		if (jsonRefusal(text) !== null) throw new Error("too deep");
		parsed = JSON.parse(text);
	} catch {
		return badArgument("edits64", `${shape} It is not valid JSON.`, "Encode the JSON list's UTF-8 bytes with base64.");
	}
	const isEdit = (item: unknown): item is TextEdit => {
		const edit = item as Partial<Record<string, unknown>> | null;
		return (
			typeof edit === "object" &&
			edit !== null &&
			typeof edit.old === "string" &&
			typeof edit.new === "string" &&
			(edit.replaceAll === undefined || typeof edit.replaceAll === "boolean") &&
			Object.keys(edit).every((key) => ["old", "new", "replaceAll"].includes(key))
		);
	};
	if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_EDITS || !parsed.every(isEdit)) {
		return badArgument(
			"edits64",
			`${shape} (1 to ${MAX_EDITS} edits, each with exactly the strings old and new and an optional boolean replaceAll.)`,
			"Fix the list and send it again.",
		);
	}
	return parsed.map((edit) => ({ old: edit.old, new: edit.new, ...(edit.replaceAll ? { replaceAll: true } : {}) }));
}

const OPERATIONS: readonly PatchOperation[] = ["append", "prepend", "replace", "delete"];
const TARGET_TYPES: readonly PatchTargetType[] = ["heading", "frontmatter", "block"];
const SCOPES: readonly PatchScope[] = ["content", "marker", "markerAndContent"];

export const patchCommand: CliCommand = {
	action: "patch",
	description:
		"Append, prepend, replace or delete under a heading, a block (^id) or a frontmatter " +
		"key; needs the revision you read.",
	flags: {
		...PATH_FLAG,
		...REVISION_FLAG("The revision revision-guard:read returned (required)."),
		type: { value: "heading|frontmatter|block", description: "What target names." },
		target: {
			value: "<target>",
			description: 'A heading path ("Plan::Next steps"), a frontmatter key, or a block id.',
		},
		operation: { value: "append|prepend|replace|delete", description: "What to do there." },
		delimiter: { value: "<text>", description: "Separates nested headings in target (default ::)." },
		json: { description: "The text is a JSON value (frontmatter)." },
		create: { description: "Create the heading or frontmatter key if it is missing." },
		scope: {
			value: "content|marker|markerAndContent",
			description:
				"content (default); marker: replace renames the heading, block id or key (the new " +
				"name in content); markerAndContent: the whole section, block or entry.",
		},
		within: {
			value: "<index>",
			description:
				"Heading only: act on one block of the section's own body (0 the first, -1 the last), " +
				"splicing the text in literally.",
		},
		reject: { description: "Refuse an append or prepend whose text is already in the target (a safe retry)." },
		...CONTENT_FLAGS,
		...AGENT_FLAG,
	},
	async run(args, notes) {
		const path = args.notePath(notes);
		const actor = args.actor(notes);
		if (!args.has("revision")) {
			throwFailure(
				"precondition-required" satisfies RefusalCode,
				`Patching "${path}" needs the revision you read; nothing was written.`,
				`Read it first (${commandLine("read", { path })}), then run revision-guard:patch ` +
					`again with revision=<the revision it returned>.`,
				{ argument: "revision", path },
			);
		}
		const ifMatch = args.ifMatch();
		const operation = args.choice("operation", OPERATIONS);
		const targetType = args.choice("type", TARGET_TYPES);
		const target = args.required("target", "the heading path, frontmatter key or block id to change");
		const delimiter = args.text("delimiter");
		const within = args.text("within");
		if (within !== undefined && !/^-?\d{1,15}$/.test(within))
			badArgument(
				"within",
				"within= must be a whole number (0 the first block of the section's body, -1 the last).",
				"Write it as digits, e.g. within=-1.",
			);
		const instruction: PatchInstruction = {
			operation,
			targetType,
			target,
			...(delimiter ? { delimiter } : {}),
			json: args.flag("json"),
			createTargetIfMissing: args.flag("create"),
			scope: args.choice("scope", SCOPES, "content"),
			...(within !== undefined ? { within: Number(within) } : {}),
			...(args.flag("reject") ? { rejectIfContentPreexists: true } : {}),
		};
		const body =
			(await textArgument(args, notes, "content", { required: operation !== "delete", fromFile: true })) ?? "";
		const outside = algebraError(instruction, body);
		if (outside !== null)
			throwFailure("invalid-patch", outside, "Fix the arguments as said and run revision-guard:patch again.", { path });
		// The patch engine (and yaml with it) is evaluated at the first patch, not when Obsidian loads the plugin.
		const { applyPatch } = await import("../core/patch");
		const outcome = await notes.write({
			path,
			// Computed inside the writer's atomic step, on the note as it is then.
			operation: { kind: "patch", apply: (current) => applyPatch(current, instruction, body) },
			ifMatch,
			ifNoneMatch: { kind: "absent" },
			actor,
			heldRevision: null,
		});
		return writeAnswer("patch", path, outcome);
	},
};
