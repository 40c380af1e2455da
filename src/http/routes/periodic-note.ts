/**
 * /periodic/{period}/ and /periodic/{period}/{year}/{month}/{day}/: the daily (weekly, monthly, quarterly, yearly) note,
 * as the Local REST API served it until its 5.0.2. Each request resolves the note's path once and hands it to the very
 * handlers /vault/{path} (or, with a URL target after it, /vault/{path}/heading/…) uses, so every read and write is
 * guarded exactly alike. A GET never creates anything; POST and PATCH create a missing note from its template first
 * (the Local REST API's behaviour), as the agent's own guarded write; PUT creates it with the body.
 */
import type { PeriodicDay, PeriodicResolution } from "../../service/notes/periodic-notes";
import { problem, refuse } from "../problems";
import type { ApiResponse } from "../response";
import { actorOf, type Handler, type Method, type RequestContext } from "../router";
import { withRest } from "../request-context";
import { NOTE_TARGET_HANDLERS } from "./note-target";
import { patchNote } from "./vault-patch";
import { readVault } from "./vault-read";
import { appendNote, deleteNote, putNote } from "./vault-write";
import { respond } from "./write-answer";

const PREFIX = "/periodic/";
const DATED = /^[^/]+\/\d{4}\/\d{1,2}\/\d{1,2}(\/|$)/;
const TARGET_TYPES = ["heading", "frontmatter", "block"];

/** `/periodic/{period}/{year}/{month}/{day}/` (and anything after it): the remainder after /periodic/. */
export function matchPeriodicDay(raw: string): string | null {
	return raw.startsWith(PREFIX) && DATED.test(raw.slice(PREFIX.length)) ? raw.slice(PREFIX.length) : null;
}

/** `/periodic/{period}/` (the slash may be left out), and anything after it: the remainder after /periodic/. */
export function matchPeriodic(raw: string): string | null {
	return raw.startsWith(PREFIX) && raw.length > PREFIX.length && !raw.startsWith("/", PREFIX.length)
		? raw.slice(PREFIX.length)
		: null;
}

interface PeriodicUrl {
	period: string;
	day?: PeriodicDay;
	/** Raw segments of a URL target after the note (`heading/Plan`), or empty. */
	target: string[];
}

function parse(rest: string): PeriodicUrl {
	const segments = rest.split("/");
	const period = decodeSegment(segments[0]!);
	const dated = DATED.test(rest);
	const day = dated ? { year: Number(segments[1]), month: Number(segments[2]), day: Number(segments[3]) } : undefined;
	// Empty segments (a trailing slash) name nothing, as the Local REST API read them.
	const target = segments.slice(dated ? 4 : 1).filter((segment) => segment !== "");
	if (target.length > 0 && (!TARGET_TYPES.includes(target[0]!) || target.length < 2)) {
		refuse(
			"route-not-found",
			`/periodic/${rest} is not a periodic note or a part of one. Use /periodic/{period}/ ` +
				`(today's note), /periodic/{period}/{year}/{month}/{day}/ (another day's: there is ` +
				`no list of recent ones, read each day), or add heading/…, frontmatter/{key} or block/{id} after either.`,
		);
	}
	return { period, ...(day ? { day } : {}), target };
}

function decodeSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

export const PERIODIC_HANDLERS: Partial<Record<Method, Handler>> = {
	GET: onPeriodicNote("read"),
	PUT: onPeriodicNote("replace"),
	POST: onPeriodicNote("add"),
	PATCH: onPeriodicNote("add"),
	DELETE: onPeriodicNote("delete"),
};

/** What the request does to the note, which decides whether a missing note is created first. */
type Intent = "read" | "replace" | "add" | "delete";

function onPeriodicNote(intent: Intent): Handler {
	return async (context: RequestContext): Promise<ApiResponse> => {
		const url = parse(context.rest);
		const resolved = context.notes.periodic.resolve(url.period, url.day);
		if (resolved.kind !== "resolved") return unresolved(resolved);
		const { path } = resolved;
		if (intent === "delete" && url.target.length > 0) {
			return problem(
				"method-not-allowed",
				"A part of a note is not deleted with DELETE: send PATCH with Operation: delete to " +
					"the same URL. Nothing was changed.",
				{},
				{ Allow: "GET, HEAD, PUT, POST, PATCH" },
			);
		}
		// A missing note is created from its template for what adds to it: appends, patches, and a URL target's PUT.
		const creates = intent === "add" || (intent === "replace" && url.target.length > 0);
		if (creates) {
			const ensured = await context.notes.periodic.ensure(actorOf(context), resolved);
			if (ensured.kind === "refused") return respond(context, path, ensured.outcome);
		} else if (intent !== "replace" && !(await context.notes.periodic.exists(actorOf(context), resolved))) {
			const when = url.day ? `for ${url.day.year}-${url.day.month}-${url.day.day}` : "for now";
			return problem(
				"periodic-note-missing",
				`The ${resolved.period} note ${when} ("${path}") does not exist yet, so nothing was ${intent === "read" ? "read" : "deleted"}. ` +
					`POST or PATCH to this URL creates it from its template; PUT creates it with your body.`,
				{ path, period: resolved.period },
			);
		}
		const notePath = path.split("/").map(encodeURIComponent).join("/");
		const handlers = url.target.length > 0 ? NOTE_TARGET_HANDLERS : VAULT_HANDLERS;
		const handler = handlers[context.method] ?? (context.method === "HEAD" ? handlers.GET : undefined);
		if (!handler)
			return problem(
				"method-not-allowed",
				`${context.method} is not allowed here.`,
				{},
				{ Allow: "GET, HEAD, PUT, POST, PATCH, DELETE" },
			);
		const answer = await handler(withRest(context, [notePath, ...url.target].join("/")));
		// Which note the answer is about, as the Local REST API said it: the vault path, percent-encoded.
		return { ...answer, headers: { ...answer.headers, "Content-Location": encodeURI(path) } };
	};
}

const VAULT_HANDLERS: Partial<Record<Method, Handler>> = {
	GET: readVault,
	PUT: putNote,
	POST: appendNote,
	PATCH: patchNote,
	DELETE: deleteNote,
};

function unresolved(resolution: Exclude<PeriodicResolution, { kind: "resolved" }>): ApiResponse {
	switch (resolution.kind) {
		case "unknown-period":
			return problem(
				"unknown-period",
				`"${resolution.period}" is not a period; nothing was read or written. Use daily, ` +
					`weekly, monthly, quarterly or yearly.`,
				{ period: resolution.period },
			);
		case "invalid-date": {
			const { year, month, day } = resolution.day;
			return problem(
				"invalid-periodic-date",
				`${year}/${month}/${day} is not a day of the calendar, so nothing was read or written. ` +
					`Send /periodic/{period}/{year}/{month}/{day}/ with a real day.`,
			);
		}
		case "unsupported-format":
			return problem(
				"periodic-format-unsupported",
				`The ${resolution.period} notes' date format "${resolution.format}" uses "${resolution.token}", ` +
					`which this host cannot format, so nothing was read or written. Set another format ` +
					`for periodicNotes.${resolution.period} in the host's settings.json, or use /vault/{path}.`,
				{ period: resolution.period, format: resolution.format },
			);
		case "invalid-path":
			return problem(
				"invalid-path",
				`The ${resolution.period} note's path "${resolution.path}" (from its folder and date ` +
					`format settings) is not a note this API serves: ${resolution.reason} Nothing was ` +
					`read or written. Fix the period's folder or format, or use /vault/{path}.`,
				{ path: resolution.path },
			);
	}
}
