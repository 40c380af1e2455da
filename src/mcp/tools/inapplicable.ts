/**
 * Edits and patches that do not apply to the note as it is (the old text is not there, a heading is missing): a tool
 * error with the writer's reason, what to call next, and the current revision. Nothing was written, nothing is kept.
 */
import type { CallToolResult } from "../protocol/types";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { toolError, ok, type ToolContext } from "./context";
import { refusalResult } from "./refusal";
import { proposedResult } from "./proposed";
import { inapplicableCode } from "../../core/refusal-codes";
import { revisionField, tokenFor } from "../../core/revision-tokens";

type Inapplicable = Extract<WriteOutcome, { kind: "inapplicable" }>;

export function inapplicableResult(
	path: string,
	outcome: Inapplicable,
	tool: "edit_note" | "patch_note",
): CallToolResult {
	const { reason, detail, currentRevision, currentSight } = outcome;
	const quoted = JSON.stringify(path);
	const reread = `call read_note {"path":${quoted}} to see the note as it is now, then call ${tool} again`;
	const next = nextStep(reason, tool, reread, quoted);
	return toolError(
		`Not ${tool === "edit_note" ? "edited" : "patched"}: ${detail} Nothing was written to ${quoted}. Next: ${next}.`,
		{
			error: inapplicableCode(reason, tool === "edit_note" ? "edit" : "patch"),
			reason,
			path,
			...revisionField("currentRevision", currentRevision, currentSight),
		},
	);
}

function nextStep(
	reason: Inapplicable["reason"],
	tool: "edit_note" | "patch_note",
	reread: string,
	quoted: string,
): string {
	switch (reason) {
		case "target-not-found":
			return tool === "edit_note"
				? `${reread} with old_string copied exactly from it (whitespace and line breaks included)`
				: `${reread} with a target it has, or with create_target_if_missing: true to add the heading or key`;
		case "ambiguous-target":
			return tool === "edit_note"
				? `include more of the surrounding text in old_string so it occurs once, or set replace_all: ` +
						`true on that edit to change every occurrence`
				: `${reread}, naming the enclosing headings too`;
		case "invalid-target":
		case "invalid-value":
		case "invalid-instruction":
			return `fix the call as said above and call ${tool} again`;
		case "content-preexists":
			return "nothing: the text is already there (reject_if_content_preexists); read the note if you need to check it";
		case "key-collision":
			return `${reread} with a name the note does not use yet`;
		case "invalid-frontmatter":
			return (
				`call read_note {"path":${quoted}}, then write the whole note, frontmatter fixed, ` +
				`with write_note and the revision it returns`
			);
	}
}

/** The answer to an edit or a patch: both change an existing note in place, so they end, and are answered, alike. */
export async function inPlaceChangeResult(
	path: string,
	outcome: WriteOutcome,
	tool: "edit_note" | "patch_note",
	context: ToolContext,
): Promise<CallToolResult> {
	switch (outcome.kind) {
		case "written":
		case "unchanged":
			return ok({ path, revision: tokenFor(outcome.revision, outcome.sight) });
		case "inapplicable":
			return inapplicableResult(path, outcome, tool);
		case "proposed":
			return proposedResult(outcome);
		case "refused":
			if (outcome.refusal.reason === "not-found") {
				return toolError(
					`There is no note at ${JSON.stringify(path)}; ${tool} changes an existing note, so ` +
						`nothing was written. To create it, call write_note without a revision.`,
					{ error: outcome.report.code, path },
				);
			}
			return refusalResult(path, outcome, tool, context);
		case "deleted":
			throw new Error(`${tool === "edit_note" ? "an edit" : "a patch"} cannot end as "${outcome.kind}"`);
	}
}
