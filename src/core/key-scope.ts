/**
 * What one agent key may do with each note: its `read`, `write` and `propose` glob lists, compiled once and asked
 * per path. Pure. A glob names vault paths: `**` (a whole segment) matches any number of folders, `*` any run of
 * characters inside one segment, everything else itself. Paths and globs are compared NFC-normalized, and without
 * regard to case when the host's disk ignores case (there `Private/**` and `private/x.md` are one folder).
 *
 * Matching is greedy over literal chunks, never a regular expression: a `*` or `**` only ever moves forward, so a
 * hostile pattern costs at most its length times the path's, never an exponential search.
 */

/** What a key may do with a note: nothing (the note does not exist for it), read it, propose changes, or write. */
export type Access = "hidden" | "read" | "propose" | "write";

export type ScopeField = "read" | "write" | "propose";

export const SCOPE_FIELDS: readonly ScopeField[] = ["read", "write", "propose"];

/** A key's lists as settings hold them. */
export interface ScopeLists {
	read: string[];
	write: string[];
	propose: string[];
}

/** What a key gets when its settings name no lists: everything, as every key had before scopes. */
export const DEFAULT_SCOPE_LISTS: Readonly<ScopeLists> = Object.freeze({ read: ["**"], write: ["**"], propose: [] });

/** One pattern of a segment: literal chunks between `*`s (one chunk: no star). */
type SegmentPattern = { kind: "any-depth" } | { kind: "segment"; chunks: string[] };

interface CompiledGlob {
	/** As written in settings: what a refusal names. */
	source: string;
	segments: SegmentPattern[];
}

export interface KeyScope {
	/** The key's name, for the refusals and errors that name it. */
	key: string;
	lists: ScopeLists;
	read: readonly CompiledGlob[];
	write: readonly CompiledGlob[];
	propose: readonly CompiledGlob[];
	caseInsensitive: boolean;
	/** Reads and writes every note, proposes none: the lists of a key from before scopes. */
	whole: boolean;
}

/** Which rule decided a path's access: the list, and its first glob that matched (none: outside every `read` glob). */
export interface ScopeRule {
	access: Access;
	field: ScopeField;
	pattern: string | null;
}

export interface ScopeProblem {
	key: string;
	field: ScopeField;
	message: string;
}

export type CompiledScope = { ok: true; scope: KeyScope } | { ok: false; problem: ScopeProblem };

export interface ScopeOptions {
	/** The host's disk treats `A.md` and `a.md` as one file. */
	caseInsensitive: boolean;
}

/** Longest glob, as the longest vault path (core/path.ts). */
export const MAX_GLOB_LENGTH = 1024;
/** Most globs in one list: each path is checked against all of them. */
export const MAX_GLOBS = 256;

/** Characters other tools read as wildcards that this one does not: refused, so no list silently means less. */
const UNSUPPORTED = /[?[\]{}\\!]/;

/**
 * Compiles a key's lists (absent ones take their defaults). A list that is not an array of valid globs is refused with
 * a problem naming the key and the field: a malformed list never falls back to anything, least of all full access.
 */
export function compileKeyScope(
	key: string,
	raw: Partial<Record<ScopeField, unknown>>,
	options: ScopeOptions,
): CompiledScope {
	const lists: Partial<ScopeLists> = {};
	const compiled: Partial<Record<ScopeField, CompiledGlob[]>> = {};
	for (const field of SCOPE_FIELDS) {
		const given = raw[field] === undefined ? DEFAULT_SCOPE_LISTS[field] : raw[field];
		const problem = listProblem(given);
		if (problem !== null)
			return { ok: false, problem: { key, field, message: `The ${field} list of the key "${key}" ${problem}` } };
		const globs = given as string[];
		lists[field] = [...globs];
		compiled[field] = globs.map((glob) => compileGlob(glob, options.caseInsensitive));
	}
	const complete = lists as ScopeLists;
	const whole = complete.read.includes("**") && complete.write.includes("**") && complete.propose.length === 0;
	return {
		ok: true,
		scope: {
			key,
			lists: complete,
			read: compiled.read!,
			write: compiled.write!,
			propose: compiled.propose!,
			caseInsensitive: options.caseInsensitive,
			whole,
		},
	};
}

