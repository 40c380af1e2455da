/**
 * What a key's lists mean in this vault, for the person editing them: how many notes the key can see, change, and
 * only propose changes to. Counted a slice at a time, so a vault of a hundred thousand notes never freezes Obsidian
 * while the settings tab waits for the answer.
 */
import type { Access, ScopeProblem } from "../core/key-scope";
import { finishInSlices, type Steps, type YieldToHost } from "../core/steps";

export type ScopeSummary = { kind: "not-served"; problem: ScopeProblem } | { kind: "counted"; notes: number; see: number; change: number; propose: number };

export interface AccessCounts {
	notes: number;
	see: number;
	change: number;
	propose: number;
}

/** Counts what `accessOf` says of each path, giving the host a turn between slices (`sliceMs`: tests pass 0). */
export function countAccess(paths: readonly string[], accessOf: (path: string) => Access, yieldToHost: YieldToHost, sliceMs?: number): Promise<AccessCounts> {
	return finishInSlices(countSteps(paths, accessOf), yieldToHost, sliceMs);
}

function* countSteps(paths: readonly string[], accessOf: (path: string) => Access): Steps<AccessCounts> {
	const counts = { notes: paths.length, see: 0, change: 0, propose: 0 };
	for (const [index, path] of paths.entries()) {
		const access = accessOf(path);
		if (access !== "hidden") counts.see++;
		if (access === "write") counts.change++;
		if (access === "propose") counts.propose++;
		// A step every 256 notes: the slice clock is read that often, never per note.
		if (index % 256 === 255) yield;
	}
	return counts;
}
