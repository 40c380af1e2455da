/**
 * The resource links a refused write's tool result carries (at most three): the .bak with the agent's content, the
 * conflict record, and the note as it is now. Each is readable through resources/read.
 */
import type { ResourceLink } from "../protocol/types";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { conflictUri, noteMimeType, noteUri } from "./uris";

export function refusalLinks(
	path: string,
	outcome: Pick<Extract<WriteOutcome, { kind: "refused" }>, "conflict" | "currentRevision">,
): ResourceLink[] {
	const { conflict, currentRevision } = outcome;
	if (!conflict) return [];
	const links: ResourceLink[] = [];
	if (conflict.backupPath) {
		links.push({
			type: "resource_link",
			uri: noteUri(conflict.backupPath),
			name: conflict.backupPath,
			mimeType: noteMimeType(conflict.backupPath),
			description: "Your refused content, kept byte for byte (read-only).",
		});
	}
	links.push({
		type: "resource_link",
		uri: conflictUri(conflict.id),
		name: `conflict ${conflict.id}`,
		mimeType: "application/json",
		description: "The conflict record: its status, the revisions involved, and how it was resolved.",
	});
	if (currentRevision !== null) {
		links.push({
			type: "resource_link",
			uri: noteUri(path),
			name: path,
			mimeType: noteMimeType(path),
			description: "The note as it is now; reading it counts as your read.",
		});
	}
	return links;
}
