/** conflict_status: one conflict record, optionally waiting (long-poll, up to 60 s) until its status changes. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ConflictRecord } from "../../core/conflicts";
import type { ToolContext } from "./context";
import { fail, guarded, ok } from "./context";

export const MAX_WAIT_SECONDS = 60;

export const CONFLICT_STATUS_DESCRIPTION =
	"Look up a conflict: the record a refused write created (its id is in the refusal as conflictId). `status` is open, resolved or dismissed; " +
	`once resolved, resolvedRevision and agentTaken say what the person kept. With wait (seconds, up to ${MAX_WAIT_SECONDS}), the call returns as ` +
	"soon as the status changes, or when the time is up; keep wait below your client's request timeout.";

const nullableString = z.string().nullable();

export function registerConflictStatus(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"conflict_status",
		{
			title: "Conflict status",
			description: CONFLICT_STATUS_DESCRIPTION,
			inputSchema: {
				id: z.string().min(1).describe("The conflictId a refused write reported."),
				wait: z.number().min(0).max(MAX_WAIT_SECONDS).optional().describe("Seconds to wait for the status to change (long-poll)."),
			},
			outputSchema: {
				id: z.string(),
				path: z.string(),
				reason: z.enum(["stale", "exists", "read-expired", "content-loss"]),
				sentRevision: nullableString,
				currentRevision: nullableString,
				proposedRevision: z.string(),
				backupPath: nullableString.describe("Where the refused content was kept, byte for byte."),
				agent: z.string(),
				time: z.string(),
				status: z.enum(["open", "resolved", "dismissed"]),
				resolvedAt: z.string().optional(),
				resolvedRevision: z.string().optional(),
				agentTaken: z.enum(["whole", "partial", "none"]).optional(),
				resolvedBy: z.string().optional(),
			},
			annotations: { readOnlyHint: true },
		},
		({ id, wait }, extra) => guarded(context, async () => {
			const record = context.guard.conflicts.get(id);
			if (!record) return fail(`There is no conflict ${JSON.stringify(id)}. Its id is the conflictId a refused write reported.`);
			const settled = wait ? await statusChange(context, record, wait * 1000, extra.signal) : record;
			return ok({ ...settled });
		}),
	);
}

/** Resolves with the record once its status differs from what the caller saw, when `ms` runs out, or when the call is cancelled. */
function statusChange(context: ToolContext, record: ConflictRecord, ms: number, signal: AbortSignal): Promise<ConflictRecord> {
	const { conflicts, timers } = context.guard;
	const seen = record.status;
	return new Promise((resolve) => {
		const finish = () => {
			unsubscribe();
			timers.cancel(timer);
			signal.removeEventListener("abort", finish);
			resolve(conflicts.get(record.id) ?? record);
		};
		const unsubscribe = conflicts.onChange((changed) => {
			if (changed.id === record.id && changed.status !== seen) finish();
		});
		const timer = timers.schedule(finish, ms);
		signal.addEventListener("abort", finish);
		if (signal.aborted) finish();
	});
}
