/** The merge view's wording, in one place so the view and its tests agree. */
import type { BlockReason } from "./blocks";
import type { Choice } from "./block-text";
import type { ConflictResolution } from "./merge-state";

export const CHOICES: readonly { choice: Choice; label: string }[] = [
	{ choice: "mine", label: "Keep mine" },
	{ choice: "theirs", label: "Take agent's" },
	{ choice: "mine-theirs", label: "Both (mine first)" },
	{ choice: "theirs-mine", label: "Both (agent's first)" },
	{ choice: "base", label: "Base" },
];

export const NO_BASE_NOTICE =
	"What the agent read is no longer kept, so nobody can tell which side changed what: every difference between your note and the agent's version is shown as a conflict.";

export function counterText(conflicts: number, unresolved: number): string {
	if (conflicts === 0) return "No conflicts";
	if (unresolved === 0) return "All conflicts resolved";
	return unresolved === 1 ? "1 conflict left" : `${unresolved} conflicts left`;
}

export function unresolvedSaveQuestion(unresolved: number): string {
	return unresolved === 1
		? "1 conflict is unresolved. Its conflict markers will be saved into the note. Save anyway?"
		: `${unresolved} conflicts are unresolved. Their conflict markers will be saved into the note. Save anyway?`;
}

export const RESET_DONE = "Back to the automatic merge: your choices and typing were cleared.";

export function keptEditsNotice(kept: number): string {
	return kept === 1
		? "1 conflict you typed into was left as you typed it."
		: `${kept} conflicts you typed into were left as you typed them.`;
}

export function droppedNotice(dropped: number): string {
	if (dropped === 0) return "";
	return dropped === 1
		? " 1 choice or edit no longer applies because your note changed there."
		: ` ${dropped} choices or edits no longer apply because your note changed there.`;
}

export function statusText(status: ConflictResolution): string {
	switch (status) {
		case "unresolved":
			return "Unresolved";
		case "edited":
			return "Edited by you";
		case "mine":
			return "Kept mine";
		case "theirs":
			return "Took agent's";
		case "mine-theirs":
			return "Both, mine first";
		case "theirs-mine":
			return "Both, agent's first";
		case "base":
			return "Kept base";
	}
}

export function reasonText(reason: BlockReason): string {
	switch (reason) {
		case "overlap":
			return "Both sides changed these lines.";
		case "fence":
			return "Both sides changed this code block.";
		case "frontmatter":
			return "Both sides changed this property.";
		case "no-base":
			return "Your note and the agent's version differ here.";
	}
}

export function originLabel(origin: "mine" | "theirs" | "both"): string {
	return origin === "mine" ? "From your note" : origin === "theirs" ? "From the agent" : "From both";
}

export function unchangedLines(lines: number): string {
	return lines === 1 ? "… 1 unchanged line" : `… ${lines} unchanged lines`;
}
