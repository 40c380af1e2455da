/**
 * A change refused by a key's scope (core/key-scope.ts), as every surface reports it: which key, which note, and the
 * rule that decided. Each surface frames it in its own words (a 403 problem, an MCP error, a CLI answer); the
 * sentence that names the rule is this one, so the rule reads the same everywhere.
 */
import type { Access, ScopeField, ScopeLists } from "./key-scope";

export type ScopeWhy =
	/** The note is outside the key's read list: for this key it does not exist, so it cannot be changed either. */
	| "outside-read"
	/** Readable, but outside both the write and propose lists. */
	| "read-only"
	/** Inside the propose list, and this host takes no proposals. */
	| "no-proposals"
	/** Inside the propose list, and the change is not one a proposal can carry (a delete, move, copy or undo). */
	| "not-proposable"
	/** Obsidian commands can change any note: only a key that may write the whole vault may run them. */
	| "commands-need-whole-vault"
	/**
	 * Moving the note inside Obsidian would rewrite the links of notes that link to it, and the key may not change
	 * one of them (which one, or whether the key may see it, is not said).
	 */
	| "links-outside-write"
	/** The path goes through a symbolic link (headless): its name need not say where the note is, so it is not there. */
	| "through-link"
	/** The key's lists in settings are malformed, so the key is not served at all. */
	| "key-not-served";

export interface ScopeForbidden {
	reason: "scope-forbidden";
	why: ScopeWhy;
	key: string;
	/** The note refused (null for a command or a key that is not served). */
	path: string | null;
	/** What the key may do with the note, and the rule that decided it (absent for a command or a key not served). */
	access?: Access;
	field?: ScopeField;
	pattern?: string | null;
	/** The key's lists, so the answer can say what it would take (absent for a key not served). */
	lists?: ScopeLists;
	/** For a key not served: what is wrong with its settings. */
	problem?: string;
}

/** One sentence naming the rule: what the key may do with the note, and why. */
export function scopeRuleSentence(refusal: ScopeForbidden): string {
	const key = `The key "${refusal.key}"`;
	const note = refusal.path === null ? "" : `"${refusal.path}"`;
	const matched = refusal.pattern ? `it matches the ${refusal.field} glob ${JSON.stringify(refusal.pattern)}` : "";
	switch (refusal.why) {
		case "outside-read":
			return `${key} may not see ${note}: no glob of its read list (${JSON.stringify(refusal.lists?.read ?? [])}) matches it.`;
		case "read-only":
			return (
				`${key} may only read ${note}: ${matched}, and no glob of its write list (${JSON.stringify(refusal.lists?.write ?? [])}) ` +
				`or propose list does.`
			);
		case "no-proposals":
			return `${key} may only propose changes to ${note} (${matched}), and this host takes no proposals.`;
		case "not-proposable":
			return (
				`${key} may only propose changes to ${note} (${matched}); a proposal carries new ` +
				`content for the person to accept, so deleting, moving, copying over or undoing the ` +
				`note is not one.`
			);
		case "commands-need-whole-vault":
			return (
				`${key} may not run Obsidian commands: a command can change any note, and this key ` +
				`may not change every note (read ${JSON.stringify(refusal.lists?.read ?? [])}, write ${JSON.stringify(refusal.lists?.write ?? [])}, propose ${JSON.stringify(refusal.lists?.propose ?? [])}).`
			);
		case "links-outside-write":
			return (
				`${key} may not move ${note}: notes link to it that this key may not change, and moving it inside ` +
				`Obsidian would rewrite their links.`
			);
		case "through-link":
			return (
				`${key} may not reach ${note}: the path goes through a symbolic link, and a key with lists reaches ` +
				`notes only by their own path (a link may lead outside them).`
			);
		case "key-not-served":
			return `${key} is not served: ${refusal.problem ?? "its settings are malformed"}`;
	}
}

/** What the agent can do next, the same on every surface. */
export function scopeNextStep(refusal: ScopeForbidden): string {
	switch (refusal.why) {
		case "outside-read":
		case "read-only":
		case "commands-need-whole-vault":
		case "through-link":
			return (
				"Only the person can change what a key may do (in the plugin's settings, or the key's " +
				"lists in the headless host's settings.json); ask them, or work on notes this key may change."
			);
		case "no-proposals":
			return "Ask the person to change it, or to let this key write it.";
		case "not-proposable":
			return "Propose new content with a write instead, or ask the person.";
		case "links-outside-write":
			return "Ask the person to move it, or copy it to its new path instead.";
		case "key-not-served":
			return "Ask the person to fix the key's lists in settings.";
	}
}

/** The refusal's facts as plain fields, the same in a problem body, an MCP result and a CLI answer. */
export function scopeFacts(refusal: ScopeForbidden): {
	key: string;
	scope: string;
	access?: Access;
	rule?: { list: ScopeField; glob: string | null };
} {
	return {
		key: refusal.key,
		scope: refusal.why,
		...(refusal.access === undefined ? {} : { access: refusal.access }),
		...(refusal.field === undefined ? {} : { rule: { list: refusal.field, glob: refusal.pattern ?? null } }),
	};
}
