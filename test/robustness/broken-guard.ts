/**
 * A deliberately broken guard, for the negative control of the history checker: the token is checked OUTSIDE the
 * atomic step (read, yield to other work, decide on the possibly stale content, then write unconditionally) and the
 * guarded writer's per-note lock is skipped. A checker that cannot see the lost updates this causes proves nothing.
 */
import type { GuardedWriter, WriteOutcome, WriteRequest } from "../../src/service/write/guarded-writer";
import type {
	FolderEntry,
	MoveOutcome,
	MovePlan,
	MutationOutcome,
	MutationPlan,
	NoteSnapshot,
	NoteStat,
	VaultChange,
	VaultGateway,
} from "../../src/vault/gateway";

export class CheckOutsideTheAtomicStep implements VaultGateway {
	constructor(private readonly inner: VaultGateway) {}

	read(path: string): Promise<NoteSnapshot | null> {
		return this.inner.read(path);
	}

	async mutate<T>(path: string, decide: (current: string | null) => MutationPlan<T>): Promise<MutationOutcome<T>> {
		const current = (await this.inner.read(path))?.content ?? null;
		// The bug: other writers (and the person) get to run between the check's read and the write.
		await new Promise((resolve) => setTimeout(resolve, 0));
		const plan = decide(current);
		// ...and the write ignores whatever the note holds by now.
		return this.inner.mutate(path, () => plan);
	}

	rename<T>(from: string, to: string, decide: (current: string | null) => MovePlan<T>): Promise<MoveOutcome<T>> {
		return this.inner.rename(from, to, decide);
	}

	createExclusive(path: string, content: string): Promise<boolean> {
		return this.inner.createExclusive(path, content);
	}

	list(folder: string): Promise<FolderEntry[] | null> {
		return this.inner.list(folder);
	}

	listNotes(extensions: readonly string[]): Promise<string[]> {
		return this.inner.listNotes(extensions);
	}

	stat(path: string): Promise<NoteStat | null> {
		return this.inner.stat(path);
	}

	onChange(listener: (change: VaultChange) => void): () => void {
		return this.inner.onChange(listener);
	}
}

/**
 * The writer's own per-note lock would serialize the writers and hide the bug above, so the negative control calls
 * its private lock-free body directly (the locked step, then the answer a refusal gets once the lock is released,
 * or a write once it is durable).
 * The cast is test-only and deliberate: nothing in src may do this.
 */
export function withoutWriterLock(writer: GuardedWriter): (request: WriteRequest) => Promise<WriteOutcome> {
	type Refusing = { kind: "refusing" };
	type AwaitingDisk = { kind: "awaiting-disk"; answer: WriteOutcome; durable: Promise<void> };
	type Basis = { sent: WriteRequest["ifMatch"]; held: null; implicit: false };
	const unlocked = writer as unknown as {
		writeLocked(request: WriteRequest, basis: Basis): Promise<WriteOutcome | Refusing | AwaitingDisk>;
		answerUnlocked(refusing: Refusing): Promise<WriteOutcome>;
	};
	return async (request) => {
		// The requests here always send If-Match: nothing stands in for one.
		const step = await unlocked.writeLocked(request, { sent: request.ifMatch, held: null, implicit: false });
		if (step.kind === "awaiting-disk") return step.durable.then(() => step.answer);
		return step.kind === "refusing" ? unlocked.answerUnlocked(step) : step;
	};
}
