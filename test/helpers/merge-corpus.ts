/**
 * The shared corpus of real three-way merges of markdown (`../shared/merge-corpus/real-merges.json`, see its README):
 * base, mine, theirs and what the people committed, rebuilt from the file's line edits.
 */
import { existsSync, readFileSync } from "fs";
import { join } from "path";
import { splitLines } from "../../src/core/markdown/lines";

type Edit = [from: number, to: number, text: string];

/** A hand verdict on a clean rule-made merge that differs from the people's result (the corpus README lists them). */
export interface Review {
	verdict: "rule-wrong" | "judgement" | "human-edit" | "invalid" | "whitespace";
	note: string;
}

interface RawCase {
	id: string;
	path: string;
	base: number;
	mine: Edit[];
	theirs: Edit[];
	result: Edit[];
	built: { git: number; ours: number; category: string };
	review?: Review;
}

export interface CorpusCase {
	id: string;
	path: string;
	base: string;
	mine: string;
	theirs: string;
	/** What the people committed. */
	result: string;
	built: RawCase["built"];
	review?: Review;
}

/** Where CI puts the shared material: beside the project's clone. */
export const CORPUS_FILE = join(__dirname, "../../../shared/merge-corpus/real-merges.json");

export function corpusAvailable(): boolean {
	return existsSync(CORPUS_FILE);
}

export function loadCorpus(): CorpusCase[] {
	const raw = JSON.parse(readFileSync(CORPUS_FILE, "utf8")) as { texts: string[]; cases: RawCase[] };
	return raw.cases.map((c) => {
		const base = raw.texts[c.base]!;
		return { id: c.id, path: c.path, base, mine: applyEdits(base, c.mine), theirs: applyEdits(base, c.theirs), result: applyEdits(base, c.result), built: c.built, ...(c.review ? { review: c.review } : {}) };
	});
}

/** Applies `[from, to, text]` replacements of base line ranges (lines split on "\n" only, terminators kept). */
function applyEdits(base: string, edits: readonly Edit[]): string {
	const lines = splitLines(base);
	let out = "";
	let at = 0;
	for (const [from, to, text] of edits) {
		out += lines.slice(at, from).join("") + text;
		at = to;
	}
	return out + lines.slice(at).join("");
}
