/** Turns a merge result back into text: the merged note when clean, or git-style conflict markers. */
import { eolOf } from "../markdown/lines";
import type { ConflictRegion, MergeResult } from "./types";

export interface RenderOptions {
	/** Also show the base version of each conflict (git's diff3 style). */
	diff3?: boolean;
}

export const MARKERS = {
	mine: "<<<<<<< mine",
	base: "||||||| base",
	separator: "=======",
	theirs: ">>>>>>> agent",
} as const;

export function renderMerge(result: MergeResult, options: RenderOptions = {}): string {
	const fallbackEol =
		eolOf(result.regions.map((region) => (region.kind === "stable" ? region.text : region.mine)).join("")) ?? "\n";
	let out = "";
	for (const region of result.regions) {
		if (region.kind === "stable") out += region.text;
		else out += renderConflict(region, options.diff3 === true, fallbackEol);
	}
	return out;
}

/** The merged note; only meaningful for a clean result, so anything else throws rather than losing a side. */
export function mergedText(result: MergeResult): string {
	if (!result.clean) throw new Error(`mergedText: the merge has ${result.conflicts} conflict(s)`);
	let out = "";
	for (const region of result.regions) if (region.kind === "stable") out += region.text;
	return out;
}

function renderConflict(region: ConflictRegion, diff3: boolean, fallbackEol: string): string {
	// Markers follow the conflict's own line endings, like git, so a CRLF note stays CRLF.
	const eol = eolOf(region.mine) ?? eolOf(region.theirs) ?? eolOf(region.base) ?? fallbackEol;
	const side = (text: string) => (text === "" || text.endsWith("\n") ? text : text + eol);
	let out = MARKERS.mine + eol + side(region.mine);
	if (diff3) out += MARKERS.base + eol + side(region.base);
	return out + MARKERS.separator + eol + side(region.theirs) + MARKERS.theirs + eol;
}
