/**
 * Input nested so deeply that a parser, or a later step recursing over what it parsed, would overflow the stack or,
 * in V8's regular-expression compiler, exhaust memory and take the whole process (or Obsidian) down: no try/catch
 * can stop that. So nesting is measured on the raw text, cheaply and without recursion, before any parser sees it.
 */

/** Deeper than any real note's frontmatter or any real request, far shallower than what breaks a parser. */
export const MAX_NESTING = 64;
/** Frontmatter past this size is not parsed (real property blocks are a few kilobytes). */
export const MAX_FRONTMATTER_BYTES = 256 * 1024;
/**
 * Opening brackets a YAML text may hold in all. This bounds its real depth whatever quotes and closing brackets do
 * (the `yaml` parser overflows its stack from about 1,000 levels); a few hundred wiki-links still fit.
 */
export const MAX_FLOW_OPENINGS = 512;

/** Why a YAML text must not be parsed, or null when it is safe to. */
export function yamlRefusal(text: string): string | null {
	if (text.length > MAX_FRONTMATTER_BYTES) return `it is over ${MAX_FRONTMATTER_BYTES / 1024} KB`;
	if (yamlNesting(text) > MAX_NESTING || flowOpenings(text) > MAX_FLOW_OPENINGS)
		return `it is nested too deeply (over ${MAX_NESTING} levels, or over ${MAX_FLOW_OPENINGS} brackets)`;
	return null;
}

/** Why a JSON text must not be parsed, or null when it is safe to. */
export function jsonRefusal(text: string, limit = MAX_NESTING): string | null {
	return jsonNesting(text) > limit ? `it is nested more than ${limit} levels deep` : null;
}

/** The deepest `[` / `{` nesting of JSON text (brackets inside strings do not count). */
export function jsonNesting(text: string): number {
	let depth = 0;
	let deepest = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === BACKSLASH) i++;
			else if (c === QUOTE) inString = false;
		} else if (c === QUOTE) inString = true;
		else if (c === OPEN_SQUARE || c === OPEN_CURLY) deepest = Math.max(deepest, ++depth);
		else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) depth--;
	}
	return deepest;
}

/**
 * An upper estimate of YAML nesting: on each line, its indentation plus the block markers (`- `, `? `) that start
 * it, plus the flow brackets still open. Brackets count even inside quotes, so no quoting trick can hide one; only
 * comments are skipped (a `#` after a space never starts structure). Over-estimating only means an odd frontmatter
 * is left unparsed, which is safe; under-estimating must never happen.
 */
export function yamlNesting(text: string): number {
	let deepest = 0;
	let flow = 0;
	let lineStart = true;
	let block = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === NEWLINE) {
			lineStart = true;
			block = 0;
			continue;
		}
		if (lineStart) {
			if (c === SPACE || ((c === DASH || c === QUESTION) && isBlank(text.charCodeAt(i + 1)))) {
				deepest = Math.max(deepest, ++block + flow);
				continue;
			}
			lineStart = false;
		}
		if (c === HASH && (i === 0 || isBlank(text.charCodeAt(i - 1)))) {
			while (i + 1 < text.length && text.charCodeAt(i + 1) !== NEWLINE) i++;
		} else if (c === OPEN_SQUARE || c === OPEN_CURLY) deepest = Math.max(deepest, block + ++flow);
		else if ((c === CLOSE_SQUARE || c === CLOSE_CURLY) && flow > 0) flow--;
	}
	return deepest;
}

/** Opening brackets in all: a closing bracket inside a string could cancel a real opening above, never these. */
function flowOpenings(text: string): number {
	let count = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === OPEN_SQUARE || c === OPEN_CURLY) count++;
	}
	return count;
}

function isBlank(c: number): boolean {
	return c === SPACE || c === NEWLINE || c === TAB || c === RETURN || Number.isNaN(c);
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const QUOTE = 0x22;
const HASH = 0x23;
const DASH = 0x2d;
const QUESTION = 0x3f;
const OPEN_SQUARE = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;
const TAB = 0x09;
const RETURN = 0x0d;
