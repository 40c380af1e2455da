/**
 * What the agent is told after the person was asked about its refused write. The call stays an error (the write as
 * sent did not land), but the prose leads with what the person decided and what to do next; the resource links of
 * the plain refusal are kept. When nobody chose, the plain refusal is sent, saying why nobody chose.
 */
import type { CallToolResult } from "../protocol/types";
import type { PersonOutcome, RefusedWrite } from "./ask-person";
import type { RefusalCode } from "../../core/refusal-codes";
import { changeTagOf } from "../../core/revision-tokens";
import { currentFields } from "../../service/refusals/stale-facts";

/** What an answer needs of the refused write: its conflict, and the note's revision then, as the agent may see it. */
export type RefusalView = Pick<RefusedWrite, "conflict" | "currentRevision" | "currentSight">;

export function answerWithPersonOutcome(
	plain: CallToolResult,
	person: PersonOutcome,
	path: string,
	outcome: RefusalView,
): CallToolResult {
	if (person.kind === "not-asked") return plain;
	const quoted = JSON.stringify(path);
	const conflict = outcome.conflict;
	const refused = `Your write to ${quoted} was refused because the note changed after you read it, and `;
	const links = plain.content.filter((block) => block.type !== "text");
	const facts = (extra: Record<string, unknown>) => ({
		error: "stale-revision" satisfies RefusalCode,
		path,
		...(conflict ? { conflictId: conflict.id, backupPath: conflict.backupPath } : {}),
		...extra,
	});
	const answer = (prose: string, extra: Record<string, unknown>): CallToolResult => ({
		isError: true,
		content: [{ type: "text", text: prose }, { type: "text", text: JSON.stringify(facts(extra)) }, ...links],
	});
	switch (person.kind) {
		case "merged":
			// The agent has not seen the merge: it gets the change tag, and reads the note before writing again.
			return answer(
				`${refused}the person chose, in your client, to merge both versions: the merge is ` +
					`now the note, written as the person's. Do not write this change again; call read_note {"path":${quoted}} ` +
					`before your next change.`,
				{ person: "merge", changeTag: changeTagOf(person.revision) },
			);
		case "taken":
			return answer(
				`${refused}the person chose, in your client, to take your version: the note is now ` +
					`exactly what you sent (revision ${person.revision}). Do not write it again; pass revision ${JSON.stringify(person.revision)} ` +
					`with your next write of this note.`,
				{ person: "take", currentRevision: person.revision },
			);
		case "kept":
			return answer(
				`${refused}the person chose, in your client, to keep the note as it is, without your ` +
					`change. The conflict is dismissed; your content stays in ${JSON.stringify(conflict?.backupPath ?? "")}. ` +
					`Do not write this change again unless the person asks you to.`,
				{ person: "keep", ...currentFields(outcome) },
			);
		case "opened":
			return answer(
				`${refused}the person chose, in your client, to decide in Obsidian's merge view, ` +
					`which is open now. Wait for that: call conflict_status {"id":${JSON.stringify(conflict?.id ?? "")},"wait":50}; ` +
					`once it is resolved, call read_note {"path":${quoted}} before any further change.`,
				{ person: "open", ...currentFields(outcome) },
			);
		case "settled":
			return prefixed(
				plain,
				`The person was asked in your client what to do, but the conflict was settled meanwhile (${person.status}): ` +
					`check it with conflict_status before writing again. `,
				{ person: "settled" },
			);
		case "moved-on":
			return prefixed(
				plain,
				`The person chose, in your client, to ${person.choice === "merge" ? "merge both versions" : "take your version"}, ` +
					`but the note changed again meanwhile, so nothing was written. `,
				{ person: `${person.choice}-not-written` },
			);
		case "no-answer":
			return prefixed(
				plain,
				`The person was asked in your client what to do and ${NO_ANSWER[person.why]}, so this is the plain refusal. `,
				{ person: person.why },
			);
	}
}

const NO_ANSWER = {
	declined: "declined to choose",
	cancelled: "dismissed the question",
	"timed-out": "did not answer in time",
	failed: "no choice came back",
} as const;

/** The plain refusal, its prose led by `lead`, its facts extended. */
function prefixed(plain: CallToolResult, lead: string, extra: Record<string, unknown>): CallToolResult {
	const content = plain.content.map((block, index) => {
		if (block.type !== "text") return block;
		if (index === 0) return { ...block, text: lead + block.text };
		if (index === 1)
			return { ...block, text: JSON.stringify({ ...(JSON.parse(block.text) as Record<string, unknown>), ...extra }) };
		return block;
	});
	return { ...plain, content };
}
