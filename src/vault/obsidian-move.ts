/**
 * Moving a note inside Obsidian: through its file manager (`renameFile`), so links to the note are updated as the
 * person's "Automatically update internal links" setting says, exactly as when the person moves it. The notes that
 * link to it (Obsidian's `resolvedLinks`) are read just before and just after, so that the text Obsidian rewrote in
 * them can be credited to the agent that moved the note, and undone with the move. A destination that is taken (a
 * note, a folder, or a file on disk Obsidian has not indexed, in any spelling the disk takes as equal) is never
 * replaced.
 */
import { normalizePath, type App, type TFile } from "obsidian";
import type { MoveOutcome, MovePlan, RewrittenNote } from "./gateway";
import { NoteKeptChangingError } from "./errors";
import { ensureParent } from "./obsidian-files";

/** How often a move is decided again because the note changed between its decision and the move. */
const MOVE_ATTEMPTS = 10;

export interface ObsidianMove {
	app: App;
	/** The note's text as the gateway reads it (an open editor's buffer, unsaved typing included), or null when gone. */
	text: (file: TFile) => Promise<string | null>;
}

export async function moveInObsidian<T>(
	deps: ObsidianMove,
	from: string,
	to: string,
	decide: (current: string | null) => MovePlan<T>,
): Promise<MoveOutcome<T>> {
	const { app, text } = deps;
	const file = app.vault.getFileByPath(normalizePath(from));
	if (!file) return { kind: "kept", result: decide(null).result };
	const destination = normalizePath(to);
	for (let attempt = 1; attempt <= MOVE_ATTEMPTS; attempt++) {
		const current = await text(file);
		const plan = decide(current);
		if (plan.kind === "keep" || current === null) return { kind: "kept", result: plan.result };
		if (await taken(app, destination, file)) return { kind: "destination-taken", result: plan.result };
		const before = await linkingTexts(deps, file);
		// The note as decided on, still: otherwise decide again on what it holds now (the person typed, a sync landed).
		if ((await text(file)) !== current) continue;
		await ensureParent(app, destination);
		try {
			await app.fileManager.renameFile(file, destination);
		} catch (error) {
			if (await taken(app, destination, file)) return { kind: "destination-taken", result: plan.result };
			throw error;
		}
		return { kind: "moved", result: plan.result, rewritten: await rewritten(deps, file, current, before) };
	}
	throw new NoteKeptChangingError(from, await text(file));
}

/** Whether something other than `file` itself is at `destination` (a change of case of its own name is not taken). */
async function taken(app: App, destination: string, file: TFile): Promise<boolean> {
	const indexed = app.vault.getAbstractFileByPath(destination);
	if (indexed) return indexed !== file;
	if (!(await app.vault.adapter.exists(destination))) return false;
	// On a case-insensitive disk the note's own name, spelled otherwise, "exists": renaming it replaces nothing.
	return destination.toLowerCase() !== file.path.toLowerCase() || (await app.vault.adapter.exists(destination, true));
}

/** The notes with links to `file` (other than itself), and their text now. */
async function linkingTexts(deps: ObsidianMove, file: TFile): Promise<Map<string, string>> {
	const texts = new Map<string, string>();
	const links = deps.app.metadataCache.resolvedLinks;
	for (const [source, targets] of Object.entries(links)) {
		if (source === file.path || targets[file.path] === undefined) continue;
		const note = deps.app.vault.getFileByPath(source);
		const content = note ? await deps.text(note) : null;
		if (content !== null) texts.set(source, content);
	}
	return texts;
}

/** What the move changed besides the note's place: the linking notes whose text differs now, and the note itself. */
async function rewritten(
	deps: ObsidianMove,
	file: TFile,
	movedText: string,
	before: Map<string, string>,
): Promise<RewrittenNote[]> {
	const changed: RewrittenNote[] = [];
	const own = await deps.text(file);
	if (own !== null && own !== movedText) changed.push({ path: file.path, before: movedText, after: own });
	for (const [path, text] of before) {
		const note = deps.app.vault.getFileByPath(path);
		const after = note ? await deps.text(note) : null;
		if (after !== null && after !== text) changed.push({ path, before: text, after });
	}
	return changed;
}
