/**
 * A change that waits for the person (the key may only propose changes to the note): not an error, since nothing
 * went wrong, but not a write either. The answer says so first, then how to follow it with proposal_status.
 */
import type { CallToolResult } from "../protocol/types";
import { z } from "../schema";
import type { WriteOutcome } from "../../service/write/guarded-writer";

type Proposed = Extract<WriteOutcome, { kind: "proposed" }>;

/** The output schema fields a tool that may propose adds (its own `revision` then becomes optional). */
export const PROPOSAL_OUTPUT = {
	proposalId: z
		.string()
		.optional()
		.describe(
			"Set when the change was not written but waits for the person as a proposal: follow it with proposal_status.",
		),
	status: z.literal("pending").optional().describe("With proposalId: the person has not decided yet."),
	backupPath: z
		.string()
		.optional()
		.describe("With proposalId: where the proposed text is kept, byte for byte, until the person decides."),
};

export function proposalFacts(outcome: Proposed): {
	path: string;
	proposalId: string;
	status: "pending";
	backupPath: string;
} {
	return { path: outcome.path, proposalId: outcome.id, status: "pending", backupPath: outcome.backupPath };
}

/** The words every tool set uses for a proposal (our tools' and the Local REST API's). */
export function proposalSentence(outcome: Proposed): string {
	return (
		`Not written yet: this key may only propose changes to ${JSON.stringify(outcome.path)}, ` +
		`so your change waits for the person as proposal ${outcome.id}, ` +
		(`kept byte for byte in ${JSON.stringify(outcome.backupPath)}. The note stays as it ` +
			`is until they decide. Call proposal_status {"id":${JSON.stringify(outcome.id)}} `) +
		("(with wait, in seconds, to wait for the decision) to learn whether they accepted " +
			"it as sent, accepted it with their own edits, or rejected it, with their note.")
	);
}

/** Our tools' answer: the sentence first, then the facts as structure (they fit the tool's output schema). */
export function proposedResult(outcome: Proposed): CallToolResult {
	const facts = proposalFacts(outcome);
	return {
		content: [
			{ type: "text", text: proposalSentence(outcome) },
			{ type: "text", text: JSON.stringify(facts) },
		],
		structuredContent: facts,
	};
}
