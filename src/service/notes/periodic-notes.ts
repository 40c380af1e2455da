/**
 * Periodic notes for agents (the Local REST API's /periodic/ routes, dropped in its 5.0.2): which note a period names
 * for a day, and, for writes that need the note to exist, creating it from its template. Inside Obsidian the person's
 * Periodic Notes, Daily notes or Calendar settings name the note, with Obsidian's moment; headless, and for a period
 * none of them configures, our own `periodicNotes` settings do. A note is only ever created through the guarded
 * writer, as the agent's write, and only where there is none (If-None-Match: *).
 */
import { validateVaultPath, type PathPolicy } from "../../core/path";
import { formatDate } from "../../core/periodic/date-format";
import {
	calendarDay,
	fillTemplate,
	isPeriod,
	periodicNotePath,
	templateNotePath,
	type DateFormatter,
	type Period,
	type PeriodSettings,
} from "../../core/periodic/periods";
import type { RevisionGuardSettings } from "../../settings";
import type { HostWorkspace } from "../../vault/workspace";
import type { AgentActor } from "./actor";
import type { WriteOutcome, WriteRequest } from "../write/write-request";
import type { ScopeGate } from "../scopes/scope-gate";
import { refusedWithout } from "../refusals/refusal";

export interface PeriodicDay {
	year: number;
	month: number;
	day: number;
}

export type PeriodicResolution =
	/** `configuredBy`: whose settings named the note (the person's Obsidian plugins, or ours). */
	| {
			kind: "resolved";
			period: Period;
			path: string;
			title: string;
			date: Date;
			settings: PeriodSettings;
			configuredBy: "obsidian" | "revision-guard";
	  }
	| { kind: "unknown-period"; period: string }
	| { kind: "invalid-date"; day: PeriodicDay }
	| { kind: "unsupported-format"; period: Period; format: string; token: string }
	| { kind: "invalid-path"; period: Period; path: string; reason: string };

export type EnsureOutcome =
	| { kind: "existed" }
	| { kind: "created"; templateUsed: boolean }
	/** The create was refused by the writer (a .bak note, a read-only backup path…): answer it as any refused write. */
	| { kind: "refused"; outcome: WriteOutcome };

export interface PeriodicNotesDeps {
	workspace: HostWorkspace | null;
	settings: () => RevisionGuardSettings;
	pathPolicy: () => PathPolicy;
	now: () => number;
	exists: (path: string) => Promise<boolean>;
	/** A note's text as it is now (the template), without counting as anyone's read. */
	readText: (path: string) => Promise<string | null>;
	write: (request: WriteRequest) => Promise<WriteOutcome>;
	/** The agent made the note from its template without seeing it: a read of part of it (a patch may stand on it). */
	recordPartRead: (actor: AgentActor, path: string, revision: string) => void;
	/** What the caller's key may see: a periodic note it may not see is not there for it, nor is a template. */
	scopes: ScopeGate;
}

export class PeriodicNotes {
	/** Creations under way, per note: a second request for the same new note waits for the first instead of racing it. */
	private readonly creating = new Map<string, Promise<EnsureOutcome>>();

	constructor(private readonly deps: PeriodicNotesDeps) {}

	/** The note `period` names for `day` (today when absent); nothing is read or written. */
	resolve(period: string, day?: PeriodicDay): PeriodicResolution {
		if (!isPeriod(period)) return { kind: "unknown-period", period };
		const date = day === undefined ? new Date(this.deps.now()) : calendarDay(day.year, day.month, day.day);
		if (date === null) return { kind: "invalid-date", day: day! };
		const own = this.deps.workspace?.periodSettings(period) ?? null;
		const settings = own ?? this.deps.settings().periodicNotes[period];
		const name = periodicNotePath(settings, date, this.formatter());
		if (!name.ok) return { kind: "unsupported-format", period, format: settings.format, token: name.token };
		const checked = validateVaultPath(name.path, this.deps.pathPolicy(), "note");
		if (!checked.ok) return { kind: "invalid-path", period, path: name.path, reason: checked.reason };
		return {
			kind: "resolved",
			period,
			path: checked.path,
			title: name.title,
			date,
			settings,
			configuredBy: own ? "obsidian" : "revision-guard",
		};
	}

	/** Whether the note is there for `actor` (one its key may not see is not). */
	async exists(actor: AgentActor, resolved: Extract<PeriodicResolution, { kind: "resolved" }>): Promise<boolean> {
		return this.deps.scopes.visible(actor, resolved.path) && (await this.deps.exists(resolved.path));
	}

	/**
	 * Makes sure the note exists before a write that adds to it (append, patch): a missing one is created from its
	 * template (empty without one), as the Local REST API did, but as this agent's guarded write.
	 */
	ensure(actor: AgentActor, resolved: Extract<PeriodicResolution, { kind: "resolved" }>): Promise<EnsureOutcome> {
		const running = this.creating.get(resolved.path);
		if (running) return running.then((outcome) => (outcome.kind === "created" ? { kind: "existed" } : outcome));
		const creation = this.create(actor, resolved).finally(() => this.creating.delete(resolved.path));
		this.creating.set(resolved.path, creation);
		return creation;
	}

	private async create(
		actor: AgentActor,
		resolved: Extract<PeriodicResolution, { kind: "resolved" }>,
	): Promise<EnsureOutcome> {
		if (await this.deps.exists(resolved.path)) return { kind: "existed" };
		// A template the key may not see would reach it through the note made from it: refused, never filled in.
		const templatePath = templateNotePath(resolved.settings);
		const hiddenTemplate = templatePath === null ? null : this.deps.scopes.hiddenRefusal(actor, templatePath);
		if (hiddenTemplate !== null) return { kind: "refused", outcome: refusedWithout(hiddenTemplate, null) };
		const template = await this.templateText(resolved.settings);
		const body =
			template === null
				? ""
				: fillTemplate(template, {
						date: resolved.date,
						noteFormat: resolved.settings.format,
						title: resolved.title,
						format: this.formatter(),
					});
		const outcome = await this.deps.write({
			path: resolved.path,
			operation: { kind: "replace", body },
			ifMatch: { kind: "absent" },
			// Only where there is no note: one made meanwhile is never replaced.
			ifNoneMatch: { kind: "any" },
			actor,
			heldRevision: null,
			allowEmpty: true,
			// The agent did not send this text: its answer shows none of it.
			unseenBody: true,
		});
		if (outcome.kind === "written") {
			this.deps.recordPartRead(actor, resolved.path, outcome.revision);
			return { kind: "created", templateUsed: template !== null };
		}
		if (outcome.kind === "refused" && outcome.refusal.reason === "exists") return { kind: "existed" };
		return { kind: "refused", outcome };
	}

	/** The template's text, when one is set and it is a note this API serves (a missing one gives an empty note). */
	private async templateText(settings: PeriodSettings): Promise<string | null> {
		const path = templateNotePath(settings);
		if (path === null || !validateVaultPath(path, this.deps.pathPolicy(), "note").ok) return null;
		return this.deps.readText(path);
	}

	private formatter(): DateFormatter {
		const { workspace } = this.deps;
		return workspace ? (format, date) => workspace.formatDate(format, date) : formatDate;
	}
}
