/** One row of the merge view per block: base, your note, result and agent side by side, or a collapsed stretch. */
import { lineCount } from "../../core/markdown/lines";
import type { Block, ConflictBlock, StableBlock } from "./blocks";
import { renderConflictCell } from "./conflict-block";
import { paneTexts } from "./highlight";
import type { LineStarts } from "./lines";
import type { MergeState } from "./merge-state";
import { CLS, createCell, createEditor, renderSegments } from "./panes";
import { renderUndoControls } from "./undo-controls";
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
	/** The result's line numbers moved (a block above changed length). */
	renumber(resultLine: number): void;
}

export function renderRow(parent: HTMLElement, context: RowContext, index: number, starts: LineStarts): RowHandle {
	const block = context.state.blockList[index];
	if (!block) throw new RangeError(`No merge block ${index}`);
	if (block.kind === "conflict") return renderConflictRow(parent, context, index, block, starts);
	if (block.collapsible && !block.expanded) return renderCollapsed(parent, context, index, block, starts);
	const classes = [`${CLS}-row`, `${CLS}-origin-${block.origin}`];
	if (block.rule !== null) classes.push(`${CLS}-rule`);
	// A rule that combined two blocks offers two more buttons: its badge takes a line of its own above the texts.
	if (block.ruleMine !== null && block.ruleTheirs !== null) classes.push(`${CLS}-badge-above`);
	const row = parent.createDiv({ cls: classes });
	return renderStableResult(row, renderSides(row, block, starts), context, index, block, starts);
}

/** Base, your note, (result), agent: returns the result cell, still empty. */
function renderSides(row: HTMLElement, block: Readonly<Block>, starts: LineStarts): HTMLElement {
	const texts = paneTexts(block);
	renderSegments(createCell(row, "base"), texts.base, starts.base);
	renderSegments(createCell(row, "mine"), texts.mine, starts.mine);
	const result = createCell(row, "result");
	renderSegments(createCell(row, "theirs"), texts.theirs, starts.theirs);
	return result;
}

function renderConflictRow(
	parent: HTMLElement,
	context: RowContext,
	index: number,
	block: Readonly<ConflictBlock>,
	starts: LineStarts,
): RowHandle {
	// Focusable so navigation can land on it; a group, named by its number and state.
	const row = parent.createDiv({ cls: [`${CLS}-row`, `${CLS}-row-conflict`], attr: { tabindex: -1, role: "group" } });
	// Number, state and buttons sit in a bar across the row, so the three texts below start level.
	const bar = row.createDiv({ cls: `${CLS}-conflict-bar` });
	const result = renderSides(row, block, starts);
	row.addEventListener("focusin", () => context.onFocusConflict(block.id));
	const cell = renderConflictCell({
		row,
		bar,
		cell: result,
		state: context.state,
		index,
		conflict: block,
		firstLine: starts.result,
		onChange: () => context.onChange(index),
	});
	return {
		element: row,
		focusTarget: row,
		update: (typed) => cell.update(typed),
		renumber: (line) => cell.editor.setFirstLine(line),
	};
}

function renderStableResult(
	row: HTMLElement,
	cell: HTMLElement,
	context: RowContext,
	index: number,
	block: Readonly<StableBlock>,
	starts: LineStarts,
): RowHandle {
	const { state } = context;
	const origin = block.origin === "base" ? null : originLabel(block.origin);
	// Unchanged text has nothing to undo: only a label once the person types into it.
	const controls =
		block.origin === "base"
			? null
			: renderUndoControls(cell, block.origin, block, (to) => {
					state.undoChange(index, to);
					update(false);
					context.onChange(index);
				});
	const label = controls === null ? cell.createDiv({ cls: [`${CLS}-badge`, `${CLS}-block-label`] }) : null;
	const editor = createEditor(
		cell,
		origin === null ? "Result: unchanged text" : `Result: ${origin.toLowerCase()}`,
		state.displayText(index),
		starts.result,
		(value) => {
			state.edit(index, value);
			update(true);
			context.onChange(index);
		},
	);
	function update(typed: boolean): void {
		const edited = state.isEdited(index);
		row.toggleClass(`${CLS}-edited`, edited);
		row.toggleClass(`${CLS}-undone`, block.undo !== null);
		controls?.update(edited);
		if (label !== null) {
			label.setText(edited ? "Edited by you" : "");
			label.toggleClass(`${CLS}-hidden`, !edited);
		}
		row.toggleClass(`${CLS}-labelled`, controls !== null || edited);
		if (!typed) editor.setValue(state.displayText(index));
	}
	update(false);
	return { element: row, focusTarget: editor.area, update, renumber: (line) => editor.setFirstLine(line) };
}

/** No textarea and no pane text until expanded: long notes open fast. */
function renderCollapsed(
	parent: HTMLElement,
	context: RowContext,
	index: number,
	block: Readonly<StableBlock>,
	starts: LineStarts,
): RowHandle {
	const lines = lineCount(block.auto);
	const row = parent.createDiv({ cls: [`${CLS}-row`, `${CLS}-collapsed`] });
	const bar = row.createDiv({ cls: `${CLS}-collapsed-bar` });
	const range = bar.createSpan({ cls: `${CLS}-collapsed-text`, text: unchangedLines(lines) });
	const where = bar.createSpan({ cls: `${CLS}-collapsed-lines` });
	const renumber = (first: number) =>
		where.setText(lines === 1 ? `(result line ${first})` : `(result lines ${first}–${first + lines - 1})`);
	renumber(starts.result);
	range.setAttr("title", "The same in the base, your note and the agent's version");
	const button = bar.createEl("button", {
		cls: `${CLS}-expand`,
		text: "Expand",
		attr: {
			type: "button",
			"aria-label": `Expand ${lines} unchanged ${lines === 1 ? "line" : "lines"}`,
			title: "Show these unchanged lines",
		},
	});
	button.addEventListener("click", () => context.onExpand(index));
	return { element: row, focusTarget: button, update: () => undefined, renumber };
}
