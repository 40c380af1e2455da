/**
 * Asking the person after a stale write, the 2026-07-28 way (Multi Round-Trip Requests). A client that declared form
 * elicitation gets, instead of the refusal, an InputRequiredResult holding the same question a 2025 session is asked
 * (elicitation/: merge, keep, take, open the merge view) and a sealed requestState (request-state.ts). Its retry, with
 * the person's answer in inputResponses, is carried out as the 2025 path carries it out: through the guarded writer,
 * as the person, replacing only the revision the person was asked about. Nothing is held between the two requests.
 */
import type { CallToolResult } from "../protocol/types";
import type { ConflictRecord } from "../../core/conflicts";
import type { RefusalCode } from "../../core/refusal-codes";
import { keptSentence, staleSentence } from "../../core/refusal-wording";
import { revisionOf } from "../../core/revision";
import type { AgentActor } from "../../service/notes/actor";
import type { AgentNotes } from "../../service/notes/agent-notes";
import { currentFields } from "../../service/refusals/stale-facts";
import { answerWithPersonOutcome, type RefusalView } from "../elicitation/answers";
import {
	askable,
	carryOutChoice,
	questionFor,
	type PersonOutcome,
	type PersonQuestion,
	type RefusedWrite,
} from "../elicitation/ask-person";
import type { PersonChoice } from "../elicitation/choice-form";
import { refusalLinks } from "../resources/links";
import { toolError } from "../tools/context";
import { argumentsDigest, type RequestStates, type SealedState } from "./request-state";

/** The key of our one question in inputRequests (and of its answer in inputResponses). */
export const CHOICE_INPUT = "person_choice";

export interface Asking {
	notes: AgentNotes;
	owner: string;
	/** The key's name, as the person knows it. */
	agent: () => string;
	actor: () => AgentActor;
}

/** Whether a client may be sent a form elicitation: it declared elicitation, and form mode (an empty object means form). */
export function elicitsForms(capabilities: Record<string, unknown>): boolean {
	const elicitation = capabilities.elicitation;
	if (typeof elicitation !== "object" || elicitation === null || Array.isArray(elicitation)) return false;
	const modes = elicitation as Record<string, unknown>;
	return modes.form !== undefined || modes.url === undefined;
}

/** The question one tools/call's refused write raised, caught in place of asking (the call answers it instead). */
export class QuestionCatcher {
	caught: { path: string; record: ConflictRecord; question: PersonQuestion } | null = null;

	constructor(private readonly asking: Asking) {}

	readonly askPerson = async (path: string, outcome: RefusedWrite): Promise<PersonOutcome> => {
		if (this.caught === null && askable(outcome) && outcome.conflict) {
			const question = await questionFor(this.asking, path, outcome.conflict);
			if (question !== null) this.caught = { path, record: outcome.conflict, question };
		}
		// The refusal is built as for a client that cannot be asked; the endpoint sends the question instead of it.
		return { kind: "not-asked" };
	};
}

export type RetryAnswer =
	| { kind: "complete"; result: CallToolResult }
	| { kind: "input-required"; result: Record<string, unknown> }
	| { kind: "refused"; message: string };

export class PersonQuestions {
	/** Conflicts whose answer is being carried out: a second retry meanwhile (the state sent twice) acts on nothing. */
	private readonly deciding = new Set<string>();

	constructor(private readonly states: RequestStates) {}

	/** The InputRequiredResult for a caught question (resultType and all). */
	inputRequired(
		caught: NonNullable<QuestionCatcher["caught"]>,
		owner: string,
		tool: string,
		args: unknown,
	): Record<string, unknown> {
		const { path, record, question } = caught;
		const requestState = this.states.seal({
			owner,
			tool,
			arguments: argumentsDigest(args),
			path,
			conflictId: record.id,
			sentRevision: record.sentRevision,
			currentRevision: question.merge.sides.mineRevision!,
			proposedRevision: record.proposedRevision,
			choices: question.form.choices,
		});
		return ask(question, requestState);
	}

	/** A tools/call carrying requestState: the person's answer to the question it seals, carried out (or asked again). */
	async retry(params: Record<string, unknown>, asking: Asking): Promise<RetryAnswer> {
		const { requestState, inputResponses, name } = params;
		if (typeof requestState !== "string") return refused("requestState must be the string an InputRequiredResult gave");
		const opened = this.states.open(requestState, {
			owner: asking.owner,
			tool: String(name),
			arguments: argumentsDigest(params.arguments ?? {}),
		});
		if (!opened.ok) return refused(UNSEALED[opened.why]);
		const state = opened.state;
		const record = asking.notes.conflict(asking.actor(), state.conflictId);
		if (
			record &&
			(record.path !== state.path ||
				record.proposedRevision !== state.proposedRevision ||
				record.sentRevision !== state.sentRevision)
		) {
			return refused(UNSEALED["other-call"]);
		}
		const answer = responseOf(inputResponses);
		if (answer === null) {
			// No answer to our question: ask it again (over the same sealed state), while there is still something to choose.
			const question = record?.status === "open" ? await questionFor(asking, state.path, record) : null;
			if (question !== null && question.merge.sides.mineRevision === state.currentRevision)
				return { kind: "input-required", result: ask(question, requestState) };
		}
		if (this.deciding.has(state.conflictId))
			return {
				kind: "complete",
				result: answered({ kind: "settled", status: "being decided by another answer" }, state, record),
			};
		this.deciding.add(state.conflictId);
		try {
			const person = await this.decide(answer, state, asking, record);
			return {
				kind: "complete",
				result: answered(person, state, asking.notes.conflict(asking.actor(), state.conflictId) ?? record),
			};
		} finally {
			this.deciding.delete(state.conflictId);
		}
	}

