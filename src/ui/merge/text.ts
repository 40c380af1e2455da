/** The merge view's wording, in one place so the view and its tests agree. */
import type { BlockReason, RuleMark } from "./blocks";
import type { Choice } from "./block-text";
import type { ConflictResolution } from "./merge-state";

/** Each choice's button: short visible wording, and a tooltip that says exactly what it puts in the result. */
export const CHOICES: readonly { choice: Choice; label: string; title: string }[] = [
	{ choice: "mine", label: "Take mine", title: "Use your note's text here" },
	{ choice: "theirs", label: "Take the agent's", title: "Use the agent's text here" },
	{ choice: "mine-theirs", label: "Both, mine first", title: "Keep both: your text, then the agent's" },
	{ choice: "theirs-mine", label: "Both, agent's first", title: "Keep both: the agent's text, then yours" },
	{
		choice: "base",
		label: "Neither (base)",
		title: "Drop both changes: use the base, the text before either of you changed it",
	},
];

export const CLEAR_CHOICE = { label: "Clear choice", title: "Make this conflict undecided again" };

export const UNDECIDED_PLACEHOLDER = "Undecided: choose a version above, or type the text you want here.";

export const NO_BASE_NOTICE =
	"What the agent read is no longer kept, so nobody can tell which side changed what: " +
	"every difference between your note and the agent's version is shown as a conflict.";

/** "2 conflicts · 1 left to decide": the total matches "Conflict 1 of 2", the rest says what is still open. */
export function counterText(conflicts: number, unresolved: number): string {
	if (conflicts === 0) return "No conflicts";
	const total = conflicts === 1 ? "1 conflict" : `${conflicts} conflicts`;
	return `${total} · ${unresolved === 0 ? "all decided" : `${unresolved} left to decide`}`;
}

export function unresolvedSaveQuestion(unresolved: number): string {
	return unresolved === 1
		? "1 conflict is undecided. It will be saved into the note with both versions between " +
				"conflict markers (<<<<<<< and >>>>>>>). Save anyway?"
		: `${unresolved} conflicts are undecided. They will be saved into the note with both ` +
				`versions between conflict markers (<<<<<<< and >>>>>>>). Save anyway?`;
}

/** Review mode (a proposal): what Accept is about to write. */
export function acceptLabel(changedSince: boolean, edited: boolean): string {
	if (changedSince) return "Accept merge";
	return edited ? "Accept with edits" : "Accept";
}

export function unresolvedAcceptQuestion(unresolved: number): string {
	return unresolvedSaveQuestion(unresolved).replace(/Save anyway\?$/, "Accept anyway?");
}

export const REJECT_NOTE_PLACEHOLDER = "Note to the agent (optional): why, or what to do instead";

/** Review mode's first line: what the person is looking at. */
export function reviewIntro(agentName: string, changedSince: boolean): string {
	return changedSince
		? `The note changed since ${agentName} proposed this, so nothing is written over your ` +
				`changes: this is a three-way merge of the note then, your note now and the proposal. ` +
				`Accept writes the result.`
		: `${agentName} proposes this change; nothing was written. The result column is what ` +
				`Accept writes: untick a change to leave it out, or edit it.`;
}

export const EDIT_HINT = "Edit the result column, then accept. Untick a change to leave it out.";

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
			return "Undecided";
		case "edited":
			return "Typed by you";
		case "mine":
			return "Took mine";
		case "theirs":
			return "Took the agent's";
		case "mine-theirs":
			return "Both, mine first";
		case "theirs-mine":
			return "Both, agent's first";
		case "base":
			return "Neither (base)";
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

/** The tick box that keeps (or, unticked, undoes) one automatic change. */
export function keepChangeTitle(origin: "mine" | "theirs" | "both", rule: RuleMark | null): string {
	const whose = origin === "mine" ? "your change" : origin === "theirs" ? "the agent's change" : "this change";
	const made = rule === null ? "" : ` ${ruleText(rule)}`;
	return (
		`Untick to undo ${whose} here: the result goes back to the base, the text before ` +
		`either of you changed it.${made}`
	);
}

export function undoneLabel(origin: "mine" | "theirs" | "both"): string {
	return origin === "mine" ? "Your change undone" : origin === "theirs" ? "Agent's change undone" : "Change undone";
}

export function ruleName(rule: RuleMark): string {
	return rule === "frontmatter" ? "frontmatter rule" : rule === "tags" ? "tags rule" : "list rule";
}

/** Why a markdown rule could merge what git's line rule would have left as a conflict. */
export function ruleText(rule: RuleMark): string {
	switch (rule) {
		case "frontmatter":
			return "Merged by the frontmatter rule: each side changed different properties, so both changes were kept.";
		case "tags":
			return "Merged by the tags rule: both sides changed a list property (tags, aliases…), so both sets were kept.";
		case "list":
			return "Merged by the list rule: each side changed its own list item, so both changes were kept.";
	}
}

export const USE_SIDE_BLOCK = {
	mine: { label: "Use mine", title: "Undo the rule's merge here: use your note's block as it is" },
	theirs: { label: "Use the agent's", title: "Undo the rule's merge here: use the agent's block as it is" },
} as const;

export function unchangedLines(lines: number): string {
	return lines === 1 ? "… 1 unchanged line" : `… ${lines} unchanged lines`;
}
