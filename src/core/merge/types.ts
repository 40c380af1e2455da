/** Plain-data types of the three-way merge result, shared by the engine, the renderer and the UI. */

/**
 * Where a stable region's text came from: unchanged base text, one side's change, or "both": a change both sides
 * made identically, or a frontmatter block the YAML merge combined from both sides' changes.
 */
export type StableOrigin = "base" | "mine" | "theirs" | "both";

/**
 * Why the merge left a region for a person to decide, so a UI can explain it. (Not to be confused with a conflict
 * record's `ConflictReason` in core/conflicts.ts, which says why a write was refused.)
 */
export type MergeConflictReason =
	/** Both sides changed overlapping or touching lines (git's rule). */
	| "overlap"
	/** Both sides changed something inside one fenced code block. */
	| "fence"
	/** Both sides changed the same frontmatter key differently. */
	| "frontmatter";

/**
 * The markdown rule that made a region clean where `git merge-file` would have left a conflict (RULES.md), so a UI
 * can say so and offer to undo it, and a merge preview can name it.
 */
export type MergeRule =
	/** The frontmatter merged key by key: each side changed its own keys. */
	| "frontmatter"
	/** A list-valued frontmatter key (tags, aliases, ...) both sides changed, merged as a set. */
	| "tags"
	/** List or task items as units: each side changed its own item next to the other's. */
	| "list";

export type MergeRegion =
	| {
			kind: "stable";
			text: string;
			origin: StableOrigin;
			/** The base text a change replaced; present unless origin is "base" (an empty text marks a deletion). */
			base?: string;
			/** Present only when a markdown rule, not git's line rule, made this region clean. */
			rule?: MergeRule;
			/** With a frontmatter or tags rule (origin "both"): the two blocks the rule combined. */
			mine?: string;
			theirs?: string;
	  }
	| {
			kind: "conflict";
			/** 0-based position among the result's conflicts, stable for a given result. */
			id: number;
			reason: MergeConflictReason;
			base: string;
			mine: string;
			theirs: string;
	  };

export type ConflictRegion = Extract<MergeRegion, { kind: "conflict" }>;

export interface MergeResult {
	clean: boolean;
	conflicts: number;
	/** In document order; texts are exact substrings of the inputs, line terminators included. */
	regions: MergeRegion[];
}

/** A conflict before it is numbered; the engine assigns ids once the whole document is assembled. */
export type DraftRegion = Extract<MergeRegion, { kind: "stable" }> | Omit<ConflictRegion, "id">;