/** The scope of a key from before scopes (and of a caller that is no key): every note, read and written. */
export function wholeVaultScope(key: string): KeyScope {
	const compiled = compileKeyScope(key, {}, { caseInsensitive: false });
	if (!compiled.ok) throw new Error("the default lists must compile");
	return compiled.scope;
}

/**
 * A scope that hides every note: what a caller is held to when its key can no longer be found (revoked while its MCP
 * session lives on) or its lists no longer compile. Never a wider one.
 */
export function noAccessScope(key: string): KeyScope {
	const compiled = compileKeyScope(key, { read: [], write: [], propose: [] }, { caseInsensitive: false });
	if (!compiled.ok) throw new Error("empty lists must compile");
	return compiled.scope;
}

/** Why a value is not a list of globs ("is …", ending in a full stop), or null when it is one. */
function listProblem(value: unknown): string | null {
	if (!Array.isArray(value)) return `must be a list of globs, such as ["Projects/**"], not ${describe(value)}.`;
	if (value.length > MAX_GLOBS) return `has ${value.length} globs; at most ${MAX_GLOBS} are allowed.`;
	for (const [index, glob] of value.entries()) {
		const problem = typeof glob === "string" ? globProblem(glob) : `is ${describe(glob)}, not a glob in quotes`;
		if (problem !== null)
			return `has an invalid glob at position ${index + 1} (${typeof glob === "string" ? JSON.stringify(glob.slice(0, 80)) : "not text"}): it ${problem}.`;
	}
	return null;
}

/** Why one glob is refused (a clause after "it"), or null. */
export function globProblem(glob: string): string | null {
	if (glob === "") return "is empty (use ** for every note)";
	if (glob.length > MAX_GLOB_LENGTH) return `is longer than ${MAX_GLOB_LENGTH} characters`;
	if (glob.startsWith("/")) return "starts with /, but vault paths are relative (write Projects/**, not /Projects/**)";
	if (UNSUPPORTED.test(glob))
		return "uses one of ? [ ] { } \\ !, which are not wildcards here: only * (inside a name) and ** (any folders) are";
	for (const segment of glob.split("/")) {
		if (segment === "")
			return "has an empty segment (a doubled or trailing /; write Projects/** for everything in a folder)";
		if (segment === "." || segment === "..") return "has a . or .. segment";
		if (segment !== "**" && segment.includes("**"))
			return (
				`has ** inside the segment "${segment}"; ** stands alone between slashes (Projects/**/notes.md), ` +
				`and * matches inside a name`
			);
	}
	return null;
}

function describe(value: unknown): string {
	if (value === null) return "null";
	if (typeof value === "string") return `the text ${JSON.stringify(value.slice(0, 80))}`;
	if (Array.isArray(value)) return "a list";
	return `a ${typeof value}`;
}

function fold(text: string, caseInsensitive: boolean): string {
	const normalized = text.normalize("NFC");
	return caseInsensitive ? normalized.toLowerCase() : normalized;
}

function compileGlob(source: string, caseInsensitive: boolean): CompiledGlob {
	const segments: SegmentPattern[] = [];
	for (const segment of fold(source, caseInsensitive).split("/")) {
		// Two `**` in a row match what one does: kept as one, so the matcher never tries the same split twice.
		if (segment === "**") {
			if (segments.at(-1)?.kind !== "any-depth") segments.push({ kind: "any-depth" });
		} else segments.push({ kind: "segment", chunks: segment.split("*") });
	}
	return { source, segments };
}

/** Whether one path segment matches a segment pattern: greedy over its literal chunks (leftmost is always right). */
function segmentMatches(chunks: readonly string[], segment: string): boolean {
	if (chunks.length === 1) return chunks[0] === segment;
	const first = chunks[0]!;
	const last = chunks[chunks.length - 1]!;
	if (segment.length < first.length + last.length || !segment.startsWith(first) || !segment.endsWith(last))
		return false;
	let at = first.length;
	const end = segment.length - last.length;
	for (let i = 1; i < chunks.length - 1; i++) {
		const chunk = chunks[i]!;
		const found = segment.indexOf(chunk, at);
		if (found === -1 || found + chunk.length > end) return false;
		at = found + chunk.length;
	}
	return true;
}

