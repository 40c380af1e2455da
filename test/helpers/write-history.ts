/**
 * A history checker for "no write is ever silently lost": concurrent writers each append a unique line to what they
 * read and send it back with the token they read, while an outside editor appends its own unique lines. Every
 * attempt and every outside edit is logged, and `checkHistory` proves (or refutes) that the accepted writes and the
 * outside edits form one chain of revisions, that the note holds exactly their lines in that order, and that every
 * refused body was kept, byte for byte, as a .bak.
 *
 * Logical order comes from a shared event counter (never from clocks), so the checks are about what happened, not
 * how fast.
 */
import { sha256Token } from "./vault-files";

export type AttemptOutcome =
	/** Accepted; `token` is the new revision the server answered with. */
	| { kind: "ok"; token: string }
	/** Refused as stale (412) with the .bak path the server named (null when it named none). */
	| { kind: "refused"; backupPath: string | null }
	/** Anything else (another status, a network error): always a violation in these runs. */
	| { kind: "other"; detail: string };

export interface Attempt {
	writer: number;
	round: number;
	/** The unique line this attempt appended (with its newline). */
	line: string;
	/** The token the writer read and sent as If-Match. */
	base: string;
	/** The exact body sent. */
	body: string;
	/** Event counter when the write was sent and when its answer arrived. */
	sentAt: number;
	answeredAt: number;
	outcome: AttemptOutcome;
}

export interface OutsideEdit {
	line: string;
	/** Tokens of the content the editor read and of what it wrote. */
	from: string;
	to: string;
	startedAt: number;
	endedAt: number;
}

export interface WriteHistory {
	initial: string;
	attempts: Attempt[];
	outsideEdits: OutsideEdit[];
	/** Reads whose ETag was not the hash of the body served with it. */
	readMismatches: string[];
	final: string;
	/** The bytes now at each refused attempt's .bak path (null when missing). */
	backups: ReadonlyMap<string, Buffer | null>;
}

/** What the writers talk to: the real HTTP API, or (for the negative control) a writer driven directly. */
export interface WriterTransport {
	read(writer: number): Promise<{ token: string; content: string }>;
	write(writer: number, base: string, body: string): Promise<AttemptOutcome>;
}

/** Appends `line` to the note the way another program (or the person) would; returns what it read and wrote. */
export type OutsideEditor = (line: string) => Promise<{ before: string; after: string }>;

/**
 * Installs `hook` to run at the moment the gateway is in the middle of writing the note (after its check, before
 * the new content replaces the old); returns the uninstaller. Only gateways with such a moment have one.
 */
export type MidWriteHook = (hook: () => Promise<void>) => () => void;

export interface Outside {
	edit: OutsideEditor;
	midWrite?: MidWriteHook;
}

export interface StressOptions {
	writers: number;
	rounds: number;
	/** The outside editor makes bursts of this many edits, `outsideEveryMs` apart, then waits for an accepted write. */
	outsideBurst: number;
	outsideEveryMs: number;
	/** With a mid-write hook: every this many write steps, the outside editor saves in the middle of one. */
	midWriteEvery: number;
}

export function writerLine(writer: number, round: number): string {
	return `w${String(writer).padStart(2, "0")}-r${String(round).padStart(2, "0")}\n`;
}

