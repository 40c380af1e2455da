/**
 * One part of a note, as a Local REST API URL target reads it: a heading's section, a block's text, a frontmatter value
 * (scope `content`, the default); the label alone (`marker`: a heading's text, a block's id, a frontmatter key); or the
 * whole node in the shape a PATCH replace at that scope takes (`markerAndContent`: a heading's section with its own
 * line as `#`, levels relative to it; a whole block, id and all; a frontmatter entry as {key: value}).
 */
import { findBlocks } from "./markdown/blocks";
import { readFrontmatter } from "./markdown/frontmatter";
import { headingSections } from "./markdown/sections";
import { parseMarkdown } from "./markdown/structure";
import type { PatchScope, PatchTargetType } from "./patch";
import { shiftHeadings } from "./patch-levels";

export type TargetRead =
	| { kind: "text"; text: string }
	| { kind: "json"; value: unknown }
	| { kind: "missing"; detail: string }
	| { kind: "unreadable"; detail: string }
	/** The frontmatter is not valid YAML, so none of its values can be read. */
	| { kind: "invalid-frontmatter"; detail: string };

export function readTarget(content: string, type: PatchTargetType, target: string, path?: readonly string[], scope: Exclude<PatchScope, "parent"> = "content"): TargetRead {
	const doc = parseMarkdown(content);
	if (type === "heading") {
		const headingPath = path ?? [target];
		const sections = headingSections(doc, headingPath);
		if (sections.length > 1) return { kind: "unreadable", detail: `${sections.length} headings have the path ${JSON.stringify(headingPath)}; name the enclosing headings too.` };
		const section = sections[0];
		if (!section) return { kind: "missing", detail: `The note has no heading at the path ${JSON.stringify(headingPath)} (outermost first, one URL segment each).` };
		if (scope === "marker") return { kind: "text", text: headingPath[headingPath.length - 1]! };
		if (scope === "markerAndContent") return { kind: "text", text: shiftHeadings(content.slice(section.start, section.contentEnd), 1 - section.level, []) };
		return { kind: "text", text: content.slice(section.contentStart, section.contentEnd) };
	}
	if (type === "block") {
		const id = target.startsWith("^") ? target.slice(1) : target;
		const blocks = findBlocks(doc).filter((block) => block.id === id);
		if (blocks.length > 1) return { kind: "unreadable", detail: `The note has ${blocks.length} blocks with the id ^${id}.` };
		const block = blocks[0];
		if (!block) return { kind: "missing", detail: `The note has no block ^${id}.` };
		if (scope === "marker") return { kind: "text", text: id };
		return { kind: "text", text: content.slice(scope === "markerAndContent" ? block.start : block.bodyStart, scope === "markerAndContent" ? block.end : block.bodyEnd) };
	}
	const { data, warning } = readFrontmatter(content);
	if (data === null) return { kind: "invalid-frontmatter", detail: warning ?? "The frontmatter cannot be read." };
	if (!Object.prototype.hasOwnProperty.call(data, target)) return { kind: "missing", detail: `The frontmatter has no key "${target}".` };
	if (scope === "marker") return { kind: "json", value: target };
	return { kind: "json", value: scope === "markerAndContent" ? { [target]: data[target] } : data[target] };
}
