/**
 * Table rows as JSON on a block that is a table: `value` is a list of rows, each a list of cell texts (one row alone
 * is taken as one row). append adds them after the last row, prepend right below the header, replace swaps the body
 * rows for them. Cells are content: a `|` is escaped; a line break, or a row with the wrong number of cells, is
 * refused rather than written as a broken table.
 */
import { fail, type PatchOperation, type PatchResult } from "./patch";

/** Rows a client sent, checked against a table of `columns` columns; or why they cannot go in. */
export function tableRows(value: unknown, columns: number): string[] | PatchResult {
	const rows =
		Array.isArray(value) && value.length > 0 && value.every((cell) => !Array.isArray(cell)) ? [value] : value;
	if (!Array.isArray(rows) || rows.length === 0 || !rows.every((row) => Array.isArray(row))) {
		return fail(
			"invalid-value",
			'Table rows are a JSON list of rows, each a list of cell texts, e.g. [["Chicago, IL", "16"]]; nothing was changed.',
		);
	}
	const lines: string[] = [];
	for (const row of rows as unknown[][]) {
		if (row.length !== columns)
			return fail(
				"invalid-value",
				`A row has ${row.length} cell${row.length === 1 ? "" : "s"} but the table has ${columns} ` +
					`columns; nothing was changed.`,
			);
		const cells: string[] = [];
		for (const cell of row) {
			if (typeof cell !== "string" && typeof cell !== "number" && typeof cell !== "boolean")
				return fail("invalid-value", "Each table cell is a text (or a number); nothing was changed.");
			const text = String(cell);
			if (/[\r\n]/.test(text))
				return fail(
					"invalid-value",
					"A table cell cannot hold a line break (a row is one line); send <br> for a break " +
						"inside a cell. Nothing was changed.",
				);
			cells.push(text.replace(/\\\|/g, "|").replace(/\|/g, "\\|").trim());
		}
		lines.push(`| ${cells.join(" | ")} |`);
	}
	return lines;
}

/**
 * The table in `text` (a block's body, without its id): its header and delimiter rows end at `bodyAt`, its rows after.
 * Null when the text is not a table.
 */
export function readTable(text: string): { columns: number; bodyAt: number } | null {
	const match = /^([^\r\n]*)\r?\n([^\r\n]*)(\r?\n|$)/.exec(text);
	if (!match || !match[1]!.includes("|") || !/^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/.test(match[2]!))
		return null;
	const columns = splitRow(match[1]!).length;
	if (columns !== splitRow(match[2]!).length) return null;
	return { columns, bodyAt: match[0].length };
}

function splitRow(line: string): string[] {
	const inner = line
		.trim()
		.replace(/^\|/, "")
		.replace(/(?<!\\)\|$/, "");
	return inner.split(/(?<!\\)\|/);
}

/** The table text with `rows` added or put in place. */
export function patchTableText(
	text: string,
	operation: Exclude<PatchOperation, "delete">,
	table: { bodyAt: number },
	rows: readonly string[],
	eol: string,
): string {
	const head = text.slice(0, table.bodyAt);
	const headEnded = /\n$/.test(head) ? head : head + eol;
	const body = text.slice(table.bodyAt);
	const added = rows.join(eol);
	switch (operation) {
		case "replace":
			return headEnded + added;
		case "prepend":
			return headEnded + added + (body === "" ? "" : eol + body);
		case "append":
			return body === "" ? headEnded + added : head + body + eol + added;
	}
}
