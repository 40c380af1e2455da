/**
 * Which operation × scope × target combinations a PATCH instruction may make (LRA 5.1's algebra). Checked once, in
 * the core, so REST, MCP and the CLI refuse the same combinations with the same words; an instruction outside it is
 * refused whole rather than carried out as something near it.
 */
import type { PatchInstruction } from "./patch";

/** Why the instruction is outside the algebra, or null when it is inside. */
export function algebraError(instruction: PatchInstruction, body: string): string | null {
	const { operation, targetType, within, destination } = instruction;
	const scope = instruction.scope ?? "content";
	const insert = operation === "append" || operation === "prepend";
	if (destination !== undefined && scope !== "parent")
		return 'A "destination" goes only with scope "parent" (a move). Nothing was written.';
	if (scope === "parent") {
		if (targetType !== "heading" || operation !== "replace")
			return (
				'Scope "parent" moves a heading section: it goes only with targetType "heading" and ' +
				'operation "replace". Nothing was written.'
			);
		if (destination === undefined)
			return (
				'Scope "parent" (a move) needs a "destination": {"parent": ["Heading"] or null, "place": ' +
				'"first" | "last" | {"before": [...]} | {"after": [...]}}. Nothing was written.'
			);
		if (body !== "")
			return 'A move carries its payload in "destination" only; send no content or value with it. Nothing was written.';
	}
	if (scope === "marker") {
		if (insert)
			return (
				`Scope "marker" (a heading's text, a block's id, a frontmatter key) can be replaced ` +
				`(renamed) or deleted, not ${operation}ed to. Nothing was written.`
			);
		if (targetType === "frontmatter" && operation === "delete")
			return (
				"A frontmatter key cannot be deleted without its value: delete the entry with scope " +
				'"content" or "markerAndContent". Nothing was written.'
			);
		if (operation === "replace" && (body.trim() === "" || /[\r\n]/.test(body.replace(/(\r?\n)+$/, "")))) {
			return (
				`A marker rename needs the new ${targetType === "heading" ? "heading text" : targetType === "block" ? "block id" : "key"}: ` +
				`one line, not empty. Nothing was written.`
			);
		}
	}
	if (within !== undefined) {
		if (!Number.isSafeInteger(within))
			return (
				'"within" is a whole number: the index of a block in the section\'s own body (0 the ' +
				"first, -1 the last). Nothing was written."
			);
		if (targetType !== "heading")
			return (
				'"within" picks a block inside a heading\'s section; it goes only with targetType ' +
				'"heading". Nothing was written.'
			);
		if (scope !== "content" && scope !== "markerAndContent")
			return (
				`Scope "${scope}" cannot be within-refined: "within" goes with scope "content" (a ` +
				`literal splice into the block) or "markerAndContent" (a new block beside it). Nothing was written.`
			);
		if (instruction.createTargetIfMissing)
			return (
				'"within" cannot be combined with createTargetIfMissing: a block index needs a section ' +
				"that exists. Nothing was written."
			);
	}
	if (instruction.createTargetIfMissing && scope !== "content")
		return `createTargetIfMissing goes only with scope "content" (the default), not "${scope}". Nothing was written.`;
	if (instruction.json && targetType === "heading")
		return "A heading's body is markdown text, not JSON. Nothing was written.";
	return null;
}
