/**
 * PATCH of one frontmatter key, edited in place in the parsed YAML document so other keys, their order, quoting and
 * comments survive. YAML that does not parse is never rewritten: a guess there could drop what a person wrote.
 */
import { isMap, isScalar, isSeq, parseDocument } from "yaml";
import { findFrontmatter } from "./markdown/frontmatter";
import { parseMarkdown } from "./markdown/structure";
import { yamlRefusal } from "./nesting";
import type { PatchInstruction, PatchResult } from "./patch";
import { editEntries, preexistsIn } from "./patch-frontmatter-entries";

export function patchFrontmatter(
	content: string,
	instruction: PatchInstruction,
	key: string,
	value: unknown,
): PatchResult {
	const { operation } = instruction;
	const create = instruction.createTargetIfMissing === true;
	if (key === "" || /[\r\n]/.test(key))
		return failure("invalid-target", "The frontmatter key is empty or holds a line break; name one top-level key.");
	const block = findFrontmatter(content);
	const unsafe = yamlRefusal(block?.yaml ?? "");
	if (unsafe !== null)
		return failure(
			"invalid-frontmatter",
			`The note's frontmatter was not edited because ${unsafe}, which is not parsed safely; ` +
				`nothing was changed. Replace the whole note with PUT instead.`,
		);
	const doc = parseDocument(block?.yaml ?? "");
	if (doc.errors.length > 0)
		return failure(
			"invalid-frontmatter",
			// The answer's title already says the YAML is not valid: the detail adds where the parser stopped.
			`Nothing was changed: the YAML parser stopped with "${firstLineOf(doc.errors[0]!.message)}" ` +
				"(lines counted from the first line after ---). " +
				"Fix it (or replace the whole note with PUT).",
		);
	// Empty (or comment-only) frontmatter has no contents yet; `set` below creates the map.
	if (doc.contents !== null && !isMap(doc.contents))
		return failure(
			"invalid-frontmatter",
			"The note's frontmatter is not a set of keys (it is a list or a single value), so " +
				"no key can be patched; nothing was changed.",
		);

	const existing: unknown = doc.get(key, true);
	const scope = instruction.scope ?? "content";
	const preexists =
		instruction.rejectIfContentPreexists &&
		operation !== "replace" &&
		operation !== "delete" &&
		preexistsIn(existing, value);
	if (preexists)
		return failure(
			"content-preexists",
			`The frontmatter key "${key}" already holds what you sent (Reject-If-Content-Preexists), ` +
				`so it was not added again; nothing was changed.`,
		);
	if (scope === "marker" || scope === "markerAndContent") {
		const edited = editEntries(doc, key, scope, operation, value);
		if (edited !== null) return edited;
	} else if (operation === "delete") {
		if (!doc.has(key))
			return failure(
				"target-not-found",
				`The frontmatter has no key "${key}", so there is nothing to delete; nothing was changed.`,
			);
		doc.delete(key);
	} else if (operation === "replace" || existing === undefined || (isScalar(existing) && existing.value === null)) {
		if (operation !== "replace" && existing === undefined && !create) {
			return failure(
				"target-not-found",
				`The frontmatter has no key "${key}", so there is nothing to ${operation} to; nothing ` +
					`was changed. Use Operation: replace to set it, or send Create-Target-If-Missing: ` +
					`true (createTargetIfMissing in a JSON instruction).`,
			);
		}
		// A plain value updates an existing scalar in place, keeping its quoting and comment.
		doc.set(key, typeof value === "object" && value !== null ? doc.createNode(value) : value);
	} else if (isSeq(existing)) {
		const items = (Array.isArray(value) ? value : [value]).map((item) => doc.createNode(item));
		// One item at a time: spreading a huge list into push() would overflow the stack.
		if (operation === "append") for (const item of items) existing.items.push(item);
		else existing.items = [...items, ...existing.items] as typeof existing.items;
	} else if (isScalar(existing) && typeof existing.value === "string") {
		if (typeof value !== "string")
			return failure(
				"invalid-value",
				`"${key}" holds text, so only text can be ${operation}ed to it; send the value as ` +
					`text (or a JSON string), or use Operation: replace.`,
			);
		existing.value = operation === "append" ? existing.value + value : value + existing.value;
	} else if (isMap(existing) && typeof value === "object" && value !== null && !Array.isArray(value)) {
		// A map merges (LRA 5.1): new keys are added; a key it already has is refused, never overwritten.
		const taken = Object.keys(value).find((name) => existing.has(name));
		if (taken !== undefined)
			return failure(
				"key-collision",
				`"${key}" already has a key "${taken}"; a merge adds only new keys, so nothing was ` +
					`changed. Set it with Operation: replace on the whole value.`,
			);
		const pairs = Object.entries(value as Record<string, unknown>).map(([name, entry]) => doc.createPair(name, entry));
		existing.items = operation === "append" ? [...existing.items, ...pairs] : [...pairs, ...existing.items];
	} else {
		return failure(
			"invalid-value",
			`"${key}" holds ${isMap(existing) ? "a map (which merges only a JSON object of new keys)" : "a number, a boolean or a date"}; ` +
				`append and prepend work on a list, a map or a text value. Use Operation: replace to set it.`,
		);
	}

	let yaml: string;
	try {
		// The last key deleted leaves the fences with nothing between them, not a `{}`.
		yaml =
			isMap(doc.contents) && doc.contents.items.length === 0 && !doc.commentBefore && !doc.comment
				? ""
				: doc.toString({ lineWidth: 0, flowCollectionPadding: false });
	} catch {
		return failure("invalid-value", "The new frontmatter could not be written as YAML; nothing was changed.");
	}
	const { eol } = parseMarkdown(content);
	if (eol === "\r\n") yaml = yaml.replace(/\r?\n/g, "\r\n");
	if (block) return { ok: true, content: content.slice(0, block.yamlStart) + yaml + content.slice(block.yamlEnd) };
	// No frontmatter yet: it goes first, after a byte-order mark if the note starts with one.
	const bom = content.startsWith("\ufeff") ? "\ufeff" : "";
	return { ok: true, content: `${bom}---${eol}${yaml}---${eol}${content.slice(bom.length)}` };
}

/** The parser's message without the excerpt it appends (after a colon, on the lines below). */
function firstLineOf(message: string): string {
	return message.split("\n")[0]!.replace(/:\s*$/, "");
}

function failure(reason: Extract<PatchResult, { ok: false }>["reason"], detail: string): PatchResult {
	return { ok: false, reason, detail };
}