/** Runs the writers concurrently with the outside editor and returns everything that happened. */
export async function runStress(
	transport: WriterTransport,
	outside: Outside,
	options: StressOptions,
): Promise<Pick<WriteHistory, "attempts" | "outsideEdits" | "readMismatches"> & { midWriteEdits: number }> {
	let events = 0;
	const tick = () => ++events;
	const attempts: Attempt[] = [];
	const outsideEdits: OutsideEdit[] = [];
	const readMismatches: string[] = [];
	let writersDone = false;
	let edits = 0;
	const editOnce = async () => {
		const line = `x${String(edits++).padStart(4, "0")}\n`;
		const startedAt = tick();
		const { before, after } = await outside.edit(line);
		outsideEdits.push({ line, from: sha256Token(before), to: sha256Token(after), startedAt, endedAt: tick() });
	};

	// Woken whenever a write is accepted (or the writers finish).
	let accepted = 0;
	let wake: (() => void) | null = null;
	const progress = () => {
		wake?.();
		wake = null;
	};

	const writer = async (id: number) => {
		for (let round = 0; round < options.rounds; round++) {
			const line = writerLine(id, round);
			const read = await transport.read(id);
			if (read.token !== sha256Token(read.content))
				readMismatches.push(`${line.trim()}: read token ${read.token} is not the hash of the content served`);
			const body = read.content + line;
			const sentAt = tick();
			let outcome: AttemptOutcome;
			try {
				outcome = await transport.write(id, read.token, body);
			} catch (error) {
				outcome = { kind: "other", detail: `request failed: ${String(error)}` };
			}
			attempts.push({ writer: id, round, line, base: read.token, body, sentAt, answeredAt: tick(), outcome });
			if (outcome.kind === "ok") {
				accepted++;
				progress();
			}
		}
	};

	const editor = async () => {
		while (!writersDone) {
			for (let k = 0; k < options.outsideBurst && !writersDone; k++) {
				await new Promise((resolve) => setTimeout(resolve, options.outsideEveryMs));
				if (!writersDone) await editOnce();
			}
			// Edits every few ms without pause would leave no writer's token current long enough to be accepted, so the
			// editor goes quiet after each burst until a writer has been accepted (or all are done).
			const acceptedBefore = accepted;
			while (!writersDone && accepted === acceptedBefore) await new Promise<void>((resolve) => (wake = resolve));
		}
	};

	// Bursts rarely land inside the short write step of an accepted write, so some edits are placed there on purpose.
	let writeSteps = 0;
	let midWriteEdits = 0;
	const uninstall = outside.midWrite?.(async () => {
		if (++writeSteps % options.midWriteEvery !== 0) return;
		midWriteEdits++;
		await editOnce();
	});
	const editing = editor();
	try {
		await Promise.all(Array.from({ length: options.writers }, (_, id) => writer(id)));
	} finally {
		writersDone = true;
		progress();
		await editing;
		uninstall?.();
	}
	return { attempts, outsideEdits, readMismatches, midWriteEdits };
}

interface Transition {
	what: string;
	line: string;
	from: string;
	to: string;
	startedAt: number;
	endedAt: number;
}

