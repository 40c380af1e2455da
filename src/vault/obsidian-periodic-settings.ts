/**
 * How the person's own plugins name periodic notes, read as obsidian-daily-notes-interface (which the Local REST API
 * used through its 4.x releases) reads them: the Periodic Notes plugin first (its newer calendar sets, or its older
 * per-period settings) for a period it has turned on; else Daily notes (daily) or the Calendar plugin (weekly).
 * None of these settings is public API, so every value is checked and anything of an unexpected shape is skipped.
 */
import type { App } from "obsidian";
import { DEFAULT_PERIOD_FORMATS, type Period, type PeriodSettings } from "../core/periodic/periods";

/** The Periodic Notes plugin's name for each period in its calendar sets (1.x). */
const GRANULARITY: Record<Period, string> = {
	daily: "day",
	weekly: "week",
	monthly: "month",
	quarterly: "quarter",
	yearly: "year",
};

/** What any of these plugins keeps for a period: all optional, all unchecked until read here. */
interface RawSettings {
	enabled?: unknown;
	format?: unknown;
	folder?: unknown;
	template?: unknown;
	templatePath?: unknown;
}

/** The slice of App that reaches plugins, which Obsidian's typings do not include. */
interface PluginHost {
	plugins?: { getPlugin?(id: string): unknown };
	internalPlugins?: { getPluginById?(id: string): unknown };
}

export function obsidianPeriodSettings(app: App, period: Period): PeriodSettings | null {
	try {
		const host = app as unknown as PluginHost;
		const periodic = periodicNotesSettings(host, period);
		if (periodic && periodic.enabled === true) return settingsOf(periodic, period);
		if (period === "daily") {
			const daily = field(host.internalPlugins?.getPluginById?.("daily-notes"), "instance", "options");
			if (isRecord(daily)) return settingsOf(daily, period);
		}
		if (period === "weekly") {
			const calendar = field(host.plugins?.getPlugin?.("calendar"), "options");
			if (
				isRecord(calendar) &&
				(typeof calendar.weeklyNoteFormat === "string" || typeof calendar.weeklyNoteFolder === "string")
			) {
				return settingsOf(
					{
						format: calendar.weeklyNoteFormat,
						folder: calendar.weeklyNoteFolder,
						template: calendar.weeklyNoteTemplate,
					},
					period,
				);
			}
		}
	} catch {
		// Another plugin's internals changed shape: the period falls back to our own settings.
	}
	return null;
}

function periodicNotesSettings(host: PluginHost, period: Period): RawSettings | null {
	const plugin = host.plugins?.getPlugin?.("periodic-notes");
	if (!isRecord(plugin)) return null;
	const manager = plugin.calendarSetManager as { getActiveSet?(): unknown } | undefined;
	if (manager && typeof manager.getActiveSet === "function") {
		const set = manager.getActiveSet.call(manager);
		const raw = field(set, GRANULARITY[period]);
		return isRecord(raw) ? raw : null;
	}
	const raw = field(plugin.settings, period);
	return isRecord(raw) ? raw : null;
}

function settingsOf(raw: RawSettings, period: Period): PeriodSettings {
	const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
	return {
		format: text(raw.format) || DEFAULT_PERIOD_FORMATS[period],
		folder: text(raw.folder),
		template: text(raw.templatePath) || text(raw.template),
	};
}

function field(value: unknown, ...names: string[]): unknown {
	let current = value;
	for (const name of names) current = isRecord(current) ? current[name] : undefined;
	return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null;
}
