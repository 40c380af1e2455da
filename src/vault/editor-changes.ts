/**
 * An accepted write to a note open in an editor is applied to the editor, not the file: as the smallest set of
 * line changes (our line diff), so the cursor, selection and folds outside what changed stay where they are. The
 * changes are computed in slices on a copy of the buffer, and applied in one transaction only if the buffer is
 * still exactly that copy; otherwise the caller decides again on what the person typed meanwhile.
 */
import { diffLinesSteps } from "../core/diff/line-diff";
import { splitLines } from "../core/markdown/lines";
import { finishInSlices, type YieldToHost } from "../core/steps";

/** A change in offsets of the text it was computed on (all changes refer to that same text). */
export interface TextChange {
	from: number;
	to: number;
	text: string;
}

/** The line changes that turn `before` into `after`. */
export async function lineChanges(before: string, after: string, yieldToHost: YieldToHost): Promise<TextChange[]> {
	const ops = await finishInSlices(diffLinesSteps(splitLines(before), splitLines(after)), yieldToHost);
	const changes: TextChange[] = [];
	let offset = 0;
	let pending: TextChange | null = null;
	for (const op of ops) {
		const length = op.lines.reduce((sum, line) => sum + line.length, 0);
		if (op.kind === "equal") {
			if (pending) changes.push(pending);
			pending = null;
			offset += length;
			continue;
		}
		pending ??= { from: offset, to: offset, text: "" };
		if (op.kind === "delete") {
			pending.to += length;
			offset += length;
		} else pending.text += op.lines.join("");
	}
	if (pending) changes.push(pending);
	return changes;
}

/** The slice of Obsidian's Editor this needs. */
export interface EditorLike {
	getValue(): string;
	offsetToPos(offset: number): { line: number; ch: number };
	transaction(tx: {
		changes: { from: { line: number; ch: number }; to: { line: number; ch: number }; text: string }[];
	}): void;
}

/** Applies `changes` (computed on the editor's current text) as one transaction. */
export function applyChanges(editor: EditorLike, changes: readonly TextChange[]): void {
	if (changes.length === 0) return;
	editor.transaction({
		changes: changes.map((change) => ({
			from: editor.offsetToPos(change.from),
			to: editor.offsetToPos(change.to),
			text: change.text,
		})),
	});
}
