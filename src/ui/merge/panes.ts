/** DOM for the read-only panes (base, your note, agent) and for the result's editable text boxes. */
import { ANOTHER_PROGRAM } from "../../core/another-program";
import type { Segment } from "./highlight";

export const CLS = "revision-guard-merge";

export type PaneName = "base" | "mine" | "result" | "theirs";

export interface PaneLabels {
	base: string;
	mine: string;
	result: string;
	theirs: string;
}

export function paneLabels(agentName: string, review = false, outside = false): PaneLabels {
	if (outside)
		return {
			base: "Base: before either change",
			mine: "The note now (another program's save)",
			result: "Result",
			theirs: "Before that save (kept)",
		};
	const theirs = review
		? `Proposal (${agentName})`
		: agentName === ANOTHER_PROGRAM
			? "Another program's save"
			: `Agent (${agentName})`;
	return { base: "Base: before either change", mine: "Your note", result: "Result", theirs };
}

/** What each column holds, as the heading's tooltip. */
export function paneTitles(agentName: string, review = false, outside = false): PaneLabels {
	if (outside) {
		return {
			base: "Base: the text before the edits the other program's save dropped",
			mine: "The note as another program saved it, without the edits saved before it",
			result: "What Save writes: edit any block, or choose for each conflict",
			theirs: "The note as it was just before that save, with the edits the program dropped (kept as a .bak note)",
		};
	}
	return {
		base: review
			? "Base: the note the proposal was made on"
			: "Base: the text before either of you changed it (what the agent read)",
		mine: "Your note as it is now",
		result: review
			? "What Accept writes: untick a change to leave it out, or edit any block"
			: "What Save writes: edit any block, or choose for each conflict",
		theirs: review ? `What the agent (${agentName}) proposes` : `What the agent (${agentName}) proposed`,
	};
}

/** The column headings; the rows below line up with them. */
export function renderColumnHeadings(parent: HTMLElement, labels: PaneLabels, titles: PaneLabels): HTMLElement {
	const header = parent.createDiv({ cls: [`${CLS}-row`, `${CLS}-headings`] });
	for (const pane of ["base", "mine", "result", "theirs"] as const) {
		header.createEl("h3", {
			cls: [`${CLS}-heading`, `${CLS}-cell-${pane}`],
			text: labels[pane],
			attr: { id: headingId(pane), title: titles[pane] },
		});
	}
	return header;
}

/** Ids are per document; only one merge view is open at a time (it lives in a modal). */
export function headingId(pane: PaneName): string {
	return `${CLS}-heading-${pane}`;
}

/** A cell of a row, announced with its pane's name. */
export function createCell(row: HTMLElement, pane: PaneName): HTMLDivElement {
	return row.createDiv({
		cls: [`${CLS}-cell`, `${CLS}-cell-${pane}`],
		attr: { role: "group", "aria-labelledby": headingId(pane) },
	});
}

/**
 * A read-only side: one numbered line per div (so a wrapped line keeps its number beside its first row), added words
 * highlighted and removed base words struck through. Removed whole lines get a row without a number.
 */
export function renderSegments(cell: HTMLElement, segments: readonly Segment[], firstLine: number): void {
	const side = cell.createDiv({ cls: `${CLS}-side` });
	const only = segments.length === 1 ? segments[0] : undefined;
	if (only?.kind === "same") return plainLines(side, only.text, firstLine);
	let number = firstLine;
	let current: HTMLElement | null = null;
	const open = (): HTMLElement => (current ??= numberedLine(side, number));
	for (const segment of segments) {
		if (segment.kind === "removed") {
			const wholeLines = current === null && segment.text.endsWith("\n");
			const holder = wholeLines
				? side.createDiv({ cls: [`${CLS}-line`, `${CLS}-line-removed`] }).createSpan({ cls: `${CLS}-line-text` })
				: open();
			holder.createEl("del", { cls: `${CLS}-removed`, text: wholeLines ? segment.text.slice(0, -1) : segment.text });
			continue;
		}
		segment.text.split("\n").forEach((part, i) => {
			if (i > 0) {
				// A newline ends the current line, even an empty one.
				open();
				current = null;
				number++;
			}
			if (part === "") return;
			if (segment.kind === "same") open().append(part);
			else open().createEl("ins", { cls: `${CLS}-added`, text: part });
		});
	}
}

/** A line row: its number comes from `data-line` through CSS, so copying the text leaves numbers out. */
function lineRow(parent: HTMLElement, number: number | null): HTMLElement {
	return parent.createDiv({ cls: `${CLS}-line`, attr: number === null ? {} : { "data-line": String(number) } });
}

/** A line row holding mixed content (added, removed and plain text) in one grid cell. */
function numberedLine(parent: HTMLElement, number: number | null): HTMLElement {
	return lineRow(parent, number).createSpan({ cls: `${CLS}-line-text` });
}

/** Unmarked text, the common case: each line's text sits in its row directly (half the elements of a long note). */
function plainLines(parent: HTMLElement, text: string, firstLine: number): void {
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	lines.forEach((line, i) => {
		const row = lineRow(parent, firstLine + i);
		if (line !== "") row.setText(line);
	});
}

export interface Editor {
	area: HTMLTextAreaElement;
	setValue(value: string): void;
	/** Renumbers the lines when blocks above changed length. */
	setFirstLine(line: number): void;
	/** Shown while the box is empty ("" for none). */
	setPlaceholder(text: string): void;
}

/**
 * An editable block of the result: one textarea per block (never per line) over a hidden copy of its text split into
 * numbered lines. The copy sizes the box and carries the line numbers, level with the text even where lines wrap.
 */
export function createEditor(
	cell: HTMLElement,
	label: string,
	value: string,
	firstLine: number,
	onInput: (value: string) => void,
): Editor {
	const editor = cell.createDiv({ cls: `${CLS}-editor` });
	const mirror = editor.createDiv({ cls: `${CLS}-mirror`, attr: { "aria-hidden": "true" } });
	const area = editor.createEl("textarea", {
		cls: `${CLS}-text`,
		attr: { "aria-label": label, spellcheck: "false", rows: 1 },
	});
	let first = firstLine;
	let placeholder = "";
	function renderMirror(): void {
		mirror.empty();
		if (area.value === "") {
			// No lines: the placeholder (if any) still needs its room.
			lineRow(mirror, null).setText(placeholder);
			return;
		}
		area.value.split("\n").forEach((line, i) => lineRow(mirror, first + i).setText(line));
	}
	area.value = value;
	renderMirror();
	area.addEventListener("input", () => {
		renderMirror();
		onInput(area.value);
	});
	return {
		area,
		setValue(next) {
			if (area.value === next) return;
			area.value = next;
			renderMirror();
		},
		setFirstLine(line) {
			if (line === first) return;
			first = line;
			renderMirror();
		},
		setPlaceholder(text) {
			if (text === placeholder) return;
			placeholder = text;
			area.setAttr("placeholder", text === "" ? null : text);
			renderMirror();
		},
	};
}
