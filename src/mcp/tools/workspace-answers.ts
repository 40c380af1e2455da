/** What MCP tools (ours and the Local REST API's) say when a workspace or periodic-note call cannot go on. */
import type { CommandRun } from "../../service/notes/command-runs";
import type { PeriodicResolution } from "../../service/notes/periodic-notes";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";

export const WORKSPACE_HEADLESS =
	"This server serves a plain folder: there is no Obsidian here to run commands in, " +
	"open notes in, or hold an active editor, so nothing was done. Work with notes by path.";

export function commandRunFailure(run: Exclude<CommandRun, { kind: "ran" }>, id: string): string {
	switch (run.kind) {
		case "unavailable":
			return WORKSPACE_HEADLESS;
		case "scope-forbidden":
			return `Refused: ${scopeRuleSentence(run.refusal)} "${id}" was not run. ${scopeNextStep(run.refusal)}`;
		case "not-allowed":
			return (
				`Refused: the key "${run.key}" may not run Obsidian commands, so "${id}" was not ` +
				`run (a command changes notes with no revision). The person can allow this key in ` +
				`Obsidian: Settings → Revision Guard → Obsidian commands. Meanwhile, change notes ` +
				`with the note tools, which are guarded.`
			);
		case "unknown":
			return `There is no command "${id}". List the commands first and use an id from the list.`;
		case "not-run":
			return (
				`Obsidian did not run "${id}": it cannot run now (many commands need a note open ` +
				`in the active editor). Nothing was changed. Open the note first, then run it again.`
			);
	}
}

/** The facts beside a refused run, where it has a code of its own (a scope refusal's names its rule). */
export function commandRunFacts(run: Exclude<CommandRun, { kind: "ran" }>): Record<string, unknown> | undefined {
	return run.kind === "scope-forbidden" ? { error: "scope-forbidden", ...scopeFacts(run.refusal) } : undefined;
}

export function periodicFailure(resolution: Exclude<PeriodicResolution, { kind: "resolved" }>): string {
	switch (resolution.kind) {
		case "unknown-period":
			return `"${resolution.period}" is not a period: use daily, weekly, monthly, quarterly or yearly.`;
		case "invalid-date":
			return (
				`${resolution.day.year}-${resolution.day.month}-${resolution.day.day} is not a day ` +
				`of the calendar. Nothing was read or written.`
			);
		case "unsupported-format":
			return (
				`The ${resolution.period} notes' date format "${resolution.format}" uses "${resolution.token}", ` +
				`which this host cannot format. Nothing was read or written; the person can set another ` +
				`format (periodicNotes.${resolution.period} in the headless host's settings.json).`
			);
		case "invalid-path":
			return (
				`The ${resolution.period} note's path "${resolution.path}" is not a note this server serves: ${resolution.reason} ` +
				`Nothing was read or written.`
			);
	}
}
