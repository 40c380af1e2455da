/**
 * resources/list: every note the tools would serve (list_notes' path policy; .bak notes included, read-only), in
 * path order, a bounded page at a time. The cursor names the last note of the page, so notes created or deleted
 * between pages neither repeat nor shift what follows. Listing is not reading. The first page also lists the OpenAPI
 * document (openapi-spec.ts), first.
 */
import { ErrorCode, McpError, type ListResourcesResult, type Resource } from "../protocol/types";
import { isBackupPath } from "../../core/conflicts";
import type { AgentNotes } from "../../service/notes/agent-notes";
import type { AgentActor } from "../../service/notes/actor";
import { noteMimeType, noteUri } from "./uris";
import { OPENAPI_SPEC_RESOURCE } from "./openapi-spec";

/** Notes per page. */
export const PAGE_SIZE = 100;
/** A page stops early past this many characters of URIs and names (long, non-ASCII paths encode long). */
const PAGE_CHARS = 200_000;
const CURSOR_PREFIX = "after:";

export async function listNoteResources(
	notes: AgentNotes,
	actor: AgentActor,
	cursor: string | undefined,
): Promise<ListResourcesResult> {
	const after = cursor === undefined ? null : parseCursor(cursor);
	// The first page opens with the OpenAPI document (openapi-spec.ts), in place of one note.
	const resources: Resource[] = after === null ? [OPENAPI_SPEC_RESOURCE] : [];
	const page = await notes.notePage(actor, after, PAGE_SIZE - resources.length);
	const backupFolder = notes.settings().backupFolder;
	let chars = 0;
	let last: string | null = null;
	let listed = 0;
	for (const { path, stat } of page.notes) {
		const uri = noteUri(path);
		chars += uri.length + path.length;
		if (last !== null && chars > PAGE_CHARS) break;
		const backup = isBackupPath(path, backupFolder);
		resources.push({
			uri,
			name: path,
			mimeType: noteMimeType(path),
			...(backup ? { description: "An agent's refused write, kept byte for byte (read-only for agents)." } : {}),
			...(stat ? { size: stat.size, annotations: { lastModified: new Date(stat.mtime).toISOString() } } : {}),
		});
		last = path;
		listed++;
	}
	const more = page.more || listed < page.notes.length;
	return { resources, ...(more && last !== null ? { nextCursor: cursorAfter(last) } : {}) };
}

function cursorAfter(path: string): string {
	return Buffer.from(CURSOR_PREFIX + path, "utf8").toString("base64url");
}

function parseCursor(cursor: string): string {
	const decoded = Buffer.from(cursor, "base64url").toString("utf8");
	if (!decoded.startsWith(CURSOR_PREFIX) || cursorAfter(decoded.slice(CURSOR_PREFIX.length)) !== cursor) {
		throw new McpError(
			ErrorCode.InvalidParams,
			"Invalid cursor: pass nextCursor exactly as the previous resources/list returned " +
				"it, or omit it to start from the first note.",
		);
	}
	return decoded.slice(CURSOR_PREFIX.length);
}
