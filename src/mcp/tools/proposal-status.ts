/**
 * proposal_status: one of the key's own proposals (a change to a note it may only propose to), optionally waiting
 * (long-poll, up to 60 s) until the person decides. Another key's proposal is as unknown as one that never existed.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { PROPOSAL_STATUSES } from "../../core/proposals";
import { MAX_WAIT_MS } from "../../service/conflicts/conflict-waits";
import { proposalForAgents } from "../../service/proposals/proposal-view";
import { READS } from "./annotations";
import type { ToolContext } from "./context";
import { toolError, guarded, ok } from "./context";

const MAX_WAIT_SECONDS = MAX_WAIT_MS / 1000;

export const PROPOSAL_STATUS_DESCRIPTION =
	"Look up a proposal: a change to a note your key may only propose to waits for the " +
	"person instead of being written (its id is the proposalId your write was answered with). " +
	("`status` is pending, accepted (written as you sent it), accepted-with-edits (the " +
		"person changed it first) or rejected (nothing written); `note` is the person's note to you. ") +
	(`With wait (seconds, up to ${MAX_WAIT_SECONDS}), the call returns as soon as the ` +
		`person decides, or when the time is up; keep wait below your client's request timeout. `) +
	"Read the note again before changing it further.";

const statuses = PROPOSAL_STATUSES as unknown as readonly [string, ...string[]];

export function registerProposalStatus(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"proposal_status",
		{
			title: "Proposal status",
			description: PROPOSAL_STATUS_DESCRIPTION,
			inputSchema: {
				id: z.string().min(1).describe("The proposalId your write was answered with."),
				wait: z
					.number()
					.min(0)
					.max(MAX_WAIT_SECONDS)
					.optional()
					.describe("Seconds to wait for the person's decision (long-poll)."),
			},
			outputSchema: {
				id: z.string(),
				path: z.string(),
				agent: z.string(),
				time: z.string(),
				operation: z.enum(["replace", "append", "patch", "edit"]),
				baseRevision: z.string().nullable(),
				proposedRevision: z.string(),
				backupPath: z.string().describe("The .bak note holding the proposed text, byte for byte."),
				status: z.enum(statuses),
				decidedAt: z.string().optional(),
				note: z.string().optional().describe("The person's note to you."),
				acceptedRevision: z.string().optional(),
			},
			annotations: READS,
		},
		({ id, wait }, extra) =>
			guarded(context, async () => {
				const record = context.notes.proposals.getFor(context.actor(), id);
				if (!record)
					return toolError(
						`Your key has no proposal ${JSON.stringify(id.slice(0, 100))}. Its id is the proposalId ` +
							`your write was answered with; another key's proposals are not shown.`,
						{ error: "proposal-not-found" },
					);
				// Counted per key, across its sessions, together with its waits on conflicts.
				const outcome = await context.notes.proposals.awaitDecision(
					record,
					(wait ?? 0) * 1000,
					context.key,
					extra.signal,
				);
				if (outcome.kind === "too-many") {
					return toolError(
						`Not waited: ${outcome.who === "caller" ? "this key already has" : "the server already has"} ` +
							`as many long-polls under way as it allows. Retry in ${outcome.retryAfterSeconds} ` +
							`s, or call without wait.`,
						{ error: "too-many-waits", retryAfterSeconds: outcome.retryAfterSeconds },
					);
				}
				return ok({ ...proposalForAgents(outcome.record) });
			}),
	);
}
