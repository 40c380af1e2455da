/**
 * THE guarded write. Every path that changes a note (REST PUT/POST/DELETE, the merge modal, MCP tools) comes
 * through `write`. The token check runs inside the gateway's atomic read-check-write; a refused body is kept as a
 * .bak note and a conflict record before the caller learns of the refusal.
 */
import { randomBytes, randomInt } from "crypto";
import type { BaseStore } from "../core/base-store";
import { backupPathFor, newConflictId, type ConflictLog, type ConflictReason, type ConflictRecord } from "../core/conflicts";
import { unifiedDiff } from "../core/diff/unified";
import { decideWrite, type GuardDecision, type Refusal, type WriteOperation } from "../core/guard";
import { KeyedMutex } from "../core/keyed-mutex";
import type { ReadLedger } from "../core/read-ledger";
import { revisionOf, sentRevisions, strongMatch, type EntityTagCondition } from "../core/revision";
import type { RevisionHistory, RevisionSource } from "../core/revision-history";
import type { RevisionGuardSettings } from "../settings";
import type { RevisionTracker } from "./revision-tracker";
import type { NoteStat, VaultGateway } from "../vault/gateway";
import { autoMerge, type AutoMerge } from "./auto-merge";

export interface WriteRequest {
	path: string;
	operation: WriteOperation;
	ifMatch: EntityTagCondition;
	ifNoneMatch: EntityTagCondition;
	/** The key name the write is attributed to. */
	agent: string;
	/**
	 * Who history credits; defaults to the agent. The merge modal's saves are the person's: a person's refused save
	 * is not an agent conflict (no .bak, no record; the modal shows the newer note instead), and the read validity
	 * window, which is about agents' reads, does not apply to it.
	 */
	source?: RevisionSource;
	/** `Prefer: merge=auto`: on a stale token, write the three-way merge if it is clean. */
	merge?: "auto";
	/**
	 * Who is writing, for implicit tokens: the API key (plus the MCP session). When set and no If-Match was sent,
	 * the revision this client last read of the note is checked as if it had been sent.
	 */
	client?: string;
}

export type WriteOutcome =
	| { kind: "written"; revision: string; created: boolean; stat: NoteStat | null; merged: boolean }
	| { kind: "unchanged"; revision: string }
	| { kind: "deleted" }
	| {
			kind: "refused";
			refusal: Refusal;
			currentRevision: string | null;
			/** Set when the refused body was kept (or keeping it was attempted). */
			conflict: ConflictRecord | null;
			/** Why the .bak could not be written, when it could not. */
			backupError: string | null;
			/** Unified diff from the sent revision to the note now, when that base is retained. */
			changes: string | null;
			/** With `merge: "auto"`: the attempted merge, with conflict markers. */
			mergePreview: string | null;
			/** The token checked was the client's last read, not a sent If-Match. */
			implicit: boolean;
	  };

/** Refusals that leave a client holding content it wanted written: those get a .bak and a conflict record. */
const KEEP_BODY: ReadonlySet<Refusal["reason"]> = new Set(["stale", "exists", "read-expired", "content-loss"]);
const BACKUP_ATTEMPTS = 50;

export interface GuardedWriterDeps {
	gateway: VaultGateway;
	tracker: RevisionTracker;
	history: RevisionHistory;
	bases: BaseStore;
	conflicts: ConflictLog;
	settings: () => RevisionGuardSettings;
	now: () => number;
	/** Persist conflict records; awaited before a refusal is answered. */
	saveConflicts: () => Promise<void>;
	/** What each client last read, for implicit tokens. */
	reads: ReadLedger;
	/** Called after every write that replaced an existing note (conflict records settle themselves here). */
	onWritten?: (write: CompletedWrite) => Promise<void>;
}

export interface CompletedWrite {
	path: string;
	/** The revision the write replaced, and its content. */
	replaced: string;
	replacedContent: string;
	revision: string;
	content: string;
	/** The key name (or "you" for the person) that wrote. */
	by: string;
}

