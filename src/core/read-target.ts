/** One part of a note, as a Local REST API URL target reads it: a heading's section, a block's text, a frontmatter value. */
import { findBlocks } from "./markdown/blocks";
import { readFrontmatter } from "./markdown/frontmatter";
import { headingSections } from "./markdown/sections";
import { parseMarkdown } from "./markdown/structure";
import type { PatchTargetType } from "./patch";

export type TargetRead =
	| { kind: "text"; text: string }
	| { kind: "json"; value: unknown }
	| { kind: "missing"; detail: string }
	| { kind: "unreadable"; detail: string }
	/** The frontmatter is not valid YAML, so none of its values can be read. */
	| { kind: "invalid-frontmatter"; detail: string };

export function readTarget(content: string, type: PatchTargetType, target: string, path?: readonly string[]): TargetRead {
	const doc = parseMarkdown(content);
	if (type === "heading") {
		const headingPath = path ?? [target];
		const sections = headingSections(doc, headingPath);
		if (sections.length > 1) return { kind: "unreadable", detail: `${sections.length} headings have the path ${JSON.stringify(headingPath)}; name the enclosing headings too.` };
		const section = sections[0];
		if (!section) return { kind: "missing", detail: `The note has no heading at the path ${JSON.stringify(headingPath)} (outermost first, one URL segment each).` };
		return { kind: "text", text: content.slice(section.contentStart, section.contentEnd) };
	}
	if (type === "block") {
		const id = target.startsWith("^") ? target.slice(1) : target;
		const blocks = findBlocks(doc).filter((block) => block.id === id);
		if (blocks.length > 1) return { kind: "unreadable", detail: `The note has ${blocks.length} blocks with the id ^${id}.` };
		const block = blocks[0];
		if (!block) return { kind: "missing", detail: `The note has no block ^${id}.` };
		return { kind: "text", text: content.slice(block.bodyStart, block.bodyEnd) };
	}
	const { data, warning } = readFrontmatter(content);
	if (data === null) return { kind: "invalid-frontmatter", detail: warning ?? "The frontmatter cannot be read." };
	if (!Object.prototype.hasOwnProperty.call(data, target)) return { kind: "missing", detail: `The frontmatter has no key "${target}".` };
	return { kind: "json", value: data[target] };
}
