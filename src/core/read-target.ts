/**
 * One part of a note, as a Local REST API URL target reads it: a heading's section, a block's text, a frontmatter value
 * (scope `content`, the default); the label alone (`marker`: a heading's text, a block's id, a frontmatter key); or the
 * whole node in the shape a PATCH replace at that scope takes (`markerAndContent`: a heading's section with its own
 * line as `#`, levels relative to it; a whole block, id and all; a frontmatter entry as {key: value}).
 */
import { blockByKey, findBlocks } from "./markdown/blocks";
import { readFrontmatter } from "./markdown/frontmatter";
import { parseOccurrence } from "./markdown/occurrences";
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

export function readTarget(
	content: string,
	type: PatchTargetType,
	target: string,
	path?: readonly string[],
	scope: Exclude<PatchScope, "parent"> = "content",
): TargetRead {
	const doc = parseMarkdown(content);
	if (type === "heading") {
		const headingPath = path ?? [target];
		const sections = headingSections(doc, headingPath);
		const section = sections[0];
		if (!section)
			return {
				kind: "missing",
				detail:
					`The note has no heading at the path ${JSON.stringify(headingPath)} (outermost first, ` +
					`one URL segment each).`,
			};
		// The label is the heading's own text, never the occurrence suffix its key may carry.
		if (scope === "marker") return { kind: "text", text: parseOccurrence(headingPath[headingPath.length - 1]!).text };
		if (scope === "markerAndContent")
			return {
				kind: "text",
				text: shiftHeadings(content.slice(section.start, section.contentEnd), 1 - section.level, []),
			};
		return { kind: "text", text: content.slice(section.contentStart, section.contentEnd) };
	}
	if (type === "block") {
		const { id, occurrence, block } = blockByKey(findBlocks(doc), target.startsWith("^") ? target.slice(1) : target);
		if (!block)
			return {
				kind: "missing",
				detail:
					occurrence > 1
						? `The note has no occurrence ${occurrence} of the block id ^${id}.`
						: `The note has no block ^${id}.`,
			};
		if (scope === "marker") return { kind: "text", text: id };
		return {
			kind: "text",
			text: content.slice(
				scope === "markerAndContent" ? block.start : block.bodyStart,
				scope === "markerAndContent" ? block.end : block.bodyEnd,
			),
		};
	}
	const { data, warning } = readFrontmatter(content);
	if (data === null) return { kind: "invalid-frontmatter", detail: warning ?? "The frontmatter cannot be read." };
	if (!Object.prototype.hasOwnProperty.call(data, target))
		return { kind: "missing", detail: `The frontmatter has no key "${target}".` };
	if (scope === "marker") return { kind: "json", value: target };
	return { kind: "json", value: scope === "markerAndContent" ? { [target]: data[target] } : data[target] };
}
