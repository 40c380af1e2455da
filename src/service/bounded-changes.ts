/**
 * Diffs handed to agents (in a refusal, GET /changes, MCP's note_changes): computed in slices, so a diff of a 5 MB
 * note never stalls the host, and cut to the answer cap at a line (or hunk) boundary, with where the rest starts.
 */
import { pageOfLines, type Page } from "../core/diff/page";
import { unifiedDiffLines } from "../core/diff/unified";
import { finishInSlices, type YieldToHost } from "../core/steps";

export interface ChangesRequest {
	path: string;
	/** The revision the diff starts from, and its content. */
	from: { revision: string; content: string };
	to: string;
	/** The first line of the diff to send (0 for the start). */
	offset: number;
	maxBytes: number;
}

/** Unified diff from `from` to `to`, one page of it. Labels name the note and the starting revision, as git does. */
export async function boundedChanges(request: ChangesRequest, yieldToHost: YieldToHost): Promise<Page> {
	const { path, from, to } = request;
	const labels = { fromLabel: `a/${path}@${from.revision.slice(0, 12)}`, toLabel: `b/${path}` };
	const lines = await finishInSlices(unifiedDiffLines(from.content, to, labels), yieldToHost);
	return pageOfLines(lines, request.offset, request.maxBytes);
}

const KB = 1024;

/** The answer cap for diffs and merge previews, from the settings. */
export function diffCapBytes(settings: { maxDiffKB: number }): number {
	return Math.max(1, settings.maxDiffKB) * KB;
}
