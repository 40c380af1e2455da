/**
 * The shared corpus of real three-way merges of markdown (`../shared/merge-corpus/real-merges.json`, see its README):
 * base, mine, theirs and what the people committed, rebuilt from the file's line edits.
 */
import { existsSync, readFileSync } from "fs";
import { join } from "path";
import { splitLines } from "../../src/core/markdown/lines";
import { skipNote } from "./prerequisites";

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

/**
 * Why the corpus tests skip here, or null when they run. A fresh clone has no ../shared beside it, so they skip
 * there; under CI they run, and fail on a missing corpus, unless `REVISION_GUARD_CORPUS=absent` says it is missing
 * on purpose (the release workflow's runner, which has no ../shared).
 */
export function corpusSkipNote(env: NodeJS.ProcessEnv = process.env, available = corpusAvailable()): string | null {
	if (available) return null;
	const missing = `no merge corpus at ${CORPUS_FILE} (the shared folder beside the clone)`;
	if (env.REVISION_GUARD_CORPUS === "absent") return `${missing}, as REVISION_GUARD_CORPUS=absent says`;
	return skipNote(missing, env);
}

/**
 * The corpus's cases; throws, saying what to do, when the file is missing (a CI run without ../shared). `file` is for
 * the benchmark, which runs from dist/ (its own path to the shared folder).
 */
export function loadCorpus(file = CORPUS_FILE): CorpusCase[] {
	if (!existsSync(file)) {
		throw new Error(
			`The merge corpus is missing: no file at ${file}. CI (CI=true) runs the corpus tests, so the shared folder ` +
				"(with merge-corpus/) must be beside the clone; where it is absent on purpose, set REVISION_GUARD_CORPUS=absent.",
		);
	}
	const raw = JSON.parse(readFileSync(file, "utf8")) as { texts: string[]; cases: RawCase[] };
	return raw.cases.map((c) => {
		const base = raw.texts[c.base]!;
		return {
			id: c.id,
			path: c.path,
			base,
			mine: applyEdits(base, c.mine),
			theirs: applyEdits(base, c.theirs),
			result: applyEdits(base, c.result),
			built: c.built,
			...(c.review ? { review: c.review } : {}),
		};
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