/** Every way the history breaks the promise; empty when it holds. */
export function checkHistory(history: WriteHistory): string[] {
	const violations: string[] = [...history.readMismatches];
	const oks = history.attempts.filter((attempt) => attempt.outcome.kind === "ok");
	const refused = history.attempts.filter((attempt) => attempt.outcome.kind === "refused");

	for (const attempt of history.attempts) {
		const { outcome } = attempt;
		if (outcome.kind === "other") violations.push(`${attempt.line.trim()}: unexpected answer: ${outcome.detail}`);
		if (outcome.kind === "ok" && outcome.token !== sha256Token(attempt.body)) {
			violations.push(
				`${attempt.line.trim()}: accepted with token ${outcome.token}, which is not the hash of the body sent`,
			);
		}
	}

	// (1) The accepted writes form one chain: no base is consumed by two accepted writes.
	const okByBase = new Map<string, Attempt[]>();
	for (const attempt of oks) okByBase.set(attempt.base, [...(okByBase.get(attempt.base) ?? []), attempt]);
	for (const [base, users] of okByBase) {
		if (users.length > 1)
			violations.push(
				`base ${base.slice(0, 12)} was consumed by ${users.length} accepted writes (${users.map((u) => u.line.trim()).join(", ")}): a lost update`,
			);
	}

	// The stronger form: accepted writes and outside edits together are one chain from the initial note to the final one.
	const transitions: Transition[] = [
		...oks.map((a) => ({
			what: `write ${a.line.trim()}`,
			line: a.line,
			from: a.base,
			to: (a.outcome as { token: string }).token,
			startedAt: a.sentAt,
			endedAt: a.answeredAt,
		})),
		...history.outsideEdits.map((e) => ({
			what: `outside edit ${e.line.trim()}`,
			line: e.line,
			from: e.from,
			to: e.to,
			startedAt: e.startedAt,
			endedAt: e.endedAt,
		})),
	];
	const byFrom = new Map<string, Transition[]>();
	for (const t of transitions) byFrom.set(t.from, [...(byFrom.get(t.from) ?? []), t]);
	for (const [from, users] of byFrom) {
		if (users.length > 1 && !(okByBase.get(from)?.length === users.length)) {
			violations.push(
				`revision ${from.slice(0, 12)} was replaced by ${users.length} changes (${users.map((u) => u.what).join(", ")}): one overwrote another`,
			);
		}
	}
	const chain: Transition[] = [];
	const used = new Set<Transition>();
	for (let at = sha256Token(history.initial); ;) {
		const next = byFrom.get(at)?.find((t) => !used.has(t));
		if (!next) {
			if (at !== sha256Token(history.final))
				violations.push(
					`the chain of accepted changes ends at ${at.slice(0, 12)}, but the note is at ${sha256Token(history.final).slice(0, 12)}`,
				);
			break;
		}
		used.add(next);
		chain.push(next);
		at = next.to;
	}
	if (chain.length !== transitions.length)
		violations.push(
			`only ${chain.length} of ${transitions.length} accepted changes lie on the chain to the final note`,
		);

	// (2) The note holds every accepted and every outside line exactly once, in chain order, and nothing else.
	const lines = history.final
		.split("\n")
		.slice(0, -1)
		.map((line) => line + "\n");
	const counts = new Map<string, number>();
	const position = new Map<string, number>();
	lines.forEach((line, index) => {
		counts.set(line, (counts.get(line) ?? 0) + 1);
		position.set(line, index);
	});
	for (const t of transitions) {
		const count = counts.get(t.line) ?? 0;
		if (count !== 1) violations.push(`${t.what}: its line is in the final note ${count} times, not once`);
	}
	const expected = history.initial + chain.map((t) => t.line).join("");
	if (chain.length === transitions.length && expected !== history.final)
		violations.push("the final note is not the initial note plus the accepted lines in chain order");
	// Where real-time order is known (one change answered before another was sent), the note keeps it.
	const sorted = [...transitions].sort((a, b) => a.endedAt - b.endedAt);
	let latestEnded: Transition | null = null;
	const byStart = [...transitions].sort((a, b) => a.startedAt - b.startedAt);
	let cursor = 0;
	for (const t of byStart) {
		while (cursor < sorted.length && sorted[cursor]!.endedAt < t.startedAt) {
			const candidate = sorted[cursor++]!;
			if (latestEnded === null || (position.get(candidate.line) ?? -1) > (position.get(latestEnded.line) ?? -1))
				latestEnded = candidate;
		}
		if (latestEnded && (position.get(latestEnded.line) ?? -1) > (position.get(t.line) ?? Infinity)) {
			violations.push(`${latestEnded.what} was acknowledged before ${t.what} was sent, yet its line comes after`);
		}
	}

	// (3) Every refusal's .bak exists and holds exactly the bytes sent; (4) no refused line reached the note.
	for (const attempt of refused) {
		const { backupPath } = attempt.outcome as { backupPath: string | null };
		if (backupPath === null) {
			violations.push(`${attempt.line.trim()}: refused without a .bak`);
			continue;
		}
		const kept = history.backups.get(backupPath);
		if (!kept) violations.push(`${attempt.line.trim()}: its .bak ${backupPath} does not exist`);
		else if (!kept.equals(Buffer.from(attempt.body, "utf8")))
			violations.push(`${attempt.line.trim()}: its .bak ${backupPath} is not byte-identical to the body sent`);
		if ((counts.get(attempt.line) ?? 0) > 0)
			violations.push(`${attempt.line.trim()}: refused, yet its line is in the note`);
	}
	const backupPaths = refused
		.map((attempt) => (attempt.outcome as { backupPath: string | null }).backupPath)
		.filter((path) => path !== null);
	if (new Set(backupPaths).size !== backupPaths.length) violations.push("two refusals named the same .bak path");
	return violations;
}
