/** The merge view: a plain-DOM component (hosted by a modal) to merge an agent's refused proposal into a note. */
import { renderRow, type RowContext, type RowHandle } from "./block-row";
import { MergeState } from "./merge-state";
import { unresolvedFrom } from "./navigation";
import { CLS, paneLabels, renderColumnHeadings } from "./panes";
import { counterText, droppedNotice, keptEditsNotice, RESET_DONE } from "./text";
import { renderFooter, type Footer } from "./footer";
import { renderToolbar, type Toolbar } from "./toolbar";


/** Past this many rows, rows off screen skip layout (see styles.css). */
const MANY_ROWS = 200;

export interface MergeViewInput {
	notePath: string;
	agentName: string;
	/** null: what the agent read is no longer retained. */
	base: string | null;
	/** The note now. */
	mine: string;
	/** The agent's proposal. */
	theirs: string;
}

export interface MergeViewCallbacks {
	/** Write the result through the guarded writer. Resolve on success; the host calls view.rebase(...) itself if the note changed. */
	onSave(text: string, summary: { unresolved: number }): Promise<void>;
	onCancel(): void;
	/** Ask the person to confirm (the host shows an Obsidian dialog; tests stub it). */
	confirm(message: string): Promise<boolean>;
}

export class MergeView {
	private readonly state: MergeState;
	private readonly root: HTMLElement;
	private readonly toolbar: Toolbar;
	private readonly body: HTMLElement;
	private readonly footer: Footer;
	private readonly rowContext: RowContext;
	private rows: (RowHandle | null)[] = [];
	/** The conflict navigation continues from (the last one focused), -1 before any. */
	private current = -1;
	private undoOffered = false;
	private destroyed = false;

	constructor(
		container: HTMLElement,
		input: MergeViewInput,
		private readonly callbacks: MergeViewCallbacks,
	) {
		this.state = new MergeState(input.base, input.mine, input.theirs);
		this.root = container.createDiv({ cls: CLS });
		this.root.addEventListener("keydown", (event) => this.onKeyDown(event));
		this.toolbar = renderToolbar(this.root, `${input.notePath} · changes from ${input.agentName}`, {
			previous: () => this.previousConflict(),
			next: () => this.nextConflict(),
			acceptAll: (side) => this.acceptAll(side),
			reset: () => this.reset(),
			toggleBase: this.state.hasBase ? (shown) => this.root.toggleClass(`${CLS}-show-base`, shown) : null,
		});
		const scroller = this.root.createDiv({ cls: `${CLS}-scroller` });
		renderColumnHeadings(scroller, paneLabels(input.agentName));
		this.body = scroller.createDiv({ cls: `${CLS}-body` });
		this.footer = renderFooter(this.root, { state: this.state, callbacks, alive: () => !this.destroyed, cancel: () => this.cancel() });
		this.rowContext = {
			state: this.state,
			onChange: () => this.changed(),
			onExpand: (index) => this.expand(index),
			onFocusConflict: (id) => (this.current = id),
		};
		this.renderRows();
		this.focusFirst();
	}

	/** Re-merges against a newer note (it changed while the view was open), keeping choices and typing that still apply; shows `message`. */
	rebase(newMine: string, message: string): void {
		const report = this.state.rebase(newMine);
		this.renderRows();
		this.toolbar.setMessage(message + droppedNotice(report.dropped));
		this.focusFirst();
	}

	resultText(): string {
		return this.state.resultText();
	}

	unresolvedCount(): number {
		return this.state.unresolvedCount();
	}

	/** For the host's keyboard scope and tests; the view's own buttons and Alt+Arrow keys do the same. */
	nextConflict(): void {
		this.step(1);
	}

	previousConflict(): void {
		this.step(-1);
	}

	destroy(): void {
		this.destroyed = true;
		this.root.remove();
	}

	private renderRows(): void {
		this.body.empty();
		this.rows = this.state.blockList.map((block, index) =>
			block.kind === "stable" && block.hidden ? null : renderRow(this.body, this.rowContext, index),
		);
		this.root.toggleClass(`${CLS}-many-rows`, this.rows.length > MANY_ROWS);
		this.refreshCounter();
	}

	/** After a choice or typing: a pending undo of a reset would now undo more than the reset, so it goes. */
	private changed(): void {
		this.refreshCounter();
		if (this.undoOffered) this.toolbar.setMessage("");
		this.undoOffered = false;
	}

	private refreshCounter(): void {
		const unresolved = this.state.unresolvedCount();
		this.toolbar.setCounter(counterText(this.state.conflictCount, unresolved), unresolved === 0);
	}

	private refreshAll(): void {
		for (const row of this.rows) row?.update(false);
		this.refreshCounter();
	}

	private expand(index: number): void {
		const old = this.rows[index];
		if (!old) return;
		this.state.expand(index);
		// Render into a scratch parent, then swap in place, keeping the row's position among its siblings.
		const scratch = this.body.createDiv();
		const row = renderRow(scratch, this.rowContext, index);
		old.element.replaceWith(row.element);
		scratch.remove();
		this.rows[index] = row;
		row.focusTarget.focus();
	}

	private step(direction: 1 | -1): void {
		const target = unresolvedFrom(this.state, this.current, direction);
		if (target !== null) this.focusConflict(target);
	}

	private focusFirst(): void {
		const first = unresolvedFrom(this.state, -1, 1);
		if (first === null) this.footer.focusSave();
		else this.focusConflict(first);
	}

	private focusConflict(id: number): void {
		this.current = id;
		this.rows[this.state.conflictIndex(id)]?.focusTarget.focus();
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

	/** Shortcuts work only inside the view: no global hotkeys. */
	private onKeyDown(event: KeyboardEvent): void {
		if (event.isComposing || event.ctrlKey || event.metaKey || event.shiftKey) return;
		if (event.altKey && event.key === "ArrowDown") this.nextConflict();
		else if (event.altKey && event.key === "ArrowUp") this.previousConflict();
		else if (!event.altKey && event.key === "Escape") this.cancel();
		else return;
		event.preventDefault();
		event.stopPropagation();
	}
}
