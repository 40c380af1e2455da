/**
 * Periodic notes (daily, weekly, monthly, quarterly, yearly), as Obsidian's Daily notes and the Periodic Notes plugin
 * name them: a folder, a moment date format for the file's name (which may hold "/" and so span folders), and a
 * template note. Pure: which note a period and a day name, and what a template becomes for that day.
 */
import type { FormatResult } from "./date-format";

export const PERIODS = ["daily", "weekly", "monthly", "quarterly", "yearly"] as const;
export type Period = (typeof PERIODS)[number];

export interface PeriodSettings {
	/** Vault-relative folder ("" for the vault root). */
	folder: string;
	/** Moment date format of the note's name (without ".md"). */
	format: string;
	/** Vault-relative path of the template note ("" for none); ".md" may be left out, as Obsidian's settings do. */
	template: string;
}

/** The formats the Periodic Notes plugin (and the Local REST API 5.0) use when none is set. */
export const DEFAULT_PERIOD_FORMATS: Record<Period, string> = {
	daily: "YYYY-MM-DD",
	weekly: "gggg-[W]ww",
	monthly: "YYYY-MM",
	quarterly: "YYYY-[Q]Q",
	yearly: "YYYY",
};

export function defaultPeriodSettings(): Record<Period, PeriodSettings> {
	const entries = PERIODS.map(
		(period) => [period, { folder: "", format: DEFAULT_PERIOD_FORMATS[period], template: "" }] as const,
	);
	return Object.fromEntries(entries) as Record<Period, PeriodSettings>;
}

export function isPeriod(value: string): value is Period {
	return (PERIODS as readonly string[]).includes(value);
}

/** Formats a date with a moment format: Obsidian's moment inside Obsidian, date-format.ts headless. */
export type DateFormatter = (format: string, date: Date) => FormatResult;

export type PeriodicName = { ok: true; path: string; title: string } | { ok: false; token: string };

/** The vault path of the period's note for `date`: `<folder>/<date in the format>.md`. */
export function periodicNotePath(settings: PeriodSettings, date: Date, format: DateFormatter): PeriodicName {
	const name = format(settings.format.trim() || "YYYY-MM-DD", date);
	if (!name.ok) return name;
	const folder = settings.folder.trim().replace(/^\/+|\/+$/g, "");
	const title = name.text.slice(name.text.lastIndexOf("/") + 1);
	return { ok: true, path: `${folder === "" ? "" : `${folder}/`}${name.text}.md`, title };
}

/** The template note's path as configured, with ".md" added when it was left out. */
export function templateNotePath(settings: PeriodSettings): string | null {
	const template = settings.template.trim().replace(/^\/+/, "");
	if (template === "") return null;
	return /\.md$/i.test(template) ? template : `${template}.md`;
}

/** The local day a dated URL names (noon, so no daylight-saving change moves it), or null when there is no such day. */
export function calendarDay(year: number, month: number, day: number): Date | null {
	if (![year, month, day].every(Number.isInteger) || year < 1 || year > 9999) return null;
	const date = new Date(year, month - 1, day, 12);
	date.setFullYear(year);
	return date.getMonth() === month - 1 && date.getDate() === day ? date : null;
}

/**
 * A template filled in for a note: `{{title}}` (the note's name), `{{date}}` (the day in the note's format), `{{time}}`
 * (HH:mm), and `{{date:FORMAT}}` / `{{time:FORMAT}}` in a format of their own. A placeholder whose format cannot be
 * formatted is left as it is.
 */
export function fillTemplate(
	template: string,
	fill: { date: Date; noteFormat: string; title: string; format: DateFormatter },
): string {
	return template.replace(
		/{{\s*(date|time|title)\s*(?::([^}]*))?}}/gi,
		(whole, name: string, own: string | undefined) => {
			const kind = name.toLowerCase();
			if (kind === "title") return fill.title;
			const pattern = own?.trim() || (kind === "date" ? fill.noteFormat : "HH:mm");
			const formatted = fill.format(pattern, fill.date);
			return formatted.ok ? formatted.text : whole;
		},
	);
}
