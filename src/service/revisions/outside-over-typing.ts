/**
 * Another program saved a note while the person had unsaved typing in it, over lines they changed (the Obsidian layer
 * folds the saves that do not overlap into the editor: vault/obsidian-editor-fold.ts). The person's autosave writes
 * their text over the program's, so the program's text is kept byte for byte as a .bak with an `outside-over-typing`
 * conflict from "another program". Its merge view shows what the file held before the save as the base, the note as
 * the person has it, and the program's text as the other side.
 */
import { ANOTHER_PROGRAM } from "../../core/conflicts";
import { revisionOf } from "../../core/revision";
import type { OutsideOverTyping } from "../../vault/gateway";
import { keepRefusedBody, type KeptBody, type RefusedBodyDeps } from "../write/refused-body";

export async function keepOutsideOverTyping(deps: RefusedBodyDeps, save: OutsideOverTyping): Promise<KeptBody> {
	let baseRevision: string | null = null;
	if (save.before !== null) {
		// The merge view's base, kept like an agent's read.
		baseRevision = revisionOf(save.before);
		await deps.bases.retain(baseRevision, save.before).catch(() => undefined);
	}
	return keepRefusedBody(deps, {
		path: save.path,
		body: save.written,
		reason: "outside-over-typing",
		source: "outside",
		sentRevision: baseRevision,
		currentRevision: revisionOf(save.typed),
		agent: ANOTHER_PROGRAM,
	});
}
