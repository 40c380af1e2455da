/** The merge view: a plain-DOM component (hosted by a modal) to merge an agent's refused proposal into a note. */
import { renderRow, type RowContext, type RowHandle } from "./block-row";
import { MergeState } from "./merge-state";
import { ConflictCursor } from "./navigation";
import { Orientation } from "./orientation";
import { renderOverview } from "./overview";
import { CLS, paneLabels, paneTitles, renderColumnHeadings } from "./panes";
import { counterText, droppedNotice, EDIT_HINT, keptEditsNotice, RESET_DONE, reviewIntro } from "./text";
import { renderFooter, type Footer } from "./footer";
import { renderReviewFooter } from "./review-footer";
import { handleKey, saveKeys, type SaveKeys } from "./keys";
import { renderToolbar, type Toolbar } from "./toolbar";
import type { MergeViewCallbacks, MergeViewInput } from "./view-types";

/** Past this many rows, rows off screen skip layout (see styles.css). */
const MANY_ROWS = 200;

export type { MergeViewCallbacks, MergeViewInput } from "./view-types";

export class MergeView {
	private readonly state: MergeState;
	private readonly root: HTMLElement;
	private readonly toolbar: Toolbar;
	private readonly body: HTMLElement;
	private readonly footer: Footer;
	private readonly rowContext: RowContext;
	private rows: (RowHandle | null)[] = [];
	private readonly orientation: Orientation;
	private readonly keys: SaveKeys;
	private readonly cursor: ConflictCursor;
	private undoOffered = false;
	private destroyed = false;
	/** Review mode: the note changed since the proposal (the view is a three-way merge). */
	private changedSince: boolean;
	private readonly intro: HTMLElement | null = null;
	private readonly agentName: string;

	constructor(
		container: HTMLElement,
		input: MergeViewInput,
		private readonly callbacks: MergeViewCallbacks,
	) {
		this.state = new MergeState(input.base, input.mine, input.theirs);
		const review = input.review !== undefined;
		this.changedSince = input.review?.changedSince ?? false;
		this.keys = saveKeys(input.mac ?? false);
		this.root = container.createDiv({ cls: CLS });
		this.root.addEventListener("keydown", (event) => this.onKeyDown(event));
		const openBackup = callbacks.openBackup?.bind(callbacks);
		this.toolbar = renderToolbar(
			this.root,
			{
				notePath: input.notePath,
				agentName: input.agentName,
				agentWroteAt: input.agentWroteAt ?? null,
				backupPath: input.backupPath ?? null,
				review,
			},
			{
				previous: () => this.previousConflict(),
				next: () => this.nextConflict(),
				acceptAll: (side) => this.acceptAll(side),
				reset: () => this.reset(),
				toggleBase: this.state.hasBase ? (shown) => this.root.toggleClass(`${CLS}-show-base`, shown) : null,
				openBackup: openBackup === undefined ? null : () => openBackup(),
			},
		);
		this.root.toggleClass(`${CLS}-review-plain`, review && !this.changedSince);
		if (review)
			this.intro = this.root.createDiv({
				cls: `${CLS}-review-intro`,
				text: reviewIntro(input.agentName, this.changedSince),
			});
		const main = this.root.createDiv({ cls: `${CLS}-main` });
		const scroller = main.createDiv({ cls: `${CLS}-scroller` });
		const outside = input.outside === true;
		renderColumnHeadings(
			scroller,
			paneLabels(input.agentName, review, outside),
			paneTitles(input.agentName, review, outside),
		);
		this.body = scroller.createDiv({ cls: `${CLS}-body` });
		const overview = renderOverview(main, this.state, (index) => this.cursor.jumpTo(index));
		this.orientation = new Orientation(this.state, overview, () => this.rows);
		const footing = {
			state: this.state,
			callbacks,
			alive: () => !this.destroyed,
			cancel: () => this.cancel(),
			keys: this.keys,
		};
		this.footer = review
			? renderReviewFooter(this.root, {
					...footing,
					edit: () => this.startEditing(),
					changedSince: () => this.changedSince,
				})
			: renderFooter(this.root, footing);
		this.agentName = input.agentName;
		this.cursor = new ConflictCursor(
			this.state,
			() => this.rows,
			() => this.footer.focusSave(),
		);
		this.rowContext = {
			state: this.state,
			onChange: (index) => this.changed(index),
			onExpand: (index) => this.expand(index),
			onFocusConflict: (id) => this.cursor.visited(id),
		};
		this.renderRows();
		this.cursor.focusFirst();
	}

