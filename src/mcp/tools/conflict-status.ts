/** conflict_status: one conflict record, optionally waiting (long-poll, up to 60 s) until its status changes. */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { CONFLICT_REASONS, type ConflictReason } from "../../core/conflicts";
import { MAX_WAIT_MS } from "../../service/conflicts/conflict-waits";
import { READS } from "./annotations";
import { conflictForAgents } from "../../service/conflicts/conflict-view";
import type { ToolContext } from "./context";
import { toolError, guarded, ok } from "./context";

export const MAX_WAIT_SECONDS = MAX_WAIT_MS / 1000;

export const CONFLICT_STATUS_DESCRIPTION =
	"Look up a conflict: the record a refused write created (its id is in the refusal " +
	"as conflictId). `status` is open, resolved or dismissed; " +
	(`once resolved, resolvedRevision and agentTaken say what the person kept. With wait ` +
		`(seconds, up to ${MAX_WAIT_SECONDS}), the call returns as `) +
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
				wait: z
					.number()
					.min(0)
					.max(MAX_WAIT_SECONDS)
					.optional()
					.describe("Seconds to wait for the status to change (long-poll)."),
			},
			outputSchema: {
				id: z.string(),
				path: z.string(),
				reason: z.enum(CONFLICT_REASONS as [ConflictReason, ...ConflictReason[]]),
				source: z
					.enum(["outside"])
					.optional()
					.describe("outside: another program saved the file directly; nothing was refused."),
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
			annotations: READS,
		},
		({ id, wait }, extra) =>
			guarded(context, async () => {
				const record = context.notes.conflict(context.actor(), id);
				if (!record)
					return toolError(
						`There is no conflict ${JSON.stringify(id)}. Its id is the conflictId a refused write reported.`,
					);
				// Counted per key, across its sessions: one key cannot take every slot by opening more sessions.
				const outcome = await context.notes.awaitConflictStatus(record, (wait ?? 0) * 1000, context.key, extra.signal);
				if (outcome.kind === "too-many") {
					return toolError(
						`Not waited: ${outcome.who === "caller" ? "this key already has" : "the server already has"} ` +
							`as many long-polls under way as it allows. Retry in ${outcome.retryAfterSeconds} ` +
							`s, or call without wait.`,
						{ error: "too-many-waits", retryAfterSeconds: outcome.retryAfterSeconds },
					);
				}
				return ok({ ...conflictForAgents(outcome.record) });
			}),
	);
}
