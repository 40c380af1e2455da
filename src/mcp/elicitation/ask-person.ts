/**
 * Asking the person, in the agent's own client (MCP elicitation, form mode), what should happen after a stale write
 * was refused: merge both versions, keep the note, take the agent's version, or open the merge in Obsidian. The
 * choice is the person's, so it is written as the person, through the one guarded writer, against the revision the
 * person was asked about: a note that moved on meanwhile is never overwritten. Asked only when the client declared
 * form elicitation and listens for server requests; one question per session at a time; never waits forever.
 */
import type { McpServer } from "../protocol/server";
import { ErrorCode, McpError } from "../protocol/types";
import type { AgentNotes, ConflictMerge } from "../../service/notes/agent-notes";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { formProblem } from "./form-validator";
import { choiceForm, type ChoiceForm, type PersonChoice } from "./choice-form";
import type { AgentActor } from "../../service/notes/actor";
import type { ConflictRecord } from "../../core/conflicts";

export type RefusedWrite = Extract<WriteOutcome, { kind: "refused" }>;

export type PersonOutcome =
	/** Not asked: the client cannot be asked, or this refusal is not one a person can settle here. */
	| { kind: "not-asked" }
	| { kind: "no-answer"; why: "declined" | "cancelled" | "timed-out" | "failed" }
	| { kind: "merged" | "taken"; revision: string }
	| { kind: "kept" }
	| { kind: "opened" }
	/** The person chose to write, but the note changed again meanwhile (or the conflict was settled): nothing was written. */
	| { kind: "moved-on"; choice: "merge" | "take" }
	| { kind: "settled"; status: string };

/** The agent's client waits for the tool result meanwhile: stay under the MCP SDK client's default request timeout (60 s). */
export const DEFAULT_ASK_TIMEOUT_MS = 50_000;

export interface AskPersonDeps {
	notes: AgentNotes;
	/** The session's server, to send elicitation/create through. */
	server: () => McpServer;
	/** The agent's name, as the person knows it (the key's name). */
	agent: () => string;
	/** The session's caller: the conflict is looked up as it may see it (its key's scope). */
	actor: () => AgentActor;
	/** True while the client holds its stream for server requests open (without it a question would be lost). */
	listening: () => boolean;
	timeoutMs?: number;
	onError?: (error: unknown) => void;
}

export class PersonAsker {
	private asking = false;

	constructor(private readonly deps: AskPersonDeps) {}

	async ask(path: string, outcome: RefusedWrite): Promise<PersonOutcome> {
		const server = this.deps.server();
		if (
			!askable(outcome) ||
			!server.getClientCapabilities()?.elicitation?.form ||
			!this.deps.listening() ||
			this.asking
		)
			return { kind: "not-asked" };
		this.asking = true;
		try {
			const question = await questionFor(this.deps, path, outcome.conflict!);
			if (question === null) return { kind: "not-asked" };
			const choice = await this.question(server, question.form);
			if (typeof choice !== "string") return choice;
			return await carryOutChoice(this.deps, question.conflictId, choice, question.merge);
		} catch (error) {
			// Whatever went wrong here, the agent still gets its refusal (its content is already kept).
			this.deps.onError?.(error);
			return { kind: "no-answer", why: "failed" };
		} finally {
			this.asking = false;
		}
	}

	private async question(server: McpServer, form: ChoiceForm): Promise<PersonChoice | PersonOutcome> {
		try {
			const answer = await server.elicitInput(
				{ mode: "form", ...form.params },
				{
					timeout: this.deps.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS,
					validate: (content) => formProblem(form.params.requestedSchema, content),
				},
			);
			if (answer.action === "decline") return { kind: "no-answer", why: "declined" };
			if (answer.action === "cancel") return { kind: "no-answer", why: "cancelled" };
			return form.choiceOf(answer.content) ?? { kind: "no-answer", why: "failed" };
		} catch (error) {
			if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout))
				return { kind: "no-answer", why: "timed-out" };
			// The client refused the question or the session ended: the agent gets the plain refusal.
			if (!(error instanceof McpError)) this.deps.onError?.(error);
			return { kind: "no-answer", why: "failed" };
		}
	}
}

/** The question for a refused write, with what it was computed from; null when there is nothing a person could choose. */
export interface PersonQuestion {
	conflictId: string;
	merge: ConflictMerge;
	form: ChoiceForm;
}

export type QuestionDeps = Pick<AskPersonDeps, "notes" | "agent" | "actor">;

/** Only a stale write whose conflict is open, over a note that still exists, is put to the person. */
export function askable(outcome: RefusedWrite): boolean {
	const { refusal, conflict, currentRevision } = outcome;
	return (
		refusal.reason === "stale" &&
		currentRevision !== null &&
		conflict !== null &&
		conflict !== undefined &&
		conflict.status === "open"
	);
}

/**
 * What to ask about the open conflict of a refused write (both eras ask the same question, so the choices mean the
 * same); null when the agent's side is gone or the note no longer exists.
 */
export async function questionFor(
	deps: QuestionDeps,
	path: string,
	conflict: Pick<ConflictRecord, "id" | "backupPath">,
): Promise<PersonQuestion | null> {
	const merge = await deps.notes.conflictMerge(deps.actor(), conflict.id, false);
	if (!merge || merge.sides.theirs === null || merge.sides.mineRevision === null) return null;
	const form = choiceForm({
		agent: deps.agent(),
		path,
		backupPath: conflict.backupPath,
		canMerge: merge.result.clean,
		canOpen: deps.notes.mergeModal.canOpen(),
	});
	return { conflictId: conflict.id, merge, form };
}

/**
 * The person's choice carried out through the guarded writer, as the person, replacing exactly the revision `merge`
 * was computed against: a note that moved on meanwhile is never overwritten.
 */
export async function carryOutChoice(
	deps: Pick<AskPersonDeps, "notes" | "actor">,
	id: string,
	choice: PersonChoice,
	merge: ConflictMerge,
): Promise<PersonOutcome> {
	const { notes } = deps;
	// Settled while the person was choosing (in Obsidian, or by another write): that answer stands.
	const record = notes.conflict(deps.actor(), id);
	if (!record || record.status !== "open") return { kind: "settled", status: record?.status ?? "gone" };
	switch (choice) {
		case "keep":
			notes.dismissAsPerson(id);
			return { kind: "kept" };
		case "open":
			return notes.mergeModal.open(id) ? { kind: "opened" } : { kind: "no-answer", why: "failed" };
		case "merge":
		case "take": {
			const text = choice === "merge" ? merge.text : merge.sides.theirs!;
			const saved = await notes.resolveAsPerson(id, text, merge.sides.mineRevision);
			if (saved.kind === "saved") return { kind: choice === "merge" ? "merged" : "taken", revision: saved.revision };
			return { kind: "moved-on", choice };
		}
	}
}
