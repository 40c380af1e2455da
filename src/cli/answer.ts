/**
 * What a CLI command answers: one JSON object as text (a CLI handler has no exit code and no stderr), `ok: true` with
 * the facts, or `ok: false` with the error's name, a sentence saying what happened, and `next`: the command to run.
 */

export type CliAnswer = { ok: true } & Record<string, unknown>;

export interface CliError {
	ok: false;
	/** A stable name an agent can branch on (REST's problem names where one exists). */
	error: string;
	/** What happened, in a sentence. */
	detail: string;
	/** What to do next, as concretely as possible (usually a command line). */
	next: string;
	[fact: string]: unknown;
}

/** A command that cannot go on, thrown from anywhere in a handler and answered in one place (`runCliCommand`). */
export class CliFailure extends Error {
	constructor(readonly answer: CliError) {
		super(answer.detail);
		this.name = "CliFailure";
	}
}

/** The answer of a command that failed, returned (a handler that ends on it returns it). */
export function failure(error: string, detail: string, next: string, facts: Record<string, unknown> = {}): CliError {
	return { ok: false, error, detail, next, ...facts };
}

/** Throws the answer of a command that failed, from anywhere in a handler; `runCliCommand` answers it. */
export function throwFailure(error: string, detail: string, next: string, facts: Record<string, unknown> = {}): never {
	throw new CliFailure(failure(error, detail, next, facts));
}

/** A malformed argument: names it, says what is wrong and how to write it. */
export function badArgument(argument: string, detail: string, fix: string): never {
	return throwFailure("bad-argument", `${detail} Nothing was read or written.`, fix, { argument });
}

export function ok(facts: Record<string, unknown>): CliAnswer {
	return { ok: true, ...facts };
}

/** The text the CLI prints: one line of JSON. */
export function answerText(answer: CliAnswer | CliError): string {
	return JSON.stringify(answer);
}

/** The plugin's command prefix: `obsidian revision-guard:<action>`. */
export const COMMAND_PREFIX = "revision-guard";

/** One argument of a command line an agent can paste into a POSIX shell (quoted only when it needs to be). */
export function shellArgument(name: string, value: string): string {
	if (/^[A-Za-z0-9._/@%+,-]*$/.test(value) && value !== "") return `${name}=${value}`;
	return `${name}='${value.replace(/'/g, `'\\''`)}'`;
}

/** A full command line: `obsidian revision-guard:<action> name=value ...`. */
export function commandLine(action: string, args: Record<string, string | true>): string {
	const parts = Object.entries(args).map(([name, value]) => (value === true ? name : shellArgument(name, value)));
	return [`obsidian ${COMMAND_PREFIX}:${action}`, ...parts].join(" ");
}