export class GuardedWriter {
	private readonly locks = new KeyedMutex();

	constructor(private readonly deps: GuardedWriterDeps) {}

	write(request: WriteRequest): Promise<WriteOutcome> {
		return this.locks.run(request.path, async () => {
			const implicit = this.implicitToken(request);
			const outcome = await this.writeLocked(implicit ?? request);
			const { client } = request;
			if (client !== undefined && (outcome.kind === "written" || outcome.kind === "unchanged")) {
				// The writer knows what it just wrote, so its next tokenless write is checked against that.
				this.deps.reads.record(client, request.path, outcome.revision, this.deps.now());
			}
			return outcome.kind === "refused" ? { ...outcome, implicit: implicit !== null } : outcome;
		});
	}

	/** A tokenless request from a known client, rewritten to carry the revision that client last read. */
	private implicitToken(request: WriteRequest): WriteRequest | null {
		const config = this.deps.settings();
		if (request.client === undefined || request.ifMatch.kind !== "absent" || request.ifNoneMatch.kind !== "absent") return null;
		if (!config.protectTokenlessClients || request.operation.kind === "append") return null;
		const read = this.deps.reads.lastRead(request.client, request.path);
		if (!read) return null;
		const windowMs = config.readValidityMinutes * 60_000;
		if (windowMs > 0 && this.deps.now() - read.time > windowMs) return null;
		return { ...request, ifMatch: { kind: "tags", tags: [{ weak: false, opaque: read.revision }] } };
	}

	private async writeLocked(request: WriteRequest): Promise<WriteOutcome> {
		const { gateway, tracker, settings, now } = this.deps;
		const { path, operation } = request;
		const source = request.source ?? { kind: "agent", agent: request.agent };
		const config = settings();
		// The merge base must be at hand before the atomic step, whose check runs synchronously.
		const mergeBase = request.merge === "auto" && config.allowAutoMerge ? await this.sentBase(request.ifMatch) : null;
		let seen: string | null = null;
		// Filled in by the synchronous check below (a holder, because TypeScript cannot see assignments in callbacks).
		const attempt: { merge: AutoMerge | null } = { merge: null };
		const outcome = await gateway.mutate<GuardDecision>(path, (current) => {
			seen = current;
			let decision = decideWrite(current, {
				operation,
				ifMatch: request.ifMatch,
				ifNoneMatch: request.ifNoneMatch,
				requireToken: config.requireToken,
				readExpired: current !== null && source.kind !== "user" && this.readExpired(path, current, request.ifMatch, config.readValidityMinutes),
			});
			if (decision.kind === "refuse" && decision.refusal.reason === "stale" && mergeBase !== null && current !== null && operation.kind === "replace") {
				attempt.merge = autoMerge(mergeBase, current, operation.body);
				if (attempt.merge.kind === "merged") decision = { kind: "write", content: attempt.merge.text, created: false };
			}
			if (decision.kind === "write") {
				tracker.expect(path, revisionOf(decision.content), source);
				return { kind: "write", content: decision.content, result: decision };
			}
			if (decision.kind === "delete") return { kind: "trash", result: decision };
			return { kind: "keep", result: decision };
		});
		const decision: GuardDecision = outcome.result;
		const current: string | null = seen;
		const merge = attempt.merge;

		switch (decision.kind) {
			case "write": {
				const revision = revisionOf(decision.content);
				tracker.record(path, decision.content, revision, source);
				// The writer knows this content, so it is a fair base for its next write.
				this.deps.history.markServed(path, revision, now());
				await this.deps.bases.retain(revision, decision.content);
				if (current !== null) await this.deps.onWritten?.({ path, replaced: revisionOf(current), replacedContent: current, revision, content: decision.content, by: request.agent });
				return { kind: "written", revision, created: decision.created, stat: outcome.stat, merged: merge?.kind === "merged" };
			}
			case "unchanged":
				return { kind: "unchanged", revision: revisionOf(current ?? "") };
			case "delete":
				return { kind: "deleted" };
			case "refuse":
				return this.refused(request, decision.refusal, current, merge?.kind === "conflicted" ? merge.preview : null);
		}
	}

