/**
 * resources/read: a note exactly as read_note serves it (the read counts as this session's read: a merge base, the
 * start of the read validity window, the implicit revision of a tokenless write), with its revision in `_meta`; or
 * a conflict record as JSON, with links to the note and the .bak.
 */
import { conflictForAgents } from "../../service/conflicts/conflict-view";
import { ErrorCode, McpError, type ReadResourceResult } from "../protocol/types";
import { validateVaultPath } from "../../core/path";
import type { AgentActor } from "../../service/notes/actor";
import type { AgentNotes } from "../../service/notes/agent-notes";
import { conflictUri, noteMimeType, noteUri, parseResourceUri } from "./uris";
import { OPENAPI_SPEC_URI, readOpenApiSpec } from "./openapi-spec";

export async function readResource(notes: AgentNotes, actor: AgentActor, uri: string): Promise<ReadResourceResult> {
	if (uri === OPENAPI_SPEC_URI) return readOpenApiSpec();
	const target = parseResourceUri(uri);
	switch (target.kind) {
		case "note":
			return readNote(notes, actor, uri, target.path);
		case "conflict":
			return readConflict(notes, actor, uri, target.id);
		case "unknown":
			throw notFound(
				uri,
				`Unknown resource ${JSON.stringify(uri)}: this server serves revision-guard://note/<path>, ` +
					`revision-guard://conflict/<id> and ${OPENAPI_SPEC_URI}. Call resources/list for the notes.`,
			);
	}
}

async function readNote(notes: AgentNotes, actor: AgentActor, uri: string, path: string): Promise<ReadResourceResult> {
	const checked = validateVaultPath(path, notes.pathPolicy(), "note");
	if (!checked.ok) throw notFound(uri, `Invalid note path ${JSON.stringify(path)}: ${checked.reason}`);
	const read = await notes.read(actor, checked.path);
	if (read.kind !== "read")
		throw notFound(
			uri,
			`There is no note at ${JSON.stringify(checked.path)}. Call resources/list for the notes there are.`,
		);
	return {
		contents: [
			{
				uri: noteUri(read.path),
				mimeType: noteMimeType(read.path),
				text: read.content,
				_meta: { path: read.path, revision: read.revision },
			},
		],
	};
}

function readConflict(notes: AgentNotes, actor: AgentActor, uri: string, id: string): ReadResourceResult {
	const record = notes.conflict(actor, id);
	if (!record)
		throw notFound(
			uri,
			`There is no conflict ${JSON.stringify(id)}. Its id is the conflictId a refused write reported.`,
		);
	const links = {
		noteUri: noteUri(record.path),
		...(record.backupPath ? { backupUri: noteUri(record.backupPath) } : {}),
	};
	return {
		contents: [
			{
				uri: conflictUri(record.id),
				mimeType: "application/json",
				text: JSON.stringify({ ...conflictForAgents(record), ...links }),
			},
		],
	};
}

/**
 * The SDK's own code for an unknown resource (Invalid params, which the 2026 specification adopts for "resource
 * not found"), with the URI as data.
 */
function notFound(uri: string, message: string): McpError {
	return new McpError(ErrorCode.InvalidParams, message, { uri });
}
