/** One row of the merge view per block: base, your note, result and agent side by side, or a collapsed stretch. */
import { lineCount } from "./block-text";
import type { Block, ConflictBlock, StableBlock } from "./blocks";
import { renderConflictCell } from "./conflict-block";
import { paneTexts } from "./highlight";
import type { MergeState } from "./merge-state";
import { CLS, createCell, createEditor, renderSegments, setEditorValue } from "./panes";
import { originLabel, unchangedLines } from "./text";

export interface RowContext {
	state: MergeState;
	/** After a choice or typing in block `index`. */
	onChange(index: number): void;
	/** The person expanded the collapsed block `index`. */
	onExpand(index: number): void;
	/** Focus entered conflict `id` (so next/previous continue from there). */
	onFocusConflict(id: number): void;
}

export interface RowHandle {
	element: HTMLElement;
	/** Where focus goes when this row is navigated to. */
	focusTarget: HTMLElement;
	update(typed: boolean): void;
}

export function renderRow(parent: HTMLElement, context: RowContext, index: number): RowHandle {
	const block = context.state.blockList[index];
	if (!block) throw new RangeError(`No merge block ${index}`);
	if (block.kind === "conflict") return renderConflictRow(parent, context, index, block);
	if (block.collapsible && !block.expanded) return renderCollapsed(parent, context, index, block);
	const row = parent.createDiv({ cls: [`${CLS}-row`, `${CLS}-origin-${block.origin}`] });
	return renderStableResult(row, renderSides(row, block), context, index, block);
}

/** Base, your note, (result), agent: returns the result cell, still empty. */
function renderSides(row: HTMLElement, block: Readonly<Block>): HTMLElement {
	const texts = paneTexts(block);
	renderSegments(createCell(row, "base"), texts.base);
	renderSegments(createCell(row, "mine"), texts.mine);
	const result = createCell(row, "result");
	renderSegments(createCell(row, "theirs"), texts.theirs);
	return result;
}

function renderConflictRow(parent: HTMLElement, context: RowContext, index: number, block: Readonly<ConflictBlock>): RowHandle {
	// Focusable so navigation can land on it; a group, named by its number and state.
	const row = parent.createDiv({ cls: [`${CLS}-row`, `${CLS}-row-conflict`], attr: { tabindex: -1, role: "group" } });
	// Number, state and buttons sit in a bar across the row, so the three texts below start level.
	const bar = row.createDiv({ cls: `${CLS}-conflict-bar` });
	const result = renderSides(row, block);
	row.addEventListener("focusin", () => context.onFocusConflict(block.id));
	const cell = renderConflictCell(row, bar, result, context.state, index, block, () => context.onChange(index));
	return { element: row, focusTarget: row, update: (typed) => cell.update(typed) };
}

function renderStableResult(row: HTMLElement, cell: HTMLElement, context: RowContext, index: number, block: Readonly<StableBlock>): RowHandle {
	const { state } = context;
	const origin = block.origin === "base" ? null : originLabel(block.origin);
	const label = cell.createDiv({ cls: `${CLS}-block-label` });
	const area = createEditor(cell, origin === null ? "Result: unchanged text" : `Result: ${origin.toLowerCase()}`, state.displayText(index), (value) => {
		state.edit(index, value);
		update(true);
		context.onChange(index);
	});
	function update(typed: boolean): void {
		const edited = state.isEdited(index);
		row.toggleClass(`${CLS}-edited`, edited);
		const text = origin === null ? (edited ? "Edited by you" : "") : edited ? `${origin} · edited` : origin;
		label.setText(text);
		label.toggleClass(`${CLS}-hidden`, text === "");
		row.toggleClass(`${CLS}-labelled`, text !== "");
		if (!typed) setEditorValue(area, state.displayText(index));
	}
	update(false);
	return { element: row, focusTarget: area, update };
}

/** No textarea and no pane text until expanded: long notes open fast. */
function renderCollapsed(parent: HTMLElement, context: RowContext, index: number, block: Readonly<StableBlock>): RowHandle {
	const lines = lineCount(block.auto);
	const row = parent.createDiv({ cls: [`${CLS}-row`, `${CLS}-collapsed`] });
	const bar = row.createDiv({ cls: `${CLS}-collapsed-bar` });
	bar.createSpan({ cls: `${CLS}-collapsed-text`, text: unchangedLines(lines) });
	const button = bar.createEl("button", {
		cls: `${CLS}-expand`,
		text: "Expand",
		attr: { type: "button", "aria-label": `Expand ${lines} unchanged ${lines === 1 ? "line" : "lines"}` },
	});
	button.addEventListener("click", () => context.onExpand(index));
	return { element: row, focusTarget: button, update: () => undefined };
}
