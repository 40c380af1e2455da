/**
 * Which parts of a note a JsonLogic query can look at, so a search builds only those: reading a note's content, its
 * links or every other note's links (for backlinks) costs far more than its path. A field counts as wanted when any
 * string in the query names it (`"frontmatter.status"` names frontmatter), and every field is when the query can
 * reach the whole note (`{"var": ""}`, or a `var` or `missing` whose path is computed; inside `map` and its kin,
 * `var` reads the item, not the note). So a query can only ever get more than it asked for, never less.
 */

export const NOTE_FIELDS = [
	"path",
	"content",
	"frontmatter",
	"tags",
	"stat",
	"links",
	"backlinks",
	"unresolvedLinks",
] as const;
export type NoteField = (typeof NOTE_FIELDS)[number];

export function fieldsWanted(query: unknown): ReadonlySet<NoteField> {
	const strings: string[] = [];
	if (reachesWholeNote(query, strings, 0)) return new Set(NOTE_FIELDS);
	return new Set(NOTE_FIELDS.filter((field) => strings.some((text) => text === field || text.startsWith(field + "."))));
}

const PATH_OPERATIONS = new Set(["var", "missing", "missing_some"]);
const SCOPED_OPERATIONS = new Set(["map", "filter", "reduce", "all", "some", "none"]);

/** Collects every string of the query; true when an operation can read any field of the note. */
function reachesWholeNote(node: unknown, strings: string[], depth: number): boolean {
	if (depth > 128) return true;
	if (typeof node === "string") {
		strings.push(node);
		return false;
	}
	if (Array.isArray(node)) return node.some((item) => reachesWholeNote(item, strings, depth + 1));
	if (typeof node !== "object" || node === null) return false;
	const entries: [string, unknown][] = Object.entries(node);
	if (entries.length === 1) {
		const [op, args] = entries[0]!;
		if (PATH_OPERATIONS.has(op) && !pathsAreLiteral(op, args)) return true;
		// The logic `map`, `filter`, `reduce`, `all`, `some` and `none` apply to each item sees that item, not the note.
		if (SCOPED_OPERATIONS.has(op) && Array.isArray(args))
			return args.some((arg, index) => index !== 1 && reachesWholeNote(arg, strings, depth + 1));
	}
	return entries.some(([key, value]) => {
		strings.push(key);
		return reachesWholeNote(value, strings, depth + 1);
	});
}

/** Whether the paths a `var`, `missing` or `missing_some` reads are all written out (and none is the whole note). */
function pathsAreLiteral(op: string, args: unknown): boolean {
	const list: unknown[] = Array.isArray(args) ? args : [args];
	const listed = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
	const paths = op === "var" ? [list[0]] : op === "missing_some" ? listed(list[1]) : list.flatMap(listed);
	return paths.every((path) => (typeof path === "string" && path !== "") || typeof path === "number");
}
