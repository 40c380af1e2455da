/**
 * Resolving conflicts: gathers the three sides (what the agent read, the note now, what the agent proposed),
 * previews the automatic merge, and saves a resolution through the guarded writer. Also settles open conflicts
 * when any write lands on top of the exact revision a conflict was refused against.
 */
import { agentTakenSteps, lazyLines } from "../../core/agent-outcome";
import type { ConflictRecord } from "../../core/conflicts";
import type { ConflictLog } from "../stores/conflict-log";
import type { BaseStore } from "../stores/base-store";
import { mergeThreeWayInSlices, renderMerge, type MergeResult } from "../../core/merge";
import { finishInSlices, type YieldToHost } from "../../core/steps";
import { parseEntityTagCondition, revisionOf } from "../../core/revision";
import type { RevisionGuardSettings } from "../../settings";
import type { VaultGateway } from "../../vault/gateway";
import { actorLabel, PERSON } from "../notes/actor";
import type { CompletedWrite, GuardedWriter } from "../write/guarded-writer";

export interface ConflictSides {
	record: ConflictRecord;
	/** What the agent read; null when no longer retained (or it sent no token). */
	base: string | null;
	/** The note now; null when it no longer exists. */
	mine: string | null;
	mineRevision: string | null;
	/** What the agent proposed; null only if both the retained copy and the .bak are gone. */
	theirs: string | null;
}

export type SaveOutcome =
	| { kind: "saved"; revision: string }
	/** The note changed since `mineRevision`: nothing was written; merge again against these sides. */
	| { kind: "changed"; sides: ConflictSides }
	| { kind: "failed"; message: string };

export interface ResolverDeps {
	gateway: VaultGateway;
	bases: BaseStore;
	conflicts: ConflictLog;
	writer: GuardedWriter;
	settings: () => RevisionGuardSettings;
	now: () => number;
	/** Gives the host a turn during the merges of big notes. */
	yieldToHost: YieldToHost;
}

export class ConflictResolver {
	constructor(private readonly deps: ResolverDeps) {}

	async sides(id: string): Promise<ConflictSides | null> {
		const record = this.deps.conflicts.get(id);
		if (!record) return null;
		const { bases, gateway } = this.deps;
		const base = record.sentRevision ? await bases.get(record.sentRevision) : null;
		const note = await gateway.read(record.path);
		let theirs = await bases.get(record.proposedRevision);
		if (theirs === null && record.backupPath) {
			const backup = await gateway.read(record.backupPath);
			if (backup && revisionOf(backup.content) === record.proposedRevision) theirs = backup.content;
		}
		return { record, base, mine: note?.content ?? null, mineRevision: note ? revisionOf(note.content) : null, theirs };
	}

	/** The automatic merge of the three sides now (a missing base merges as empty, so every difference conflicts). */
	async preview(
		id: string,
		diff3 = false,
	): Promise<{ sides: ConflictSides; result: MergeResult; text: string } | null> {
		const sides = await this.sides(id);
		if (!sides || sides.theirs === null) return null;
		const result = await mergeThreeWayInSlices(sides.base ?? "", sides.mine ?? "", sides.theirs, this.deps.yieldToHost);
		return { sides, result, text: renderMerge(result, { diff3 }) };
	}

	/**
	 * Saves the person's resolution, replacing exactly `mineRevision`; never overwrites a newer note. `unresolved`
	 * says conflicts were left undecided (saved as markers), for the record of how much of the agent's work was kept.
	 */
	async save(id: string, text: string, mineRevision: string | null, { unresolved = false } = {}): Promise<SaveOutcome> {
		const sidesNow = await this.sides(id);
		if (!sidesNow) return { kind: "failed", message: "This conflict no longer exists." };
		// The note moved on while the person merged: merge again rather than judge against a note they did not see.
		if (sidesNow.mineRevision !== mineRevision) return { kind: "changed", sides: sidesNow };
		const { record } = sidesNow;
		const outcome = await this.deps.writer.write({
			path: record.path,
			operation: { kind: "replace", body: text },
			ifMatch: parseEntityTagCondition(mineRevision === null ? undefined : `"${mineRevision}"`),
			ifNoneMatch: parseEntityTagCondition(mineRevision === null ? "*" : undefined),
			actor: PERSON,
		});
		if (outcome.kind === "refused") {
			const sides = await this.sides(id);
			return sides ? { kind: "changed", sides } : { kind: "failed", message: "This conflict no longer exists." };
		}
		const revision = outcome.kind === "written" || outcome.kind === "unchanged" ? outcome.revision : revisionOf(text);
		const { base, mine, theirs } = sidesNow;
		const agentTaken =
			theirs === null
				? undefined
				: await finishInSlices(
						agentTakenSteps({ base, mine: mine ?? "", theirs, result: text, unresolved }),
						this.deps.yieldToHost,
					);
		this.deps.conflicts.setStatus(id, "resolved", new Date(this.deps.now()).toISOString(), {
			resolvedRevision: revision,
			agentTaken,
			resolvedBy: actorLabel(PERSON),
		});
		await this.afterResolve(record);
		return { kind: "saved", revision };
	}

	dismiss(id: string): void {
		this.deps.conflicts.setStatus(id, "dismissed", new Date(this.deps.now()).toISOString());
	}

	/** Subscribed to the writer: a write on top of the revision a conflict was refused against resolves that conflict. */
	async settle(write: CompletedWrite): Promise<void> {
		// Every record settled here is judged against the note this write replaced: its lines are worked out once.
		const mineLines = lazyLines(write.replacedContent);
		for (const record of this.deps.conflicts.list({ status: "open", path: write.path })) {
			// The person's saves (the merge modal) resolve their conflict themselves, with what they chose.
			if (record.currentRevision !== write.replaced || write.by.kind === "person") continue;
			const base = record.sentRevision ? await this.deps.bases.get(record.sentRevision) : null;
			const theirs = await this.deps.bases.get(record.proposedRevision);
			const agentTaken =
				theirs === null
					? undefined
					: await finishInSlices(
							agentTakenSteps({ base, mine: write.replacedContent, theirs, result: write.content }, { mineLines }),
							this.deps.yieldToHost,
						);
			this.deps.conflicts.setStatus(record.id, "resolved", new Date(this.deps.now()).toISOString(), {
				resolvedRevision: write.revision,
				agentTaken,
				resolvedBy: actorLabel(write.by),
			});
		}
	}

	/** With the "trash" setting, an untouched .bak goes to the trash (through the guard, with its own token). */
	private async afterResolve(record: ConflictRecord): Promise<void> {
		if (this.deps.settings().backupAfterResolve !== "trash" || !record.backupPath) return;
		// A repeated refusal reuses its .bak: while another open conflict names it, it is that conflict's copy too.
		if (
			this.deps.conflicts
				.list({ status: "open", path: record.path })
				.some((other) => other.backupPath === record.backupPath)
		)
			return;
		const backup = await this.deps.gateway.read(record.backupPath);
		if (!backup || revisionOf(backup.content) !== record.proposedRevision) return;
		await this.deps.writer.write({
			path: record.backupPath,
			operation: { kind: "delete" },
			ifMatch: parseEntityTagCondition(`"${record.proposedRevision}"`),
			ifNoneMatch: parseEntityTagCondition(undefined),
			actor: PERSON,
		});
	}
}
