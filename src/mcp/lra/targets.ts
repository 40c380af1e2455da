/**
 * The `target` argument of vault_read and vault_patch as the Local REST API 5.1 reads it: a heading is an array of
 * heading texts (some clients send that array as its JSON text, when they do not resolve `anyOf` parameters), a block
 * or frontmatter key a string.
 */
import type { PatchTargetType } from "../../core/patch";

/** Why a bare string is refused for a heading: most often a client that flattens anyOf parameters. */
export const HEADING_STRING_HINT =
	'a heading target is an array of heading texts, outermost first (e.g. ["Plan", "Next ' +
	'steps"]), not a bare string; if you did pass an array, your MCP client may not support ' +
	"anyOf-typed tool parameters";

export type ResolvedTarget = { ok: true; target: string[] | string | null } | { ok: false; reason: string };

/** `allowRoot`: null (the whole document) is a heading target too (vault_patch's document root). */
export function lraTarget(type: PatchTargetType, target: unknown, allowRoot = false): ResolvedTarget {
	if (type !== "heading") {
		if (typeof target !== "string")
			return {
				ok: false,
				reason: `a ${type} target is a string (${type === "block" ? "the block id, without ^" : "the frontmatter key"}), not an array`,
			};
		return { ok: true, target };
	}
	if (Array.isArray(target) && target.every((part) => typeof part === "string")) return { ok: true, target };
	if (target === null && allowRoot) return { ok: true, target: null };
	if (typeof target === "string") {
		const parsed = parseJson(target);
		if (Array.isArray(parsed) && parsed.every((part) => typeof part === "string")) return { ok: true, target: parsed };
		if (parsed === null && allowRoot && target.trim() === "null") return { ok: true, target: null };
	}
	return { ok: false, reason: HEADING_STRING_HINT };
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}
