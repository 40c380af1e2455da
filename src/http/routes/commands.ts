/**
 * GET /commands/ and POST /commands/{id}/, as the Local REST API serves them, and POST /open/{path}. Running a command
 * is allowed only for keys the person allowed (a command changes notes with no revision); the service credits what it
 * changes to the key. Headless there are no commands and no panes: 501 obsidian-only.
 */
import { changeTagOf } from "../../core/revision-tokens";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import type { ChangedNote } from "../../service/notes/command-runs";
import { problem, refuse } from "../problems";
import { json, noContent, type ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { headersValue } from "./headers";
import { resolvePath } from "./note-path";

// The problem's title and howToFix already say this host has no Obsidian (LRA clients read all three as one
// `message`), so the detail says only what happened and where to go.
const HEADLESS =
	"Nothing was done: commands and opening notes need the plugin inside Obsidian. " +
	"Read and write notes with /vault/{path}.";

/** `/commands/{id}/`, the slash may be left out: the raw id. */
export function matchCommand(raw: string): string | null {
	const rest = raw.startsWith("/commands/") ? raw.slice("/commands/".length).replace(/\/$/, "") : "";
	return rest !== "" && !rest.includes("/") ? rest : null;
}

export async function listCommands(context: RequestContext): Promise<ApiResponse> {
	const listed = context.notes.commands.list(actorOf(context));
	if (listed.kind === "unavailable") return problem("obsidian-only", HEADLESS);
	// `allowed`: whether this key may run them (the person decides, per key).
	return json(
		200,
		{ commands: listed.commands.map(({ id, name }) => ({ id, name })), allowed: listed.allowed },
		{ "Cache-Control": "no-store" },
	);
}

export async function runCommand(context: RequestContext): Promise<ApiResponse> {
	let id: string;
	try {
		id = decodeURIComponent(context.rest);
	} catch {
		return refuse("bad-request", `"${context.rest}" is not valid percent-encoding. Nothing was run.`);
	}
	const run = await context.notes.commands.run(actorOf(context), id);
	switch (run.kind) {
		case "unavailable":
			return problem("obsidian-only", HEADLESS);
		case "scope-forbidden":
			return problem(
				"scope-forbidden",
				`${scopeRuleSentence(run.refusal)} "${id}" was not run. ${scopeNextStep(run.refusal)}`,
				{ id, ...scopeFacts(run.refusal) },
			);
		case "not-allowed":
			return problem(
				"commands-not-allowed",
				`The key "${run.key}" is not allowed to run Obsidian commands, so "${id}" was not ` +
					`run: a command changes notes with no revision at all. The person can allow this key ` +
					`in Obsidian (Settings → Revision Guard → Obsidian commands); meanwhile, change notes ` +
					`through /vault/{path}.`,
				{ id },
			);
		case "unknown":
			return problem(
				"command-not-found",
				`There is no command "${id}" in this Obsidian. List them with GET /commands/.`,
				{ id },
			);
		case "not-run":
			return problem(
				"command-not-run",
				`Obsidian did not run "${id}": it cannot run now (many commands need a note open ` +
					`in the active editor). Nothing was changed. Open the note first (POST /open/{path}), ` +
					`then run it again.`,
				{ id },
			);
		case "ran":
			if (!wantsRepresentation(headersValue(context, "prefer"))) return noContent();
			return json(
				200,
				{ id, changed: run.changed.map(describe), ...(run.unlisted > 0 ? { unlisted: run.unlisted } : {}) },
				{ "Preference-Applied": "return=representation" },
			);
	}
}

export async function openNote(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	const opened = await context.notes.openNote(
		actorOf(context),
		path,
		/^(1|true|yes)$/i.test(context.query.get("newLeaf") ?? ""),
	);
	if (opened === "unavailable") return problem("obsidian-only", HEADLESS);
	if (opened === "missing")
		return problem(
			"note-not-found",
			`There is no note at "${path}", so nothing was opened (opening never creates a note). ` +
				`Create it with PUT /vault/{path} first.`,
			{ path },
		);
	return json(200, { path, opened: true });
}

/** A changed note as an agent may see it: no content was shown, so its change tag, never its revision. */
function describe(note: ChangedNote): Record<string, string | boolean | undefined> {
	return {
		path: note.path,
		change: note.change,
		from: note.from,
		undoable: note.undoable,
		changeTag: note.revision === undefined ? undefined : changeTagOf(note.revision),
	};
}

/** `Prefer: return=representation` (RFC 7240): the changed notes instead of an empty 204. */
function wantsRepresentation(prefer: string | undefined): boolean {
	return (prefer ?? "")
		.split(",")
		.some((preference) => /^\s*return\s*=\s*"?representation"?\s*(;|$)/i.test(preference));
}
