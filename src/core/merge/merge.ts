/** The merge entry point: BOM and frontmatter handling around the line merge, then region tidying and numbering. */
import { splitLines } from "../diff/lines";
import { mergeFrontmatter, splitFrontmatter } from "./frontmatter";
import { mergeLines } from "./line-merge";
import type { DraftRegion, MergeOptions, MergeRegion, MergeResult } from "./types";

const BOM = "\ufeff";

/** Three-way merge of a note: `mine` is the note now, `theirs` the agent's proposal, both made from `base`. */
export function mergeThreeWay(base: string, mine: string, theirs: string, options: MergeOptions = {}): MergeResult {
	const timeout = options.diffTimeoutSeconds;
	const [b, m, t] = [withoutBom(base), withoutBom(mine), withoutBom(theirs)];
	// The BOM is an encoding marker, not a line of text: merged on its own so adding or dropping it never
	// collides with an edit of the first line.
	const drafts: DraftRegion[] = [pickSide(b.bom, m.bom, t.bom)];
	const [bl, ml, tl] = [splitLines(b.text), splitLines(m.text), splitLines(t.text)];
	const [bf, mf, tf] = [splitFrontmatter(bl), splitFrontmatter(ml), splitFrontmatter(tl)];
	if (bf && mf && tf) {
		drafts.push(...mergeFrontmatter(bf.block, mf.block, tf.block, timeout));
		drafts.push(...mergeLines(bf.body, mf.body, tf.body, { diffTimeoutSeconds: timeout }));
	} else {
		drafts.push(...mergeLines(bl, ml, tl, { diffTimeoutSeconds: timeout }));
	}
	return finish(drafts);
}

function withoutBom(text: string): { bom: string; text: string } {
	return text.startsWith(BOM) ? { bom: BOM, text: text.slice(1) } : { bom: "", text };
}

/** Three-way choice for something that cannot conflict (the BOM is there or not): whichever side changed it wins. */
function pickSide(base: string, mine: string, theirs: string): DraftRegion {
	if (mine === base && theirs === base) return { kind: "stable", text: base, origin: "base" };
	if (mine === theirs) return { kind: "stable", text: mine, origin: "both", base };
	return mine === base ? { kind: "stable", text: theirs, origin: "theirs", base } : { kind: "stable", text: mine, origin: "mine", base };
}

/** Drops empty unchanged text, joins neighbours of the same origin, numbers the conflicts. */
function finish(drafts: readonly DraftRegion[]): MergeResult {
	const regions: MergeRegion[] = [];
	let conflicts = 0;
	for (const draft of drafts) {
		if (draft.kind === "conflict") {
			regions.push({ ...draft, id: conflicts++ });
			continue;
		}
		if (draft.origin === "base" && draft.text === "") continue;
		const last = regions[regions.length - 1];
		if (last && last.kind === "stable" && last.origin === draft.origin) {
			last.text += draft.text;
			if (last.base !== undefined || draft.base !== undefined) last.base = (last.base ?? "") + (draft.base ?? "");
		} else {
			regions.push({ ...draft });
		}
	}
	return { clean: conflicts === 0, conflicts, regions };
}
