/**
 * The overview: a thin bar beside the rows with a mark for every change and conflict, placed by line in the result
 * (like the overview ruler of the big merge editors). Clicking a mark goes there; the keyboard uses next/previous.
 */
import { lineCount } from "../../core/markdown/lines";
import type { LineStarts } from "./lines";
import type { MergeState } from "./merge-state";
import { CLS } from "./panes";
import { originLabel, statusText } from "./text";

const SVG = "http://www.w3.org/2000/svg";
/** Marks stay visible (about 3 px on a 600 px bar) however long the note. */
const MIN_HEIGHT_PERCENT = 0.5;

export interface OverviewMark {
	index: number;
	kind: "unresolved" | "resolved" | "mine" | "theirs" | "both" | "undone";
	title: string;
	/** Percent of the result, from the top. */
	top: number;
	height: number;
}

export interface Overview {
	update(starts: readonly LineStarts[]): void;
}

export function overviewMarks(state: MergeState, starts: readonly LineStarts[]): OverviewMark[] {
	const last = starts[starts.length - 1];
	const lastBlock = state.blockList.length - 1;
	const total = Math.max(1, (last?.result ?? 1) + (lastBlock >= 0 ? lineCount(state.shownText(lastBlock)) : 0) - 1);
	const marks: OverviewMark[] = [];
	state.blockList.forEach((block, index) => {
		const kind = markKind(state, index);
		if (kind === null) return;
		let title: string;
		if (block.kind === "conflict")
			title = `Conflict ${block.id + 1} of ${state.conflictCount}: ${statusText(state.status(block)).toLowerCase()}`;
		else title = block.undo !== null ? "Change undone" : originLabel(block.origin === "base" ? "both" : block.origin);
		const line = starts[index]?.result ?? 1;
		const top = ((line - 1) / total) * 100;
		const height = Math.max(MIN_HEIGHT_PERCENT, (Math.max(1, lineCount(state.shownText(index))) / total) * 100);
		marks.push({ index, kind, title, top: Math.min(top, 100 - height), height });
	});
	return marks;
}

/** The mark block `index` gets; null: unchanged text has none. */
export function markKind(state: MergeState, index: number): OverviewMark["kind"] | null {
	const block = state.blockList[index];
	if (block === undefined) return null;
	if (block.kind === "conflict") return state.status(block) === "unresolved" ? "unresolved" : "resolved";
	if (block.origin === "base") return null;
	return block.undo !== null ? "undone" : block.origin;
}

export function renderOverview(parent: HTMLElement, state: MergeState, onJump: (index: number) => void): Overview {
	// Pointer-only: every mark is reachable by keyboard through next/previous and the rows themselves.
	const svg = document.createElementNS(SVG, "svg");
	svg.setAttribute("class", `${CLS}-overview`);
	svg.setAttribute("aria-hidden", "true");
	svg.setAttribute("preserveAspectRatio", "none");
	parent.appendChild(svg);
	return {
		update(starts) {
			while (svg.firstChild) svg.firstChild.remove();
			for (const mark of overviewMarks(state, starts)) {
				const rect = document.createElementNS(SVG, "rect");
				rect.setAttribute("class", `${CLS}-mark ${CLS}-mark-${mark.kind}`);
				rect.setAttribute("x", "0");
				rect.setAttribute("width", "100%");
				rect.setAttribute("y", `${mark.top}%`);
				rect.setAttribute("height", `${mark.height}%`);
				const title = document.createElementNS(SVG, "title");
				title.textContent = mark.title;
				rect.appendChild(title);
				rect.addEventListener("click", () => onJump(mark.index));
				svg.appendChild(rect);
			}
		},
	};
}
