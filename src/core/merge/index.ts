/** Public API of the pure three-way merge engine for markdown notes (no Obsidian, no I/O). */
export { mergeThreeWay, mergeThreeWayInSlices, mergeThreeWaySteps, rulesFired } from "./merge";
export { mergedText, renderMerge, MARKERS, type RenderOptions } from "./render";
export { wordDiff, type WordOp } from "./word-diff";
export type { MergeConflictReason, ConflictRegion, MergeRegion, MergeResult, MergeRule, StableOrigin } from "./types";
