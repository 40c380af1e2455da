/** GET/HEAD /vault/{path}: a note with its revision token, or a folder listing with each note's revision. */
import { readFrontmatter } from "../../core/frontmatter";
import { etagOf, parseEntityTagCondition, revisionOf, weakMatch } from "../../core/revision";
import { noteTags } from "../../core/tags";
import { listFolder } from "../../service/folder-listing";
import { problem } from "../problems";
import { json, type ApiResponse } from "../response";
import type { RequestContext } from "../router";
import { resolvePath } from "./note-path";

export const NOTE_JSON_TYPES = ["application/vnd.olrapi.note+json", "application/json"];

export async function readVault(context: RequestContext): Promise<ApiResponse> {
	if (context.rest === "" || context.rest.endsWith("/")) return listFolderRoute(context);
	return readNote(context);
}

async function readNote(context: RequestContext): Promise<ApiResponse> {
	const resolved = resolvePath(context, "note");
	if (!resolved.ok) return resolved.response;
	const { tracker, gateway } = context.guard;
	const snapshot = await gateway.read(resolved.path);
	if (!snapshot) return problem("note-not-found", `There is no note at "${resolved.path}". To create it, PUT it without If-Match.`);
	const head = context.method === "HEAD";
	const current = revisionOf(snapshot.content);
	const headers = {
		ETag: etagOf(current),
		"Last-Modified": new Date(snapshot.stat.mtime).toUTCString(),
		"Cache-Control": "no-store",
	};
	// Only a read that showed the content counts as having read it: not a HEAD, and not a 304.
	const ifNoneMatch = parseEntityTagCondition(headersValue(context, "if-none-match"));
	if (ifNoneMatch.kind === "any" || weakMatch(ifNoneMatch, current)) return { status: 304, headers };
	const revision = head ? current : await tracker.served(snapshot, current);
	// What this client has seen is its implicit token if it later writes without If-Match.
	if (!head && context.client) context.guard.reads.record(context.client, snapshot.path, revision, context.guard.now());
	const accept = headersValue(context, "accept") ?? "";
	const wantsJson = NOTE_JSON_TYPES.some((type) => accept.includes(type));
	if (wantsJson) {
		const frontmatter = readFrontmatter(snapshot.content);
		const body = {
			path: snapshot.path,
			content: snapshot.content,
			revision,
			stat: { ...snapshot.stat },
			frontmatter: frontmatter.data === null ? null : toJson(frontmatter.data),
			tags: noteTags(snapshot.content),
			...(frontmatter.warning ? { warnings: [`${frontmatter.warning} It is served as null; the note's content is unaffected.`] } : {}),
		};
		const contentType = accept.includes(NOTE_JSON_TYPES[0]!) ? `${NOTE_JSON_TYPES[0]!}; charset=utf-8` : "application/json; charset=utf-8";
		return { ...json(200, body, headers), contentType, omitBody: head };
	}
	return { status: 200, headers, body: snapshot.content, contentType: "text/markdown; charset=utf-8", omitBody: head };
}

async function listFolderRoute(context: RequestContext): Promise<ApiResponse> {
	const resolved = resolvePath(context, "folder");
	if (!resolved.ok) return resolved.response;
	const listed = await listFolder(context.guard, resolved.path);
	if (!listed) return problem("note-not-found", `There is no folder at "${resolved.path}/".`);
	const entries = listed.map(({ name, path, type, revision, unreadable, stat }) => ({ name, path, type, revision, unreadable, size: stat?.size, mtime: stat?.mtime }));
	// `files` keeps the Local REST API shape (names, folders ending in "/"); `entries` adds revisions.
	return json(200, { files: entries.map((entry) => entry.name), entries }, { "Cache-Control": "no-store" });
}

function headersValue(context: RequestContext, name: string): string | undefined {
	const value = context.headers[name];
	return Array.isArray(value) ? value.join(", ") : value;
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
