/**
 * Our resource URIs: `revision-guard://note/<path>` for a note (each path segment percent-encoded, the slashes kept)
 * and `revision-guard://conflict/<id>` for a conflict record. A scheme of our own, so no client mistakes a note for
 * a file it could open itself, bypassing the guard.
 */

export const NOTE_PREFIX = "revision-guard://note/";
export const CONFLICT_PREFIX = "revision-guard://conflict/";

/** RFC 6570 templates, as resources/templates/list announces them (`+` keeps the path's slashes). */
export const NOTE_TEMPLATE = "revision-guard://note/{+path}";
export const CONFLICT_TEMPLATE = "revision-guard://conflict/{id}";

export type ParsedUri = { kind: "note"; path: string } | { kind: "conflict"; id: string } | { kind: "unknown" };

export function noteUri(path: string): string {
	return NOTE_PREFIX + path.split("/").map(encodeURIComponent).join("/");
}

export function conflictUri(id: string): string {
	return CONFLICT_PREFIX + encodeURIComponent(id);
}

/** What a URI names; the path is still to be checked against the path policy, as any tool's path is. */
export function parseResourceUri(uri: string): ParsedUri {
	try {
		if (uri.startsWith(NOTE_PREFIX))
			return { kind: "note", path: uri.slice(NOTE_PREFIX.length).split("/").map(decodeURIComponent).join("/") };
		if (uri.startsWith(CONFLICT_PREFIX))
			return { kind: "conflict", id: decodeURIComponent(uri.slice(CONFLICT_PREFIX.length)) };
	} catch {
		// A malformed percent-escape names nothing.
	}
	return { kind: "unknown" };
}

/** Markdown for .md notes; other served types (settings may add some) as plain text. */
export function noteMimeType(path: string): string {
	return path.toLowerCase().endsWith(".md") ? "text/markdown" : "text/plain";
}