	private async sentBase(ifMatch: EntityTagCondition): Promise<string | null> {
		const sent = sentRevisions(ifMatch)[0];
		return sent === undefined ? null : this.deps.bases.get(sent);
	}

	private readExpired(path: string, current: string, ifMatch: EntityTagCondition, windowMinutes: number): boolean {
		if (windowMinutes <= 0) return false;
		const revision = revisionOf(current);
		if (!strongMatch(ifMatch, revision)) return false;
		const servedAt = this.deps.history.find(path, revision)?.servedAt;
		return servedAt === undefined || this.deps.now() - servedAt > windowMinutes * 60_000;
	}

	private async refused(request: WriteRequest, refusal: Refusal, current: string | null, mergePreview: string | null): Promise<WriteOutcome> {
		const currentRevision = current === null ? null : revisionOf(current);
		const sentRevision = refusal.reason === "stale" || refusal.reason === "read-expired" ? refusal.sentRevision : null;
		const changes = sentRevision && current !== null ? await this.changesSince(request.path, sentRevision, current) : null;
		const body = request.operation.kind === "delete" ? null : request.operation.body;
		// The refusal hands the agent the current revision (and a diff to it): that counts as having read it, so the
		// documented retry with currentRevision is not refused by the read validity window.
		if (current !== null) await this.deps.tracker.served({ path: request.path, content: current });
		const keep = KEEP_BODY.has(refusal.reason) && body !== null && body !== current && request.source?.kind !== "user";
		if (!keep || body === null) return { kind: "refused", refusal, currentRevision, conflict: null, backupError: null, changes, mergePreview, implicit: false };
		// The proposal is kept as a base too, so resolving the conflict never depends on the .bak staying untouched.
		await this.deps.bases.retain(revisionOf(body), body);

		const when = new Date(this.deps.now());
		let backupPath: string | null = null;
		let backupError: string | null = null;
		try {
			backupPath = await this.writeBackup(request.path, body, when);
		} catch (error) {
			backupError = error instanceof Error ? error.message : String(error);
		}
		const conflict: ConflictRecord = {
			id: newConflictId(when, randomBytes(4).toString("hex")),
			path: request.path,
			reason: refusal.reason as ConflictReason,
			sentRevision,
			currentRevision,
			proposedRevision: revisionOf(body),
			backupPath,
			agent: request.agent,
			time: when.toISOString(),
			status: "open",
		};
		this.deps.conflicts.add(conflict);
		await this.deps.saveConflicts().catch(() => undefined);
		return { kind: "refused", refusal, currentRevision, conflict, backupError, changes, mergePreview, implicit: false };
	}

	/** Writes the refused body, byte for byte, to a fresh .bak note; never overwrites anything. */
	private async writeBackup(notePath: string, body: string, when: Date): Promise<string> {
		const folder = this.deps.settings().backupFolder;
		for (let attempt = 1; attempt <= BACKUP_ATTEMPTS; attempt++) {
			const candidate = backupPathFor(notePath, when, folder, attempt);
			if (await this.deps.gateway.createExclusive(candidate, body)) return candidate;
		}
		// A burst of refusals within one second can take every numbered name; a random number then keeps the body.
		for (let attempt = 1; attempt <= BACKUP_ATTEMPTS; attempt++) {
			const candidate = backupPathFor(notePath, when, folder, BACKUP_ATTEMPTS + 1 + randomInt(1_000_000_000));
			if (await this.deps.gateway.createExclusive(candidate, body)) return candidate;
		}
		throw new Error(`no free .bak name after ${2 * BACKUP_ATTEMPTS} attempts`);
	}

	private async changesSince(path: string, sentRevision: string, current: string): Promise<string | null> {
		const base = await this.deps.bases.get(sentRevision);
		if (base === null) return null;
		return unifiedDiff(base, current, { fromLabel: `a/${path}@${sentRevision.slice(0, 12)}`, toLabel: `b/${path}` });
	}
}
