/**
 * Answers in the Local REST API 5.1's MCP shape: one text item holding the value (a string as it is, anything else as
 * indented JSON), no structured content; an error is a text item with `isError`. Our tools' answers are richer; these
 * keep the shape scripts written for that server parse.
 */
import type { CallToolResult } from "../protocol/types";
import { ToolFailure } from "../tools/context";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { proposalFacts, proposalSentence } from "../tools/proposed";

export function lraText(value: unknown): CallToolResult {
	return { content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value, null, 2) }] };
}

/** The Local REST API's success answer to a write: `{"message": "OK"}`, with anything we add beside it. */
export function lraOk(extra: Record<string, unknown> = {}): CallToolResult {
	return lraText({ message: "OK", ...extra });
}

/** A change that waits for the person (a proposal): not an error; what it is, and how to follow it, then its facts. */
export function lraProposed(outcome: Extract<WriteOutcome, { kind: "proposed" }>): CallToolResult {
	return {
		content: [
			{ type: "text", text: proposalSentence(outcome) },
			{ type: "text", text: JSON.stringify({ message: "Proposed", ...proposalFacts(outcome) }) },
		],
	};
}

/** An error whose text leads with what happened and what to do next (clients show its start only). */
export function lraError(text: string, facts?: Record<string, unknown>): CallToolResult {
	const content: CallToolResult["content"] = [{ type: "text", text }];
	if (facts) content.push({ type: "text", text: JSON.stringify(facts) });
	return { isError: true, content };
}

/** Stops a tool body with an error answer (answered by `guarded`, as our tools' failures are). */
export function stop(text: string, facts?: Record<string, unknown>): never {
	throw new ToolFailure(lraError(text, facts));
}
