/**
 * Whether the host knows every note's revision yet. A host listens as soon as it can, but until the start-up
 * reconcile has compared every note with its stored history, an answer that involves a revision could be wrong: a
 * token handed out for a note edited while the host was down, or a read that records that edit as an ordinary one
 * before the reconcile can judge it. Until then the entry points answer "starting up, retry" (503 with Retry-After
 * over REST, a JSON-RPC error over MCP) instead; only answers that touch no note (GET /, the API's description) go on.
 */
export class StartupReadiness {
	/** Ready unless a host's start is under way: a guard opened without one (tests, tools) has nothing to wait for. */
	private done = true;
	private progress = { done: 0, total: 0 };
	private readonly waiting: (() => void)[] = [];

	/** A host is starting: from now until markReady, requests about notes are told to retry. */
	begin(): void {
		this.done = false;
		this.progress = { done: 0, total: 0 };
	}

	/** True once the start-up reconcile has finished (or there is none to wait for). */
	get ready(): boolean {
		return this.done;
	}

	/** The reconcile's progress, for the words of a "starting up" answer. */
	noted(done: number, total: number): void {
		this.progress = { done, total };
	}

	/** The reconcile is done: every note has its revision. */
	markReady(): void {
		if (this.done) return;
		this.done = true;
		for (const resume of this.waiting.splice(0)) resume();
	}

	/** Resolves once ready (at once when it is already). */
	whenReady(): Promise<void> {
		return this.done ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
	}

	/** How long a client should wait before it asks again, in whole seconds. */
	retryAfterSeconds(): number {
		return RETRY_AFTER_SECONDS;
	}

	/** What a "starting up" answer says. */
	describe(): string {
		const { done, total } = this.progress;
		const where = total > 0 ? ` (${done} of ${total} notes checked)` : "";
		return (
			`The host is starting: it is checking which notes changed while it was not running${where}, ` +
			`and answers requests about notes once it knows every note's revision. Nothing was ` +
			`read or written. Retry after ${RETRY_AFTER_SECONDS} s.`
		);
	}
}

/** Short: a start-up reconcile of tens of thousands of notes takes seconds. */
const RETRY_AFTER_SECONDS = 1;
