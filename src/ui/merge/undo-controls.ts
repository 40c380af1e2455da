/**
 * One click undoes one automatic change, as in the big merge editors: a tick box per change in the result's corner,
 * named by where the change came from and which markdown rule (if any) made the merge.
 */
import type { StableBlock, StableUndo } from "./blocks";
import { CLS } from "./panes";
import { keepChangeTitle, originLabel, ruleName, ruleText, undoneLabel, USE_SIDE_BLOCK } from "./text";

export interface UndoControls {
	update(edited: boolean): void;
}

export function renderUndoControls(
	cell: HTMLElement,
	origin: "mine" | "theirs" | "both",
	block: Readonly<StableBlock>,
	onUndo: (to: StableUndo | null) => void,
): UndoControls {
	const badge = cell.createDiv({ cls: [`${CLS}-badge`, `${CLS}-undo`] });
	const keep = badge.createEl("label", { cls: `${CLS}-keep`, attr: { title: keepChangeTitle(origin, block.rule) } });
	const whose = origin === "mine" ? "your change" : origin === "theirs" ? "the agent's change" : "this change";
	const box = keep.createEl("input", {
		cls: `${CLS}-keep-box`,
		attr: { type: "checkbox", "aria-label": `Keep ${whose}` },
	});
	const text = keep.createSpan({ cls: `${CLS}-block-label` });
	box.addEventListener("change", () => onUndo(box.checked ? null : "base"));
	if (block.rule !== null)
		badge.createSpan({ cls: `${CLS}-rule-mark`, text: ruleName(block.rule), attr: { title: ruleText(block.rule) } });

	// A rule that combined two whole blocks (frontmatter) can also be undone to either side's block.
	const sides = new Map<"mine" | "theirs", HTMLButtonElement>();
	if (block.ruleMine !== null && block.ruleTheirs !== null) {
		for (const side of ["mine", "theirs"] as const) {
			const words = USE_SIDE_BLOCK[side];
			const button = badge.createEl("button", {
				cls: `${CLS}-use-side`,
				text: words.label,
				attr: { type: "button", title: words.title, "aria-pressed": "false" },
			});
			button.addEventListener("click", () => onUndo(block.undo === side ? null : side));
			sides.set(side, button);
		}
	}

	return {
		update(edited) {
			box.checked = block.undo === null;
			const said =
				block.undo === null
					? originLabel(origin)
					: block.undo === "base"
						? undoneLabel(origin)
						: block.undo === "mine"
							? "Your block"
							: "Agent's block";
			text.setText(edited ? `${said} · edited` : said);
			for (const [side, button] of sides) button.setAttr("aria-pressed", String(block.undo === side));
		},
	};
}
