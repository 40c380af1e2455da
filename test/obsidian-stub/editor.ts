/**
 * An editor the way Obsidian's behaves where it matters to us: a buffer that is not the file, a dirty flag, the
 * Editor API (`getValue`, `setValue`, `transaction` with changes in original-document positions, a cursor that
 * changes move), and `requestSave`: the autosave 2 seconds (simulated) after the last keystroke. A clean editor
 * reloads when its file changes under it; a dirty one keeps its buffer and, at its autosave, writes it over the file.
 * That last case is the risky one the plugin must design against.
 */
import type { SimClock } from "./clock";
import type { TFile } from "./files";

export interface EditorPosition {
	line: number;
	ch: number;
}

export interface EditorChange {
	from: EditorPosition;
	to?: EditorPosition;
	text: string;
}

export interface EditorTransaction {
	changes?: EditorChange[];
}

export class Editor {
	private text = "";
	/** The cursor, as an offset into the buffer. */
	private cursor = 0;
	/** Every change, for tests that check what reached the buffer. */
	readonly history: string[] = [];

	constructor(private readonly onChange: () => void) {}

	getValue(): string {
		return this.text;
	}

	setValue(text: string): void {
		this.text = text;
		this.cursor = Math.min(this.cursor, text.length);
		this.changed();
	}

	lineCount(): number {
		return this.text.split("\n").length;
	}

	getLine(line: number): string {
		return this.text.split("\n")[line] ?? "";
	}

	getCursor(): EditorPosition {
		return this.offsetToPos(this.cursor);
	}

	setCursor(pos: EditorPosition | number): void {
		this.cursor = typeof pos === "number" ? pos : this.posToOffset(pos);
	}

	offsetToPos(offset: number): EditorPosition {
		const before = this.text.slice(0, Math.max(0, Math.min(offset, this.text.length)));
		const line = before.split("\n").length - 1;
		return { line, ch: before.length - (before.lastIndexOf("\n") + 1) };
	}

	posToOffset(pos: EditorPosition): number {
		const lines = this.text.split("\n");
		let offset = 0;
		for (let line = 0; line < pos.line && line < lines.length; line++) offset += lines[line]!.length + 1;
		return Math.min(offset + pos.ch, this.text.length);
	}

	replaceRange(text: string, from: EditorPosition, to?: EditorPosition): void {
		this.transaction({ changes: [{ from, to, text }] });
	}

	/** Applies every change against the document as it was before the transaction (as CodeMirror does). */
	transaction(tx: EditorTransaction): void {
		const changes = (tx.changes ?? [])
			.map((change) => ({
				from: this.posToOffset(change.from),
				to: this.posToOffset(change.to ?? change.from),
				text: change.text,
			}))
			.sort((a, b) => b.from - a.from);
		for (let i = 1; i < changes.length; i++)
			if (changes[i]!.to > changes[i - 1]!.from) throw new Error("overlapping changes in one transaction");
		for (const { from, to, text } of changes) {
			this.text = this.text.slice(0, from) + text + this.text.slice(to);
			// The cursor moves with the text around it, as CodeMirror maps it through the change.
			if (this.cursor >= to) this.cursor += text.length - (to - from);
			else if (this.cursor > from) this.cursor = from + text.length;
		}
		this.changed();
	}

	/** Loads text into the buffer without it counting as an edit (a file opened or reloaded). */
	load(text: string): void {
		this.text = text;
		this.cursor = Math.min(this.cursor, text.length);
	}

	private changed(): void {
		this.history.push(this.text);
		this.onChange();
	}
}

export interface ViewHost {
	clock: SimClock;
	/** Reads a file as it is on disk now. */
	readDisk(file: TFile): string;
	/** Writes a file through the vault (`Vault.modify`), as a view's save does. */
	modify(file: TFile, text: string): Promise<void>;
}

/** How long after the last keystroke Obsidian saves an editor. */
export const AUTOSAVE_MS = 2_000;

export class MarkdownViewModel {
	file: TFile | null = null;
	readonly editor: Editor;
	/** What the file held when the buffer was last loaded or saved. */
	private saved = "";
	private autosave: number | null = null;
	/** Saves of this view that wrote the file, by cause. */
	readonly saves = { autosave: 0, requested: 0 };

	constructor(private readonly host: ViewHost) {
		this.editor = new Editor(() => this.requestSave());
	}

	getViewType(): string {
		return "markdown";
	}

	get data(): string {
		return this.editor.getValue();
	}

	/** The buffer differs from what was last loaded or saved. */
	get dirty(): boolean {
		return this.editor.getValue() !== this.saved;
	}

	open(file: TFile): void {
		this.file = file;
		this.saved = this.host.readDisk(file);
		this.editor.load(this.saved);
	}

	/** Debounced: the file is saved 2 s after the last call. */
	requestSave(): void {
		this.host.clock.cancel(this.autosave);
		this.autosave = this.host.clock.schedule(() => {
			this.autosave = null;
			return this.write("autosave");
		}, AUTOSAVE_MS);
	}

	/** Saves now (what `view.save()` does): writes the buffer when it differs from the file. */
	async save(): Promise<void> {
		this.host.clock.cancel(this.autosave);
		this.autosave = null;
		await this.write("requested");
	}

	/** The person types `text` at the cursor (or at the end of a line); each call is one keystroke burst. */
	type(text: string, at?: number): void {
		if (at !== undefined) this.editor.setCursor(at);
		const pos = this.editor.getCursor();
		this.editor.transaction({ changes: [{ from: pos, text }] });
		this.editor.setCursor(this.editor.posToOffset(pos) + text.length);
	}

	/** The view closes: no file, no pending autosave. */
	close(): void {
		this.host.clock.cancel(this.autosave);
		this.autosave = null;
		this.file = null;
	}

	/** The file changed on disk under this view: a clean editor reloads it; a dirty one keeps its buffer. */
	fileChanged(): void {
		if (!this.file || this.dirty) return;
		this.saved = this.host.readDisk(this.file);
		this.editor.load(this.saved);
	}

	private async write(cause: "autosave" | "requested"): Promise<void> {
		if (!this.file) return;
		const text = this.editor.getValue();
		// A clean editor has nothing to save.
		if (text === this.saved) return;
		this.saved = text;
		this.saves[cause]++;
		await this.host.modify(this.file, text);
	}
}