	private async decide(
		answer: ElicitAnswer | null,
		state: SealedState,
		asking: Asking,
		record: ConflictRecord | undefined,
	): Promise<PersonOutcome> {
		if (answer === null)
			return record?.status === "open"
				? { kind: "no-answer", why: "failed" }
				: { kind: "settled", status: record?.status ?? "gone" };
		if (answer.action === "decline") return { kind: "no-answer", why: "declined" };
		if (answer.action === "cancel") return { kind: "no-answer", why: "cancelled" };
		const choice = answer.content?.choice;
		// Only a choice that was offered, as sealed: a client cannot add "merge" to overlapping changes, or "open" headless.
		if (typeof choice !== "string" || !(state.choices as string[]).includes(choice))
			return { kind: "no-answer", why: "failed" };
		if (!record || record.status !== "open") return { kind: "settled", status: record?.status ?? "gone" };
		const merge = await asking.notes.conflictMerge(asking.actor(), state.conflictId, false);
		if (!merge) return { kind: "settled", status: "gone" };
		const chosen = choice as PersonChoice;
		if (chosen === "merge" || chosen === "take") {
			// The note moved on since the person was asked: their choice was about another note, so nothing is written.
			if (merge.sides.mineRevision !== state.currentRevision) return { kind: "moved-on", choice: chosen };
			if (merge.sides.theirs === null || revisionOf(merge.sides.theirs) !== state.proposedRevision)
				return { kind: "no-answer", why: "failed" };
			if (chosen === "merge" && !merge.result.clean) return { kind: "no-answer", why: "failed" };
		}
		return carryOutChoice(asking, state.conflictId, chosen, merge);
	}
}

const UNSEALED = {
	unverified:
		"requestState failed verification: it was changed, or it was not issued by this server " +
		"(a restart forgets every state it issued)",
	expired: "requestState has expired: the person was asked too long ago",
	"other-caller": "requestState was issued to another key",
	"other-call":
		"requestState belongs to another call: retry exactly the call it was issued for (the same tool and arguments)",
} as const;

function refused(why: string): RetryAnswer {
	return {
		kind: "refused",
		message:
			`Invalid params: ${why}. Nothing was written. To write again, call the tool without ` +
			`requestState and inputResponses.`,
	};
}

function ask(question: PersonQuestion, requestState: string): Record<string, unknown> {
	return {
		resultType: "input_required",
		inputRequests: {
			[CHOICE_INPUT]: { method: "elicitation/create", params: { mode: "form", ...question.form.params } },
		},
		requestState,
	};
}

interface ElicitAnswer {
	action: "accept" | "decline" | "cancel";
	content?: Record<string, unknown>;
}

function responseOf(inputResponses: unknown): ElicitAnswer | null {
	if (typeof inputResponses !== "object" || inputResponses === null) return null;
	const answer = (inputResponses as Record<string, unknown>)[CHOICE_INPUT];
	if (typeof answer !== "object" || answer === null) return null;
	const { action, content } = answer as Record<string, unknown>;
	if (action !== "accept" && action !== "decline" && action !== "cancel") return null;
	return {
		action,
		...(typeof content === "object" && content !== null && !Array.isArray(content)
			? { content: content as Record<string, unknown> }
			: {}),
	};
}

/** The retry's tool result: the person's outcome over the refusal as it stood when the person was asked. */
function answered(person: PersonOutcome, state: SealedState, record: ConflictRecord | undefined): CallToolResult {
	const quoted = JSON.stringify(state.path);
	// The agent has not seen the note since it was refused: its revision is handed as a change tag, never a token.
	const view: RefusalView = { conflict: record ?? null, currentRevision: state.currentRevision, currentSight: "none" };
	const kept = keptSentence(
		record ? { backupPath: record.backupPath, backupError: null, recordError: null } : null,
		JSON.stringify,
		record ? `conflict ${record.id}; follow it with conflict_status` : "",
	);
	const prose =
		`Refused: ${staleSentence(quoted, "written")}${kept} Next: read the note again, re-apply ` +
		`your change to what it returns, then call ${state.tool} again with the revision that read returns.`;
	const facts = {
		error: "stale-revision" satisfies RefusalCode,
		path: state.path,
		...currentFields(view),
		...(record ? { conflictId: record.id, backupPath: record.backupPath } : {}),
	};
	const plain = toolError(prose, facts);
	return answerWithPersonOutcome(
		{ ...plain, content: [...plain.content, ...refusalLinks(state.path, view)] },
		person,
		state.path,
		view,
	);
}
