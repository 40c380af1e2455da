/**
 * The question put to the person: one required single choice (MCP 2025-11-25's titled single-select enum, the
 * restricted form schema every form-mode client renders), offering only what can be done here and now.
 */
import type { ElicitRequestFormParams } from "../protocol/types";

export type PersonChoice = "merge" | "keep" | "take" | "open";

export interface ChoiceFacts {
	agent: string;
	path: string;
	backupPath: string | null;
	/** The two versions merge without overlapping changes. */
	canMerge: boolean;
	/** The host can show its merge modal (Obsidian). */
	canOpen: boolean;
}

export interface ChoiceForm {
	params: Omit<ElicitRequestFormParams, "mode">;
	/** What was offered, in the order shown. */
	choices: PersonChoice[];
	/** The choice in an accepted answer, if it is one that was offered. */
	choiceOf(content: Record<string, unknown> | undefined): PersonChoice | null;
}

export function choiceForm(facts: ChoiceFacts): ChoiceForm {
	const kept = facts.backupPath ? ` (it stays in ${JSON.stringify(facts.backupPath)})` : "";
	const options: { const: PersonChoice; title: string }[] = [
		...(facts.canMerge
			? [{ const: "merge" as const, title: "Merge both versions (their changes do not overlap)" }]
			: []),
		{ const: "keep", title: `Keep the note as it is, without the agent's change${kept}` },
		{ const: "take", title: "Replace the note with the agent's version (the note's newer changes are replaced)" },
		...(facts.canOpen
			? [{ const: "open" as const, title: "Open both versions in Obsidian's merge view and decide there" }]
			: []),
	];
	const message =
		`${facts.agent} tried to change ${JSON.stringify(facts.path)}, but the note changed after ${facts.agent} ` +
		`read it, so nothing was written. ` +
		"What should happen to the note?";
	return {
		params: {
			message,
			requestedSchema: {
				type: "object",
				properties: { choice: { type: "string", title: "Choice", oneOf: options } },
				required: ["choice"],
			},
		},
		choices: options.map((option) => option.const),
		choiceOf(content) {
			const choice = content?.choice;
			return options.find((option) => option.const === choice)?.const ?? null;
		},
	};
}
