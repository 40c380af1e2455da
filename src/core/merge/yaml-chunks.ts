/** Cuts a frontmatter YAML text into exact per-key chunks, so untouched keys can be copied verbatim when merging. */
import { isMap, isScalar, parseDocument, type Document, type Pair } from "yaml";
import { yamlRefusal } from "../nesting";

/** One top-level key: its source text from the end of the previous key (comments and blank lines above it included). */
export interface Chunk {
	key: string;
	pair: Pair;
	text: string;
	/** The comment and blank lines above the key, part of `text`. */
	prefix: string;
}

export interface Chunked {
	doc: Document;
	/** Text before the first key's line (document comments). */
	header: string;
	chunks: Chunk[];
	/** Text after the last key's value (trailing comments). */
	trailer: string;
}

/** Returns null for anything but a clean block mapping with scalar keys, each on its own lines. */
export function chunkYaml(source: string): Chunked | null {
	// Too deep or too big to parse safely: the caller falls back to the line merge, which needs no parser.
	if (yamlRefusal(source) !== null) return null;
	const doc = parseDocument(source, { prettyErrors: false });
	if (doc.errors.length > 0) return null;
	const contents = doc.contents;
	if (contents === null) return { doc, header: "", chunks: [], trailer: source };
	if (!isMap(contents) || contents.flow) return null;

	const chunks: Chunk[] = [];
	let header = "";
	let previousEnd = 0;
	for (const [index, pair] of (contents.items as Pair[]).entries()) {
		const key = pair.key;
		if (!isScalar(key) || !key.range) return null;
		const keyLine = lineStart(source, key.range[0]);
		// Keys must start their line: chunks from different versions are later spliced line by line.
		if (source.slice(keyLine, key.range[0]).trim() !== "" || keyLine < previousEnd) return null;
		if (index === 0) {
			header = source.slice(0, keyLine);
			previousEnd = keyLine;
		}
		const valueRange = (pair.value as { range?: [number, number, number] } | null)?.range ?? key.range;
		const end = nextLineStart(source, valueRange[2]);
		if (end <= key.range[0]) return null;
		chunks.push({
			key: JSON.stringify(key.value),
			pair,
			text: source.slice(previousEnd, end),
			prefix: source.slice(previousEnd, keyLine),
		});
		previousEnd = end;
	}
	return { doc, header, chunks, trailer: source.slice(previousEnd) };
}

function lineStart(text: string, at: number): number {
	return text.lastIndexOf("\n", at - 1) + 1;
}

/** `at` itself when it already starts a line (or ends the text), else the start of the next line. */
function nextLineStart(text: string, at: number): number {
	if (at >= text.length || at === 0 || text[at - 1] === "\n") return Math.min(at, text.length);
	const newline = text.indexOf("\n", at);
	return newline === -1 ? text.length : newline + 1;
}

/** Same data, comments and styles once both are printed by the same printer: formatting-only differences vanish. */
export function sameYaml(a: string, b: string): boolean {
	if (a === b) return true;
	if (yamlRefusal(a) !== null || yamlRefusal(b) !== null) return false;
	const left = parseDocument(a);
	const right = parseDocument(b);
	if (left.errors.length > 0 || right.errors.length > 0) return false;
	return left.toString(PRINT) === right.toString(PRINT);
}

/** Printing options that change the least: no line folding, compact flow collections as people type them. */
export const PRINT = { lineWidth: 0, flowCollectionPadding: false } as const;
