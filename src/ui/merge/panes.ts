/** DOM for the read-only panes (base, your note, agent) and for the result's editable text boxes. */
import type { Segment } from "./highlight";

export const CLS = "revision-guard-merge";

export type PaneName = "base" | "mine" | "result" | "theirs";

export interface PaneLabels {
	base: string;
	mine: string;
	result: string;
	theirs: string;
}

export function paneLabels(agentName: string): PaneLabels {
	return { base: "Base: what the agent read", mine: "Your note", result: "Result", theirs: `Agent (${agentName})` };
}

/** The column headings; the rows below line up with them. */
export function renderColumnHeadings(parent: HTMLElement, labels: PaneLabels): HTMLElement {
	const header = parent.createDiv({ cls: [`${CLS}-row`, `${CLS}-headings`] });
	for (const pane of ["base", "mine", "result", "theirs"] as const) {
		header.createEl("h3", { cls: [`${CLS}-heading`, `${CLS}-cell-${pane}`], text: labels[pane], attr: { id: headingId(pane) } });
	}
	return header;
}

/** Ids are per document; only one merge view is open at a time (it lives in a modal). */
export function headingId(pane: PaneName): string {
	return `${CLS}-heading-${pane}`;
}

/** A cell of a row, announced with its pane's name. */
export function createCell(row: HTMLElement, pane: PaneName): HTMLDivElement {
	return row.createDiv({ cls: [`${CLS}-cell`, `${CLS}-cell-${pane}`], attr: { role: "group", "aria-labelledby": headingId(pane) } });
}

/** A read-only side: plain text with added words highlighted and removed words struck through. */
export function renderSegments(cell: HTMLElement, segments: readonly Segment[]): void {
	const text = cell.createDiv({ cls: `${CLS}-side` });
	for (const segment of segments) {
		if (segment.kind === "same") text.createSpan({ text: segment.text });
		else if (segment.kind === "added") text.createEl("ins", { cls: `${CLS}-added`, text: segment.text });
		else text.createEl("del", { cls: `${CLS}-removed`, text: segment.text });
	}
}

/**
 * An editable block of the result. One textarea per block (never per line); it grows with its content through
 * CSS `field-sizing` where supported and the `rows` attribute elsewhere.
 */
export function createEditor(cell: HTMLElement, label: string, value: string, onInput: (value: string) => void): HTMLTextAreaElement {
	const area = cell.createEl("textarea", { cls: `${CLS}-text`, attr: { "aria-label": label, spellcheck: "false" } });
	setEditorValue(area, value);
	area.addEventListener("input", () => {
		fitRows(area);
		onInput(area.value);
	});
	return area;
}

export function setEditorValue(area: HTMLTextAreaElement, value: string): void {
	if (area.value !== value) area.value = value;
	fitRows(area);
}

function fitRows(area: HTMLTextAreaElement): void {
	let rows = 1;
	for (let at = area.value.indexOf("\n"); at !== -1; at = area.value.indexOf("\n", at + 1)) rows++;
	area.setAttr("rows", rows);
}
