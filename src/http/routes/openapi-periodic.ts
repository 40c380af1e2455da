/** The OpenAPI entries of /periodic/ (periodic-note.ts); openapi.ts hands in its shared pieces. */
import type { JsonValue } from "../response";

interface Shared {
	problemResponse: (description: string) => JsonValue;
	etagHeader: JsonValue;
	common: Record<string, JsonValue>;
	refusals: Record<string, JsonValue>;
	/** 202: the key may only propose changes to the note. */
	proposed: JsonValue;
}

const periodParam = {
	name: "period",
	in: "path",
	required: true,
	schema: { type: "string", enum: ["daily", "weekly", "monthly", "quarterly", "yearly"] },
};
const dayParams = [
	{ name: "year", in: "path", required: true, description: "Four digits.", schema: { type: "integer" } },
	{ name: "month", in: "path", required: true, description: "1 to 12.", schema: { type: "integer" } },
	{ name: "day", in: "path", required: true, description: "A day of that month.", schema: { type: "integer" } },
];
const NAMING =
	"Which note: inside Obsidian, as the person's Periodic Notes plugin names it for " +
	"a period it has on, else Daily notes (daily) or the Calendar plugin (weekly), with " +
	"Obsidian's moment; headless (and for a period none of them configures), the `periodicNotes` " +
	"settings (default: the vault root, formats YYYY-MM-DD, gggg-[W]ww, YYYY-MM, YYYY-[Q]Q, " +
	"YYYY). `Content-Location` names the note (its vault path, percent-encoded, as the " +
	"Local REST API sent it). Everything after the note (`heading/…`, `frontmatter/{key}`, " +
	"`block/{id}`) is a URL target, as under /vault/{path}. Each method is guarded exactly " +
	"as on /vault/{path}.";

export function periodicPaths({
	problemResponse,
	etagHeader,
	common,
	refusals,
	proposed,
}: Shared): Record<string, JsonValue> {
	const body = { required: true, content: { "text/markdown": { schema: { type: "string" } } } };
	const missing = problemResponse(
		"periodic-note-missing: no such note yet (GET, HEAD and DELETE never create one); unknown-period.",
	);
	const operations = (parameters: JsonValue[], which: string): JsonValue => ({
		get: {
			summary: `Read ${which}, as GET /vault/{path}. ${NAMING}`,
			parameters,
			responses: {
				"200": { description: "The note (or its JSON, or document map) and its ETag.", headers: etagHeader },
				"304": { description: "Unchanged since the If-None-Match tag.", headers: etagHeader },
				"404": missing,
				...common,
			},
		},
		put: {
			summary:
				`Create ${which} with the body, or replace it as PUT /vault/{path} does (If-Match, ` +
				`or this key's last read). With a URL target, the note is first created from its template when missing.`,
			parameters,
			requestBody: body,
			responses: {
				"201": { description: "Created.", headers: etagHeader },
				"204": { description: "Replaced.", headers: etagHeader },
				"202": proposed,
				"404": problemResponse("unknown-period."),
				...refusals,
				...common,
			},
		},
		post: {
			summary:
				`Append to ${which}. A missing note is created first from its template (empty without ` +
				`one), as the agent's own write, never over a note made meanwhile.`,
			parameters,
			requestBody: body,
			responses: {
				"204": { description: "Appended.", headers: etagHeader },
				"202": proposed,
				"404": problemResponse("unknown-period."),
				...refusals,
				...common,
			},
		},
		patch: {
			summary:
				`Patch ${which}, as PATCH /vault/{path}; a missing note is created from its template ` +
				`first (the patch may stand on that creation).`,
			parameters,
			requestBody: body,
			responses: {
				"200": { description: "Patched (format 2): the patched note.", headers: etagHeader },
				"204": { description: "Patched (format 1).", headers: etagHeader },
				"202": proposed,
				"404": problemResponse("unknown-period."),
				"412": refusals["412"]!,
				"428": refusals["428"]!,
				...common,
			},
		},
		delete: {
			summary:
				`Trash ${which}; needs If-Match (or a current last read). A URL target cannot be ` +
				`deleted (405: PATCH with Operation: delete).`,
			parameters,
			responses: {
				"204": { description: "Trashed." },
				"404": missing,
				"405": problemResponse("A URL target names a part: delete it with PATCH."),
				"412": refusals["412"]!,
				"428": refusals["428"]!,
				...common,
			},
		},
	});
	const unresolved = {
		"400": problemResponse(
			"invalid-periodic-date (no such day), invalid-path (the period's folder or format " +
				"makes a path this API does not serve), or a bad request.",
		),
		"501": problemResponse(
			"periodic-format-unsupported: the headless host cannot format the period's date format " +
				"(localized formats such as LL).",
		),
	};
	const withUnresolved = (paths: JsonValue): JsonValue => {
		const operationsByMethod = paths as Record<string, { responses: Record<string, JsonValue> }>;
		for (const operation of Object.values(operationsByMethod))
			operation.responses = { ...operation.responses, ...unresolved };
		return paths;
	};
	return {
		"/periodic/{period}/{year}/{month}/{day}/": withUnresolved(
			operations(
				[periodParam, ...dayParams],
				"the period's note holding that day (the week, month, quarter or year it falls in)",
			),
		),
		"/periodic/{period}/": withUnresolved(
			operations([periodParam], "the period's note for now (today's, this week's…)"),
		),
	};
}
