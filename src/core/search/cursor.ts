/**
 * The cursor of a paged search: the rank key of the last hit served, bound to the query it belongs to (a hash of
 * the query and its options), so a cursor sent with another query is refused rather than misread. Opaque to
 * clients: base64url JSON.
 */
import { createHash } from "crypto";

/** A short fingerprint of everything that decides a search's hits and their order. */
export function searchScope(parts: readonly unknown[]): string {
	return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 16);
}

export function encodeCursor(scope: string, key: unknown): string {
	return Buffer.from(JSON.stringify([scope, key])).toString("base64url");
}

/** The key a cursor carries, or null when it is malformed or belongs to another search. */
export function decodeCursor<K>(scope: string, cursor: string, isKey: (value: unknown) => value is K): K | null {
	if (cursor.length > 4096) return null;
	try {
		const decoded: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
		if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== scope) return null;
		const key: unknown = decoded[1];
		return isKey(key) ? key : null;
	} catch {
		return null;
	}
}
