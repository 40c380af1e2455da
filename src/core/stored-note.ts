/**
 * A note's history as a line of the saved state (history.json) holds it: its JSON text, kept unparsed until the note
 * is first asked for more than a start-up asks of every note (whether it is there, and its file's identity), and saved
 * again as it was read while nothing changed it. Parsing tens of thousands of notes' histories, and collecting what
 * that makes, was most of what a start-up that changed nothing cost beyond looking at each file.
 */

/** A live note's saved history, not parsed. A class, so no parsed JSON can pass for one. */
export class StoredNote {
	constructor(
		readonly path: string,
		/** The note's JSON text, of the shape NOTE_LINE accepts. */
		readonly json: string,
	) {}
}

/*
 * A note's JSON as JSON.stringify writes a NoteHistory: path, entries, then deletedAt and identity when it has them;
 * each entry an object whose values are strings, numbers, true, false, null or objects of those (its source). Text
 * of this shape is valid JSON, so it can be kept and parsed later without fail.
 */
const STRING = String.raw`"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"`;
const NUMBER = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?`;
const SCALAR = `(?:${STRING}|${NUMBER}|true|false|null)`;
const KEY = `"[A-Za-z]+"`;
const FLAT_OBJECT = String.raw`\{(?:${KEY}:${SCALAR}(?:,${KEY}:${SCALAR})*)?\}`;
const VALUE = `(?:${SCALAR}|${FLAT_OBJECT})`;
const ENTRY = String.raw`\{(?:${KEY}:${VALUE}(?:,${KEY}:${VALUE})*)?\}`;
const NOTE_LINE = new RegExp(
	String.raw`^\{"path":${STRING},"entries":\[(?:${ENTRY}(?:,${ENTRY})*)?\](?:,"identity":${STRING})?\}$`,
);

/**
 * A live note's JSON kept unparsed, when it has the shape NOTE_LINE accepts; undefined for any other text (another
 * order of fields, a deleted note's, damage), which the caller parses instead.
 */
export function storedNote(json: string): StoredNote | undefined {
	if (!NOTE_LINE.test(json)) return undefined;
	// Within a JSON string every quote is escaped: the first `","entries":[` closes the path.
	return new StoredNote(stringAt(json, 8, json.indexOf('","entries":[', 8) + 1), json);
}

/** The identity in a stored note's JSON, if it has one. */
export function storedIdentity(json: string): string | undefined {
	// Present when the text ends in a string: entries end in `]`. Within a JSON string every quote is escaped, so the
	// last `,"identity":"` opens it (an entry's own field of that name comes before the entries' end).
	const end = json.length - 2;
	if (json.charCodeAt(end) !== QUOTE) return undefined;
	const start = json.lastIndexOf(',"identity":"') + 13;
	// Sliced once (a start-up asks this of every note); an escape in it is decoded.
	return json.indexOf("\\", start) === -1
		? json.slice(start, end)
		: (JSON.parse(json.slice(start - 1, end + 1)) as string);
}

const QUOTE = 34;

/** The JSON string literal json[start, end) (its quotes included), decoded. */
function stringAt(json: string, start: number, end: number): string {
	const literal = json.slice(start, end);
	return literal.includes("\\") ? (JSON.parse(literal) as string) : literal.slice(1, -1);
}
