/** A conflict's bar (number, state, reason, resolve buttons) and its editable text in the result pane. */
import type { ConflictBlock } from "./blocks";
import type { MergeState } from "./merge-state";
import { CLS, createEditor, type Editor } from "./panes";
import { CHOICES, CLEAR_CHOICE, reasonText, statusText, UNDECIDED_PLACEHOLDER } from "./text";

export interface ConflictCell {
	editor: Editor;
	/** Re-reads the conflict from the state; `typed` leaves the textarea alone (the person is typing in it). */
	update(typed: boolean): void;
}

export interface ConflictCellParts {
	row: HTMLElement;
	bar: HTMLElement;
	cell: HTMLElement;
	state: MergeState;
	index: number;
	conflict: Readonly<ConflictBlock>;
	/** The result line this conflict starts on. */
	firstLine: number;
	onChange: () => void;
}

/**
 * An undecided conflict shows no markers: its result box is empty with its choices above, and typing into it is a
 * choice too. Markers are written only when the person saves with conflicts still undecided.
 */
export function renderConflictCell(parts: ConflictCellParts): ConflictCell {
	const { row, bar, cell, state, index, conflict, onChange } = parts;
	const number = `${conflict.id + 1} of ${state.conflictCount}`;
	const head = bar.createDiv({ cls: `${CLS}-conflict-head` });
	head.createSpan({ cls: `${CLS}-conflict-title`, text: `Conflict ${number}` });
	const status = head.createSpan({ cls: `${CLS}-conflict-status` });
	head.createSpan({ cls: `${CLS}-conflict-reason`, text: reasonText(conflict.reason) });

	const group = bar.createDiv({
		cls: `${CLS}-choices`,
		attr: { role: "group", "aria-label": `Resolve conflict ${number}` },
	});
	const buttons = new Map<string, HTMLButtonElement>();
	for (const { choice, label, title } of CHOICES) {
		// Without a base there is nothing to go back to.
		if (choice === "base" && conflict.reason === "no-base") continue;
		const button = group.createEl("button", {
			cls: `${CLS}-choice`,
			text: label,
			attr: { type: "button", "aria-pressed": "false", title },
		});
		button.addEventListener("click", () => {
			state.choose(index, choice);
			update(false);
			onChange();
		});
		buttons.set(choice, button);
	}
	const clear = group.createEl("button", {
		cls: [`${CLS}-choice`, `${CLS}-clear`],
		text: CLEAR_CHOICE.label,
		attr: { type: "button", title: CLEAR_CHOICE.title },
	});
	clear.addEventListener("click", () => {
		state.clearChoice(index);
		update(false);
		onChange();
	});

	const editor = createEditor(
		cell,
		`Result of conflict ${number}`,
		state.displayText(index),
		parts.firstLine,
		(value) => {
			state.edit(index, value);
			update(true);
			onChange();
		},
	);

	function update(typed: boolean): void {
		const current = state.status(conflict);
		status.setText(statusText(current));
		for (const [choice, button] of buttons) button.setAttr("aria-pressed", String(choice === current));
		clear.toggleClass(`${CLS}-hidden`, current === "unresolved");
		row.toggleClass(`${CLS}-unresolved`, current === "unresolved");
		row.toggleClass(`${CLS}-resolved`, current !== "unresolved");
		row.toggleClass(`${CLS}-edited`, current === "edited");
		row.setAttr("aria-label", `Conflict ${number}: ${statusText(current).toLowerCase()}`);
		editor.setPlaceholder(current === "unresolved" ? UNDECIDED_PLACEHOLDER : "");
		if (!typed) editor.setValue(state.displayText(index));
	}

	update(false);
	return { editor, update };
}
