/**
 * A Dataview answer as the Local REST API 3.x–4.x answered DQL: TABLE queries only (with their file column), one
 * `{filename, result}` per row, `result` holding the other columns by name. Dataview's values (links, dates,
 * durations) become the JSON they serialize to.
 */
import type { DataviewAnswer } from "../../vault/search-host";

export interface DataviewRow {
	filename: string;
	result: Record<string, unknown>;
}

export type DataviewRows = { kind: "rows"; rows: DataviewRow[] } | { kind: "invalid-query"; reason: string };

export function dataviewRows(answer: DataviewAnswer, idColumn: string): DataviewRows {
	if (!answer.successful)
		return { kind: "invalid-query", reason: `Dataview could not run the query: ${String(answer.error)}` };
	const { type, headers, values } = answer.value;
	if (type !== "table" || !Array.isArray(headers))
		return {
			kind: "invalid-query",
			reason: `Only TABLE Dataview queries are supported (this one is ${String(type).toUpperCase()}).`,
		};
	if (!headers.includes(idColumn))
		return {
			kind: "invalid-query",
			reason: "TABLE WITHOUT ID queries are not supported: each row must name its note.",
		};
	const rows: DataviewRow[] = [];
	for (const row of values) {
		if (!Array.isArray(row)) continue;
		const filename = linkPath(row[0]);
		if (filename === null) continue;
		const result: Record<string, unknown> = {};
		headers.forEach((header, index) => {
			if (header !== idColumn) result[header] = plain(row[index]);
		});
		rows.push({ filename, result });
	}
	return { kind: "rows", rows };
}

/** The path of Dataview's file link in a row's first column. */
function linkPath(value: unknown): string | null {
	const path = typeof value === "object" && value !== null ? (value as { path?: unknown }).path : undefined;
	return typeof path === "string" ? path : null;
}

/** What JSON.stringify makes of a Dataview value (its links, dates and durations define toJSON), or its text. */
function plain(value: unknown): unknown {
	if (value === undefined) return null;
	try {
		return JSON.parse(JSON.stringify(value)) as unknown;
	} catch {
		// A value JSON cannot carry (a cycle, a BigInt): its type, rather than nothing.
		return `(${typeof value})`;
	}
}
