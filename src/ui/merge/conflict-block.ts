/** A conflict's bar (number, state, reason, resolve buttons) and its editable text in the result pane. */
import type { ConflictBlock } from "./blocks";
import type { MergeState } from "./merge-state";
import { CLS, createEditor, setEditorValue } from "./panes";
import { CHOICES, reasonText, statusText } from "./text";

export interface ConflictCell {
	/** Re-reads the conflict from the state; `typed` leaves the textarea alone (the person is typing in it). */
	update(typed: boolean): void;
}

export function renderConflictCell(
	row: HTMLElement,
	bar: HTMLElement,
	cell: HTMLElement,
	state: MergeState,
	index: number,
	conflict: Readonly<ConflictBlock>,
	onChange: () => void,
): ConflictCell {
	const number = `${conflict.id + 1} of ${state.conflictCount}`;
	const head = bar.createDiv({ cls: `${CLS}-conflict-head` });
	head.createSpan({ cls: `${CLS}-conflict-title`, text: `Conflict ${number}` });
	const status = head.createSpan({ cls: `${CLS}-conflict-status` });
	head.createSpan({ cls: `${CLS}-conflict-reason`, text: reasonText(conflict.reason) });

	const group = bar.createDiv({ cls: `${CLS}-choices`, attr: { role: "group", "aria-label": `Resolve conflict ${number}` } });
	const buttons = new Map<string, HTMLButtonElement>();
	for (const { choice, label } of CHOICES) {
		// Without a base there is nothing to go back to.
		if (choice === "base" && conflict.reason === "no-base") continue;
		const button = group.createEl("button", { cls: `${CLS}-choice`, text: label, attr: { type: "button", "aria-pressed": "false" } });
		button.addEventListener("click", () => {
			state.choose(index, choice);
			update(false);
			onChange();
		});
		buttons.set(choice, button);
	}

	const area = createEditor(cell, `Result of conflict ${number}`, state.displayText(index), (value) => {
		state.edit(index, value);
		update(true);
		onChange();
	});

	function update(typed: boolean): void {
		const current = state.status(conflict);
		status.setText(statusText(current));
		for (const [choice, button] of buttons) button.setAttr("aria-pressed", String(choice === current));
		row.toggleClass(`${CLS}-unresolved`, current === "unresolved");
		row.toggleClass(`${CLS}-resolved`, current !== "unresolved");
		row.toggleClass(`${CLS}-edited`, current === "edited");
		row.setAttr("aria-label", `Conflict ${number}: ${statusText(current).toLowerCase()}`);
		if (!typed) setEditorValue(area, state.displayText(index));
	}

	update(false);
	return { update };
}