	/** Re-merges against a newer note (it changed while the view was open), keeping choices and typing that still apply; shows `message`. */
	rebase(newMine: string, message: string): void {
		const report = this.state.rebase(newMine);
		this.changedSince = true;
		this.root.removeClass(`${CLS}-review-plain`);
		this.intro?.setText(reviewIntro(this.agentName, true));
		this.renderRows();
		this.toolbar.setMessage(message + droppedNotice(report.dropped));
		this.cursor.focusFirst();
	}

	resultText(): string {
		return this.state.resultText();
	}

	unresolvedCount(): number {
		return this.state.unresolvedCount();
	}

	/** For the host's keyboard scope and tests; the view's own buttons and Alt+Arrow keys do the same. */
	nextConflict(): void {
		this.cursor.step(1);
	}

	previousConflict(): void {
		this.cursor.step(-1);
	}

	destroy(): void {
		this.destroyed = true;
		this.root.remove();
	}

	private renderRows(): void {
		this.body.empty();
		this.orientation.reset();
		this.rows = this.state.blockList.map((block, index) =>
			block.kind === "stable" && block.hidden
				? null
				: renderRow(this.body, this.rowContext, index, this.orientation.startsOf(index)),
		);
		this.root.toggleClass(`${CLS}-many-rows`, this.rows.length > MANY_ROWS);
		this.refreshCounter();
	}

	/** After a choice or typing: a pending undo of a reset would now undo more than the reset, so it goes. */
	private changed(index: number): void {
		this.refreshCounter();
		this.orientation.changed(index);
		if (this.undoOffered) this.toolbar.setMessage("");
		this.undoOffered = false;
	}

	private refreshCounter(): void {
		const unresolved = this.state.unresolvedCount();
		this.toolbar.setCounter(counterText(this.state.conflictCount, unresolved), unresolved === 0);
		this.footer?.refresh?.();
	}

	/** Review mode's "Edit then accept": into the first change's text in the result column. */
	private startEditing(): void {
		const index = this.state.blockList.findIndex((block) => block.kind === "conflict" || block.origin !== "base");
		const row = this.rows[index] ?? this.rows.find((candidate) => candidate !== null) ?? null;
		row?.element.scrollIntoView({ block: "center" });
		row?.focusTarget.focus({ preventScroll: true });
		this.toolbar.setMessage(EDIT_HINT);
	}

	private refreshAll(): void {
		for (const row of this.rows) row?.update(false);
		this.refreshCounter();
		this.orientation.changed(null);
	}

	private expand(index: number): void {
		const old = this.rows[index];
		if (!old) return;
		this.state.expand(index);
		// Render into a scratch parent, then swap in place, keeping the row's position among its siblings.
		const scratch = this.body.createDiv();
		const row = renderRow(scratch, this.rowContext, index, this.orientation.startsOf(index));
		old.element.replaceWith(row.element);
		scratch.remove();
		this.rows[index] = row;
		row.focusTarget.focus();
	}

	private acceptAll(side: "mine" | "theirs"): void {
		const kept = this.state.acceptAll(side);
		this.refreshAll();
		this.toolbar.setMessage(kept > 0 ? keptEditsNotice(kept) : "");
	}

	/** Asks nothing: typing it would discard can be brought back with Undo until the next change of plan. */
	private reset(): void {
		const work = this.state.hasWork() ? this.state.snapshot() : null;
		this.state.reset();
		this.refreshAll();
		this.undoOffered = work !== null;
		if (work === null) return this.toolbar.setMessage("");
		this.toolbar.setMessage(RESET_DONE, {
			label: "Undo",
			run: () => {
				if (this.state.restore(work)) this.refreshAll();
				this.undoOffered = false;
				this.toolbar.setMessage("");
			},
		});
	}

	private cancel(): void {
		if (!this.destroyed) this.callbacks.onCancel();
	}

	private onKeyDown(event: KeyboardEvent): void {
		const ours = handleKey(event, this.keys, {
			save: () => void this.footer.save(),
			next: () => this.nextConflict(),
			previous: () => this.previousConflict(),
			cancel: () => this.cancel(),
		});
		if (!ours) return;
		event.preventDefault();
		event.stopPropagation();
	}
}
