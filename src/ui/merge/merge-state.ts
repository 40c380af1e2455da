/** The merge view's model, without a DOM: blocks, choices, manual edits, the result text and re-merging. */
import { choiceText, fromDisplay, markerText, toDisplay, type Choice } from "./block-text";
import { buildMerge, type Block, type ConflictBlock, type StableUndo } from "./blocks";
import { carryOver, type RebaseReport } from "./rebase";
import { restoreSnapshot, takeSnapshot, undoneText, type Snapshot } from "./work";

export type { Snapshot } from "./work";

/** Where a conflict block of the merge view stands: a side chosen, typed into, or still open. */
export type ConflictResolution = Choice | "edited" | "unresolved";

export class MergeState {
	private blocks: Block[];
	private documentEol: string;
	private mine: string;
	private conflictTotal: number;

	constructor(
		private readonly base: string | null,
		mine: string,
		private readonly theirs: string,
	) {
		this.mine = mine;
		({ blocks: this.blocks, documentEol: this.documentEol } = buildMerge(base, mine, theirs));
		this.conflictTotal = this.conflicts().length;
	}

	get hasBase(): boolean {
		return this.base !== null;
	}

	/** Read-only view of the blocks; change them through the methods below. */
	get blockList(): readonly Readonly<Block>[] {
		return this.blocks;
	}

	get conflictCount(): number {
		return this.conflictTotal;
	}

	unresolvedCount(): number {
		return this.conflicts().filter((block) => this.status(block) === "unresolved").length;
	}

	/** Block index of conflict `id`, or -1. */
	conflictIndex(id: number): number {
		return this.blocks.findIndex((block) => block.kind === "conflict" && block.id === id);
	}

	status(conflict: Readonly<ConflictBlock>): ConflictResolution {
		if (conflict.edited !== null) return "edited";
		return conflict.choice ?? "unresolved";
	}

	/**
	 * The block's text before any typing: the merge's text (or what its change was undone to), the chosen side, or
	 * conflict markers. Markers only ever reach the saved note; the view shows an undecided conflict as empty.
	 */
	referenceText(index: number): string {
		const block = this.block(index);
		if (block.kind === "stable") return undoneText(block);
		return block.choice === null
			? markerText(block, this.documentEol)
			: choiceText(block, block.choice, this.documentEol);
	}

	blockText(index: number): string {
		return this.block(index).edited ?? this.referenceText(index);
	}

	/** The block as the view shows it: an undecided conflict shows nothing (its choices are offered instead). */
	shownText(index: number): string {
		return this.block(index).edited ?? this.typingReference(index);
	}

	/** What the block's textarea shows. */
	displayText(index: number): string {
		return toDisplay(this.shownText(index));
	}

	/** What typing starts from: the reference, except that an undecided conflict starts empty. */
	private typingReference(index: number): string {
		const block = this.block(index);
		return block.kind === "conflict" && block.choice === null ? "" : this.referenceText(index);
	}

	/** A button: replaces the conflict's text, manual edit included (the click is the person's explicit wish). */
	choose(index: number, choice: Choice): void {
		const block = this.conflictAt(index);
		block.choice = choice;
		block.edited = null;
	}

	/** Typing into a block; typing back exactly what it showed undoes the edit. */
	edit(index: number, value: string): void {
		const block = this.block(index);
		const reference = this.typingReference(index);
		const text = fromDisplay(value, reference, this.documentEol, this.endsWithNewlineAfter(index));
		block.edited = text === reference ? null : text;
	}

	/** Makes a conflict undecided again: no choice and no typed text. */
	clearChoice(index: number): void {
		const block = this.conflictAt(index);
		block.choice = null;
		block.edited = null;
	}

	/** Undoes one automatic change (to base, or to one side's block for a rule merge), or keeps it again (null). */
	undoChange(index: number, to: StableUndo | null): void {
		const block = this.block(index);
		if (block.kind !== "stable" || block.origin === "base")
			throw new TypeError(`Merge block ${index} is not an automatic change`);
		block.undo = to;
		// The click is the person's explicit wish, like a conflict's button: it replaces typing.
		block.edited = null;
	}

	isEdited(index: number): boolean {
		return this.block(index).edited !== null;
	}

	/** Settles every conflict the person did not type into; returns how many typed ones were left alone. */
	acceptAll(side: "mine" | "theirs"): number {
		let kept = 0;
		for (const block of this.conflicts()) {
			if (block.edited !== null) kept++;
			else block.choice = side;
		}
		return kept;
	}

	/** How many blocks hold typed text (what a reset would discard). */
	manualEdits(): number {
		return this.blocks.filter((block) => block.edited !== null).length;
	}

	/** Any choice or typed text at all. */
	hasWork(): boolean {
		return this.blocks.some(
			(block) => block.edited !== null || (block.kind === "conflict" ? block.choice !== null : block.undo !== null),
		);
	}

	/** Back to the automatic merge: every choice and every typed text goes (take a snapshot first to offer undo). */
	reset(): void {
		for (const block of this.blocks) {
			block.edited = null;
			if (block.kind === "conflict") block.choice = null;
			else block.undo = null;
		}
	}

	/** The person's choices, undos and typing, to restore later. */
	snapshot(): Snapshot {
		return takeSnapshot(this.blocks);
	}

	/** Puts a snapshot back; false (and nothing changes) once a rebase has replaced the blocks it belongs to. */
	restore(snapshot: Snapshot): boolean {
		return restoreSnapshot(this.blocks, snapshot);
	}

	expand(index: number): void {
		const block = this.block(index);
		if (block.kind === "stable") block.expanded = true;
	}

	resultText(): string {
		let out = "";
		for (let index = 0; index < this.blocks.length; index++) out += this.blockText(index);
		return out;
	}

	/** Re-merges against a newer note; choices and typing carry over where their block is still the same. */
	rebase(newMine: string): RebaseReport {
		const built = buildMerge(this.base, newMine, this.theirs);
		const report = carryOver(this.blocks, built.blocks);
		this.mine = newMine;
		this.blocks = built.blocks;
		this.documentEol = built.documentEol;
		this.conflictTotal = this.conflicts().length;
		return report;
	}

	/** Whether typing into an empty block at `index` should end with a newline: yes unless it ends the note. */
	private endsWithNewlineAfter(index: number): boolean {
		for (let next = index + 1; next < this.blocks.length; next++) if (this.blockText(next) !== "") return true;
		return this.mine === "" || this.mine.endsWith("\n");
	}

	private conflicts(): ConflictBlock[] {
		return this.blocks.filter((block): block is ConflictBlock => block.kind === "conflict");
	}

	private block(index: number): Block {
		const block = this.blocks[index];
		if (!block) throw new RangeError(`No merge block ${index}`);
		return block;
	}

	private conflictAt(index: number): ConflictBlock {
		const block = this.block(index);
		if (block.kind !== "conflict") throw new TypeError(`Merge block ${index} is not a conflict`);
		return block;
	}
}
