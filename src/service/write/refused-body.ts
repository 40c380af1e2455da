/**
 * Keeping what a refused write carried: the body as a .bak note (byte for byte, never over anything) and a conflict
 * record pointing at it. Both are saved before the refusal is answered, and before anything whose cost grows with
 * the note (a diff, a merge preview), so no size and no later failure can cost the agent its text.
 */
import { randomBytes, randomInt } from "crypto";
import type { BaseStore } from "../stores/base-store";
import { backupPathFor, newConflictId, type ConflictReason, type ConflictRecord } from "../../core/conflicts";
import { type ConflictLog } from "../stores/conflict-log";
import { revisionOf } from "../../core/revision";
import type { VaultGateway } from "../../vault/gateway";
import type { BackupNames } from "./backup-names";

export interface RefusedBodyDeps {
	gateway: VaultGateway;
	bases: BaseStore;
	conflicts: ConflictLog;
	backupFolder: () => string;
	now: () => number;
	/** Persists conflict records; awaited, so the record is on disk before the refusal is answered. */
	conflictsSaved: () => Promise<void>;
	/**
	 * .bak names being created right now, and hints to the next free one. Refusals of one note keep their bodies at the
	 * same time (outside the note's lock), and a gateway's exclusive create need not be exclusive against a second call
	 * of its own in flight (Obsidian's index learns of a new file only once it is written): each name is tried by one
	 * refusal at a time.
	 */
	backupNames: BackupNames;
	/** Where failures to keep the record or the merge base are reported (the host's log): never swallowed. */
	onError?: (error: unknown) => void;
}

export interface RefusedBody {
	path: string;
	body: string;
	reason: ConflictReason;
	sentRevision: string | null;
	currentRevision: string | null;
	agent: string;
	/** "outside": the text a program's direct save dropped (nothing was refused). */
	source?: "outside";
}

export interface KeptBody {
	conflict: ConflictRecord;
	/** Why the .bak could not be written, when it could not (the record then has no backupPath). */
	backupError: string | null;
	/** Why the conflict record could not be saved, when it could not: it is kept in memory and may not outlive a crash. */
	recordError: string | null;
}

const BACKUP_ATTEMPTS = 50;
/** The same refused body sent again within this long reuses its .bak instead of making another identical one. */
export const SAME_BACKUP_MS = 10 * 60 * 1000;

export async function keepRefusedBody(deps: RefusedBodyDeps, refused: RefusedBody): Promise<KeptBody> {
	const when = new Date(deps.now());
	const proposedRevision = revisionOf(refused.body);
	const earlier = await earlierBackup(deps, refused, proposedRevision);
	// The very same refusal again (a retry loop): the open record already says everything, and names the .bak.
	if (
		earlier &&
		earlier.status === "open" &&
		earlier.sentRevision === refused.sentRevision &&
		earlier.currentRevision === refused.currentRevision &&
		earlier.reason === refused.reason
	) {
		return { conflict: earlier, backupError: null, recordError: null };
	}
	let backupPath: string | null = null;
	let backupError: string | null = null;
	try {
		backupPath =
			earlier?.backupPath ?? (await deps.backupNames.inTurn(() => writeBackup(deps, refused.path, refused.body, when)));
	} catch (error) {
		backupError = error instanceof Error ? error.message : String(error);
	}
	// The proposal is kept as a base too, so resolving the conflict never depends on the .bak staying untouched.
	await deps.bases.retain(proposedRevision, refused.body).catch((error: unknown) => deps.onError?.(error));
	const conflict: ConflictRecord = {
		id: newConflictId(when, randomBytes(4).toString("hex")),
		path: refused.path,
		reason: refused.reason,
		sentRevision: refused.sentRevision,
		currentRevision: refused.currentRevision,
		proposedRevision,
		backupPath,
		agent: refused.agent,
		...(refused.source === undefined ? {} : { source: refused.source }),
		time: when.toISOString(),
		status: "open",
	};
	// Adding it saves the records (the log's change listener); the refusal is answered once that save is done.
	deps.conflicts.add(conflict);
	let recordError: string | null = null;
	await deps.conflictsSaved().catch((error: unknown) => {
		recordError = error instanceof Error ? error.message : String(error);
		deps.onError?.(error);
	});
	return { conflict, backupError, recordError };
}

/**
 * A recent refusal of the same body for the same note (by the same agent) whose .bak still holds exactly that body:
 * its .bak is reused rather than copied again.
 */
async function earlierBackup(
	deps: RefusedBodyDeps,
	refused: RefusedBody,
	proposedRevision: string,
): Promise<(ConflictRecord & { backupPath: string }) | null> {
	const now = deps.now();
	for (const record of deps.conflicts.list({ path: refused.path })) {
		// Compared before the time is parsed: under many refusals of one note most records are of other bodies.
		if (record.proposedRevision !== proposedRevision || record.agent !== refused.agent || record.backupPath === null)
			continue;
		// Newest first: this one and every one after it are too old.
		if (now - Date.parse(record.time) > SAME_BACKUP_MS) break;
		const backup = await deps.gateway.read(record.backupPath).catch(() => null);
		if (backup && revisionOf(backup.content) === proposedRevision)
			return record as ConflictRecord & { backupPath: string };
	}
	return null;
}

/**
 * Writes the refused body, byte for byte, to a fresh .bak note; never overwrites anything. A proposal's text is kept
 * the same way (proposal-store.ts). Throws when no name could be had.
 */
export async function writeBackup(
	deps: Pick<RefusedBodyDeps, "gateway" | "backupFolder" | "backupNames">,
	notePath: string,
	body: string,
	when: Date,
): Promise<string> {
	const folder = deps.backupFolder();
	const first = backupPathFor(notePath, when, folder, 1);
	// From the number after the last one taken this second: names before it were taken a moment ago.
	for (let attempt = deps.backupNames.firstToTry(first); attempt <= BACKUP_ATTEMPTS; attempt++) {
		const candidate = attempt === 1 ? first : backupPathFor(notePath, when, folder, attempt);
		if (await createIfFree(deps, candidate, body)) {
			deps.backupNames.taken(first, attempt);
			return candidate;
		}
	}
	// A burst of refusals within one second can take every numbered name; a random number then keeps the body.
	for (let attempt = 1; attempt <= BACKUP_ATTEMPTS; attempt++) {
		const candidate = backupPathFor(notePath, when, folder, BACKUP_ATTEMPTS + 1 + randomInt(1_000_000_000));
		if (await createIfFree(deps, candidate, body)) return candidate;
	}
	throw new Error(`no free .bak name after ${2 * BACKUP_ATTEMPTS} attempts`);
}

/** Creates `path` unless it exists or another refusal is creating it right now. */
async function createIfFree(
	deps: Pick<RefusedBodyDeps, "gateway" | "backupNames">,
	path: string,
	body: string,
): Promise<boolean> {
	if (!deps.backupNames.claim(path)) return false;
	try {
		return await deps.gateway.createExclusive(path, body);
	} finally {
		deps.backupNames.release(path);
	}
}
