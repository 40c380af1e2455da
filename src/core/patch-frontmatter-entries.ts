/**
 * Frontmatter entries as wholes: scope `marker` renames a key in place (its value, position and comments stay);
 * `markerAndContent` takes entries as a JSON object: prepend and append insert them before or after the key, replace
 * puts them in its place, delete removes the entry. A key that would appear twice is refused (key-collision), never
 * overwritten.
 */
import { isMap, isScalar, isSeq, type Document, type Pair } from "yaml";
import type { PatchOperation, PatchResult } from "./patch";

/** Edits `doc` in place; null when done, else why not (nothing changed). */
export function editEntries(
	doc: Document,
	key: string,
	scope: "marker" | "markerAndContent",
	operation: PatchOperation,
	value: unknown,
): PatchResult | null {
	const map = doc.contents;
	const items: Pair[] = isMap(map) ? map.items : [];
	const index = items.findIndex((pair) => keyOf(pair) === key);
	if (index < 0) return failure("target-not-found", `The frontmatter has no key "${key}"; nothing was changed.`);
	if (scope === "marker") {
		if (typeof value !== "string" || value.trim() === "" || /[\r\n]/.test(value.trim()))
			return failure(
				"invalid-value",
				"A frontmatter key rename takes the new key name as text (in content); nothing was changed.",
			);
		const next = value.trim();
		if (next !== key && items.some((pair) => keyOf(pair) === next))
			return failure(
				"key-collision",
				`The frontmatter already has a key "${next}", so "${key}" was not renamed to it; nothing was changed.`,
			);
		const pair = items[index]!;
		if (isScalar(pair.key)) pair.key.value = next;
		else pair.key = doc.createNode(next);
		return null;
	}
	if (operation === "delete") {
		items.splice(index, 1);
		return null;
	}
	if (typeof value !== "object" || value === null || Array.isArray(value) || Object.keys(value).length === 0) {
		return failure(
			"invalid-value",
			'Whole frontmatter entries are a JSON object of keys and values, e.g. {"status": ' +
				'"done"} (in value); nothing was changed.',
		);
	}
	const entries = Object.entries(value as Record<string, unknown>);
	const clash = entries.find(([name]) =>
		items.some((pair, at) => keyOf(pair) === name && !(operation === "replace" && at === index)),
	);
	if (clash)
		return failure(
			"key-collision",
			`The frontmatter already has a key "${clash[0]}"; an entry is added only under a ` +
				`new key, so nothing was changed. Set an existing key with scope "content".`,
		);
	const pairs = entries.map(([name, entry]) => doc.createPair(name, entry));
	if (operation === "replace") items.splice(index, 1, ...pairs);
	else items.splice(operation === "prepend" ? index : index + 1, 0, ...pairs);
	return null;
}

/** rejectIfContentPreexists for a frontmatter value: the text is in the text value, or every item is in the list. */
export function preexistsIn(existing: unknown, value: unknown): boolean {
	if (isScalar(existing) && typeof existing.value === "string" && typeof value === "string")
		return value.trim() !== "" && existing.value.includes(value.trim());
	if (!isSeq(existing)) return false;
	const present = new Set(existing.toJSON().map((item: unknown) => JSON.stringify(item)));
	const sent = Array.isArray(value) ? value : [value];
	return sent.length > 0 && sent.every((item) => present.has(JSON.stringify(item)));
}

function keyOf(pair: Pair): unknown {
	return isScalar(pair.key) ? pair.key.value : pair.key;
}

function failure(reason: Extract<PatchResult, { ok: false }>["reason"], detail: string): PatchResult {
	return { ok: false, reason, detail };
}
