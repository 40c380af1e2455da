/**
 * periodic_note: which note is today's (this week's…) daily, weekly, monthly, quarterly or yearly note, or the one
 * holding a given day, and whether it exists; `create: true` makes a missing one from its template, as this key's
 * guarded write. The agent then reads and writes it by path with the other tools.
 */
import type { McpServer } from "../protocol/server";
import { z } from "../schema";
import { PERIODS } from "../../core/periodic/periods";
import type { ToolContext } from "./context";
import { toolError, guarded, ok } from "./context";
import { periodicFailure } from "./workspace-answers";
import type { WriteOutcome } from "../../service/write/guarded-writer";
import { scopeFacts, scopeNextStep, scopeRuleSentence } from "../../core/scope-refusal";
import { proposedResult } from "./proposed";

export const PERIODIC_NOTE_DESCRIPTION =
	"Find a periodic note: today's daily note (or this week's, month's, quarter's, year's), " +
	"or, with `date`, the one holding that day, named as the " +
	("person's daily/periodic notes settings name it. Returns its path and whether it " +
		"exists. With create: true, a missing note is created from ") +
	("its template (empty without one). Then use read_note, append_note, edit_note or " +
		"patch_note with the path (a note just created from a ") +
	"template counts as read in part: patch_note may stand on it; read_note before replacing it).";

export function registerPeriodicNote(server: McpServer, context: ToolContext): void {
	server.registerTool(
		"periodic_note",
		{
			title: "Find a periodic note",
			description: PERIODIC_NOTE_DESCRIPTION,
			inputSchema: {
				period: z.enum(PERIODS).describe("daily, weekly, monthly, quarterly or yearly."),
				date: z
					.string()
					.regex(/^\d{4}-\d{1,2}-\d{1,2}$/)
					.optional()
					.describe("A day as YYYY-MM-DD (default: today)."),
				create: z.boolean().optional().describe("true: create the note from its template when it does not exist yet."),
			},
			outputSchema: { path: z.string(), period: z.string(), exists: z.boolean(), created: z.boolean() },
			annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
		},
		({ period, date, create }) =>
			guarded(context, async () => {
				const [year, month, day] = (date ?? "").split("-").map(Number);
				const resolved = context.notes.periodic.resolve(
					period,
					date === undefined ? undefined : { year: year!, month: month!, day: day! },
				);
				if (resolved.kind !== "resolved") return toolError(periodicFailure(resolved));
				if (create !== true)
					return ok({
						path: resolved.path,
						period,
						exists: await context.notes.periodic.exists(context.actor(), resolved),
						created: false,
					});
				const ensured = await context.notes.periodic.ensure(context.actor(), resolved);
				if (ensured.kind === "refused") return ensureRefused(period, resolved.path, ensured.outcome);
				return ok({ path: resolved.path, period, exists: true, created: ensured.kind === "created" });
			}),
	);
}

/** A creation the writer refused (or turned into a proposal): what happened, with the refusal's code and its rule. */
function ensureRefused(period: string, path: string, outcome: WriteOutcome) {
	if (outcome.kind === "proposed") return proposedResult(outcome);
	const report = outcome.kind === "refused" ? outcome.report : null;
	const refusal = report?.refusal ?? null;
	const why = refusal?.reason === "scope-forbidden" ? ` ${scopeRuleSentence(refusal)} ${scopeNextStep(refusal)}` : "";
	return toolError(
		`The ${period} note ${JSON.stringify(path)} could not be created: the write was refused. Nothing was written.${why}`,
		{
			path,
			...(report ? { error: report.code } : {}),
			...(refusal?.reason === "scope-forbidden" ? scopeFacts(refusal) : {}),
		},
	);
}
