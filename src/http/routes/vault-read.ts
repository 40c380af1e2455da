/**
 * GET/HEAD /vault/{path}: a note with its revision token, or a folder listing with each note's change tag. The token
 * comes only with the content it names: a whole read hands the revision, a document map a part token (it can patch,
 * never replace or delete), HEAD, a 304 reached by a change tag, and listings only a change tag (core/revision-tokens).
 */
import { documentMap, flatDocumentMap } from "../../core/markdown/document-map";
import { readFrontmatter } from "../../core/markdown/frontmatter";
import { parseEntityTagCondition } from "../../core/revision";
import { changeTagOf, etagFor, partTokenOf } from "../../core/revision-tokens";
import { noteTags } from "../../core/tags";
import { problem } from "../problems";
import { json, type ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { headersValue } from "./headers";
import { resolvePath } from "./note-path";
import { readNotePart } from "./note-target";
import { DEPRECATION, patchVersion, servedAsFormat1 } from "./patch-version";
import { format1Target } from "./raw-patch";
import { htmlAnswer, wantsHtml } from "./note-html";

/**
 * The note as JSON, for a client that asks for it by name. `application/json` alone is not enough: axios and the n8n
 * node send it with every request (beside text/plain and any type) and expect the markdown, which is what Local REST
 * API 5.1 sends them: it serves JSON only for this type.
 */
export const NOTE_JSON_TYPE = "application/vnd.olrapi.note+json";
export const DOCUMENT_MAP_TYPE = "application/vnd.olrapi.document-map+json";

export async function readVault(context: RequestContext): Promise<ApiResponse> {
	patchVersion(context);
	if (context.rest === "" || context.rest.endsWith("/")) return listFolderRoute(context);
	return readNote(context);
}

async function readNote(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	const { version } = patchVersion(context);
	const part = format1Target(context);
	if (part) return servedAsFormat1(() => readNotePart(context, path, part));
	const head = context.method === "HEAD";
	const accept = headersValue(context, "accept") ?? "";
	const wantsMap = accept.includes(DOCUMENT_MAP_TYPE);
	const wantsJson = accept.includes(NOTE_JSON_TYPE);
	// A rendering shows the note but not its text: a read of part of it (note-html.ts).
	const html = !wantsMap && !wantsJson && wantsHtml(context);
	const read = await context.notes.read(actorOf(context), path, {
		head,
		part: wantsMap || html,
		ifNoneMatch: parseEntityTagCondition(headersValue(context, "if-none-match")),
	});
	if (read.kind === "missing")
		return problem("note-not-found", `There is no note at "${path}". To create it, PUT it without If-Match.`);
	const headers = {
		ETag: etagFor(read.revision, read.sight),
		"Last-Modified": new Date(read.stat.mtime).toUTCString(),
		"Cache-Control": "no-store",
	};
	if (read.kind === "not-modified") return { status: 304, headers };
	if (wantsMap) {
		// The map shows the note's structure, not its text: its `version` (the ETag's value) is a part token, which
		// patches what this map shows (as ifMatch or If-Match) but never replaces or deletes the whole note.
		const map =
			version === 1
				? { ...flatDocumentMap(read.content) }
				: { ...documentMap(read.content), version: partTokenOf(read.revision) };
		return {
			...json(200, map, { ...headers, ...(version === 1 ? DEPRECATION : {}) }),
			contentType: `${DOCUMENT_MAP_TYPE}; charset=utf-8`,
			omitBody: head,
		};
	}
	if (wantsJson) {
		const frontmatter = readFrontmatter(read.content);
		const body = {
			path: read.path,
			content: read.content,
			// Never sent for HEAD (which shows no content); built all the same so its Content-Length is GET's.
			revision: read.revision,
			stat: { ...read.stat },
			frontmatter: frontmatter.data === null ? null : toJson(frontmatter.data),
			tags: noteTags(read.content),
			// Where its links lead, as the Local REST API's note JSON has it (links, backlinks, unresolvedLinks).
			...(await context.notes.facts.links(actorOf(context), read.path, read.content)),
			...(frontmatter.warning
				? { warnings: [`${frontmatter.warning} It is served as null; the note's content is unaffected.`] }
				: {}),
		};
		return { ...json(200, body, headers), contentType: `${NOTE_JSON_TYPE}; charset=utf-8`, omitBody: head };
	}
	if (html) return htmlAnswer(context, read.path, read.content, headers);
	return { status: 200, headers, body: read.content, contentType: "text/markdown; charset=utf-8", omitBody: head };
}

async function listFolderRoute(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "folder");
	const listed = await context.notes.listFolder(actorOf(context), path);
	if (!listed) return problem("note-not-found", `There is no folder at "${path}/".`);
	// A listing shows no content: each note comes with its change tag (to see what changed), never a revision token.
	const entries = listed.map(({ name, path, type, revision, unreadable, stat }) => ({
		name,
		path,
		type,
		changeTag: revision === undefined ? undefined : changeTagOf(revision),
		unreadable,
		size: stat?.size,
		mtime: stat?.mtime,
	}));
	// `files` keeps the Local REST API shape (names, folders ending in "/"); `entries` adds change tags.
	return json(200, { files: entries.map((entry) => entry.name), entries }, { "Cache-Control": "no-store" });
}

/** Frontmatter can hold dates and other non-JSON values; send what JSON can carry. */
function toJson(value: Record<string, unknown>): { [key: string]: never } {
	try {
		return JSON.parse(JSON.stringify(value)) as { [key: string]: never };
	} catch {
		return {};
	}
}

export { headersValue };