/** Whether `from..` of `segments` starts with `group` (each pattern matching one segment). */
function groupAt(group: readonly SegmentPattern[], segments: readonly string[], from: number): boolean {
	for (let i = 0; i < group.length; i++) {
		const pattern = group[i] as Extract<SegmentPattern, { kind: "segment" }>;
		if (!segmentMatches(pattern.chunks, segments[from + i]!)) return false;
	}
	return true;
}

/**
 * Whether a path's segments match a glob. The glob is split at its `**`s into groups of one-segment patterns: the
 * first group is anchored at the start, the last at the end, and each one between is found at its leftmost place
 * (as literal chunks are inside a segment), which is always right, so nothing is ever tried twice.
 */
function globMatches(glob: CompiledGlob, segments: readonly string[]): boolean {
	const groups: SegmentPattern[][] = [[]];
	for (const pattern of glob.segments) {
		if (pattern.kind === "any-depth") groups.push([]);
		else groups[groups.length - 1]!.push(pattern);
	}
	if (groups.length === 1) return segments.length === groups[0]!.length && groupAt(groups[0]!, segments, 0);
	const head = groups[0]!;
	const tail = groups[groups.length - 1]!;
	if (
		segments.length < head.length + tail.length ||
		!groupAt(head, segments, 0) ||
		!groupAt(tail, segments, segments.length - tail.length)
	)
		return false;
	let at = head.length;
	const end = segments.length - tail.length;
	for (let g = 1; g < groups.length - 1; g++) {
		const group = groups[g]!;
		let found = -1;
		for (let from = at; from + group.length <= end; from++) {
			if (groupAt(group, segments, from)) {
				found = from;
				break;
			}
		}
		if (found === -1) return false;
		at = found + group.length;
	}
	return true;
}

function firstMatch(globs: readonly CompiledGlob[], segments: readonly string[]): string | null {
	for (const glob of globs) if (globMatches(glob, segments)) return glob.source;
	return null;
}

/**
 * The rule that decides what the key may do with `path` (a vault path): outside every `read` glob it is hidden;
 * inside, a `propose` glob wins over a `write` glob; readable but in neither, it is read-only.
 */
export function ruleOf(scope: KeyScope, path: string): ScopeRule {
	if (scope.whole) return { access: "write", field: "write", pattern: "**" };
	const segments = fold(path, scope.caseInsensitive).split("/");
	const read = firstMatch(scope.read, segments);
	if (read === null) return { access: "hidden", field: "read", pattern: null };
	const propose = firstMatch(scope.propose, segments);
	if (propose !== null) return { access: "propose", field: "propose", pattern: propose };
	const write = firstMatch(scope.write, segments);
	if (write !== null) return { access: "write", field: "write", pattern: write };
	return { access: "read", field: "read", pattern: read };
}

export function accessOf(scope: KeyScope, path: string): Access {
	return ruleOf(scope, path).access;
}

/**
 * Whether some path inside `folder` (a vault folder path, "" for the root) could be readable: a folder no `read` glob
 * can reach into is left out of listings, so its name is not shown either.
 */
export function folderVisible(scope: KeyScope, folder: string): boolean {
	if (scope.whole || folder === "") return true;
	const segments = fold(folder.replace(/\/+$/, ""), scope.caseInsensitive).split("/");
	return scope.read.some((glob) => prefixFeasible(glob.segments, segments));
}

/** Whether a path that starts with `segments` (and goes deeper) could match the glob. */
function prefixFeasible(patterns: readonly SegmentPattern[], segments: readonly string[]): boolean {
	for (let i = 0; i < segments.length; i++) {
		const pattern = patterns[i];
		// A glob that ends here names the folder itself, or a file beside it: nothing inside.
		if (pattern === undefined) return false;
		if (pattern.kind === "any-depth") return true;
		if (!segmentMatches(pattern.chunks, segments[i]!)) return false;
	}
	return patterns.length > segments.length;
}

/** How a rule reads in a sentence: `the read glob "Projects/**"`, or that no read glob matches. */
export function describeRule(scope: KeyScope, rule: ScopeRule): string {
	if (rule.pattern === null) return `no glob of its read list (${JSON.stringify(scope.lists.read)}) matches it`;
	return `it matches the ${rule.field} glob ${JSON.stringify(rule.pattern)}`;
}
