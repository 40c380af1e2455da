/**
 * A command's arguments as the Obsidian CLI hands them over (`name=value`, a bare flag as the string "true"), read
 * strictly: an argument the command does not know is an error (a typo in `revision=` must not go unnoticed), and
 * every path, revision and agent name is checked before anything is read or written.
 */
import { validateVaultPath } from "../core/path";
import type { RefusalCode } from "../core/refusal-codes";
import type { EntityTagCondition } from "../core/revision";
import { agentActor, type AgentActor } from "../service/notes/actor";
import type { AgentNotes } from "../service/notes/agent-notes";
import { badArgument, COMMAND_PREFIX, throwFailure } from "./answer";

/** What a handler receives: Obsidian's CliData, a string for each argument given. */
export type CliArguments = Readonly<Record<string, string>>;

/** Arguments the CLI itself may pass along; they mean nothing here and are not errors. */
const IGNORED = new Set(["vault"]);
/** A bare flag arrives as this value. */
const FLAG = "true";
/** Names that credit history and conflict records: short, printable, no path or control characters. */
const AGENT_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u;
/** A revision, or the part token or change tag of one (core/revision-tokens); quotes and a W/ from an ETag allowed. */
const REVISION = /^(?:W\/)?"?((?:part\.|tag\.)?[A-Za-z0-9_-]{43})"?$/;
export const DEFAULT_AGENT = "cli";

export class Arguments {
	constructor(
		private readonly data: CliArguments,
		readonly action: string,
		known: readonly string[],
	) {
		for (const name of Object.keys(data)) {
			if (known.includes(name) || IGNORED.has(name)) continue;
			badArgument(
				name,
				`${COMMAND_PREFIX}:${action} has no argument "${name}".`,
				`Use only: ${known.map((arg) => `${arg}=`).join(" ")} (run \`obsidian help ${COMMAND_PREFIX}:${action}\`).`,
			);
		}
	}

	/** The value given, or undefined. */
	text(name: string): string | undefined {
		// Own arguments only: `constructor=` or `toString=` must not find Object's own members.
		const value = Object.hasOwn(this.data, name) ? this.data[name] : undefined;
		return typeof value === "string" ? value : undefined;
	}

	has(name: string): boolean {
		return this.text(name) !== undefined;
	}

	required(name: string, what: string): string {
		const value = this.text(name);
		if (value === undefined || value === FLAG || value === "")
			badArgument(name, `${name}= is missing: ${what}.`, `Add ${name}=<value>.`);
		return value;
	}

	/** A boolean flag: written bare (`all`), never with a value. */
	flag(name: string): boolean {
		const value = this.text(name);
		if (value === undefined) return false;
		if (value !== FLAG)
			badArgument(
				name,
				`"${name}" is a flag and takes no value (it was given "${value.slice(0, 40)}").`,
				`Write it bare: ${name}`,
			);
		return true;
	}

	/** The note's vault-relative path (`path=`), checked by the same validator REST and MCP use. */
	notePath(notes: AgentNotes, name = "path"): string {
		const raw = this.required(name, 'the note\'s path from the vault root, e.g. path="Projects/Plan.md"');
		const checked = validateVaultPath(raw, notes.pathPolicy(), "note");
		if (!checked.ok) {
			return badArgument(
				name,
				`Invalid path "${raw.slice(0, 200)}": ${checked.reason}`,
				"Give the note's exact path from the vault root, with / between folders and its " +
					'extension, e.g. path="Projects/Plan.md".',
			);
		}
		return checked.path;
	}

	/** A revision token, as `revision-guard:read` returned it (quotes from a REST ETag are allowed). */
	revision(name = "revision"): string | undefined {
		const value = this.text(name);
		if (value === undefined) return undefined;
		const match = REVISION.exec(value.trim());
		if (!match)
			badArgument(
				name,
				`${name}= is not a revision token (43 characters of letters, digits, - and _, as revision-guard:read returns it).`,
				`Pass the revision exactly as revision-guard:read returned it.`,
			);
		return match[1]!;
	}

	/**
	 * `revision=` as the writer's If-Match condition (absent when not given). One that is not a revision is refused
	 * with the code REST's If-Match and MCP's revision get (malformed-precondition), not as a generic bad argument.
	 */
	ifMatch(): EntityTagCondition {
		const value = this.text("revision");
		if (value === undefined) return { kind: "absent" };
		const match = REVISION.exec(value.trim());
		if (!match) {
			throwFailure(
				"malformed-precondition" satisfies RefusalCode,
				"revision= is not a revision token (43 characters of letters, digits, - and _, as " +
					"revision-guard:read returns it); nothing was read or written.",
				"Pass the revision exactly as revision-guard:read returned it.",
				{ argument: "revision" },
			);
		}
		return { kind: "tags", tags: [{ weak: false, opaque: match[1]! }] };
	}

	/**
	 * Who is calling: `agent=` (default "cli"), without a client id: the CLI has no sessions, so no implicit tokens.
	 * The CLI has no keys either (whoever runs it could act as the person), but a name that is a key's is held to that
	 * key's scope, so an agent told to use its key's name gets the same limits as over REST and MCP.
	 */
	actor(notes: AgentNotes): AgentActor {
		const name = this.text("agent") ?? DEFAULT_AGENT;
		if (!AGENT_NAME.test(name)) {
			badArgument(
				"agent",
				`agent= must be 1 to 64 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.`,
				"Name yourself simply, e.g. agent=claude-code.",
			);
		}
		const scope = notes.scopeOfName(name);
		if (scope !== null && !scope.ok)
			throwFailure(
				"scope-forbidden" satisfies RefusalCode,
				`The key "${name}" is not served: ${scope.problem.message} Nothing was read or written.`,
				"Ask the person to fix the key's lists in settings.",
				{ key: name, scope: "key-not-served" },
			);
		return agentActor(name, undefined, undefined, scope?.scope);
	}

	/** A whole number from 0 (a diff line offset), or `fallback`. */
	count(name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
		const value = this.text(name);
		if (value === undefined) return fallback;
		const number = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
		if (!Number.isSafeInteger(number) || number > max)
			badArgument(
				name,
				`${name}= must be a whole number from 0${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ""}.`,
				`Write it as digits, e.g. ${name}=0.`,
			);
		return number;
	}

	/** One of a fixed set of words. */
	choice<T extends string>(name: string, allowed: readonly T[], fallback?: T): T {
		const value = this.text(name);
		if (value === undefined && fallback !== undefined) return fallback;
		if (value === undefined || !allowed.includes(value as T)) {
			return badArgument(
				name,
				`${name}= must be one of ${allowed.join(", ")}${value === undefined ? "" : ` (it was "${value.slice(0, 40)}")`}.`,
				`Add ${name}=${allowed[0]}.`,
			);
		}
		return value as T;
	}
}
