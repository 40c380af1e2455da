/**
 * `Markdown-Patch-Version`, the Local REST API 5.x switch between its two markdown-patch formats: 2 (the default:
 * JSON PATCH instructions, URL targets, the nested document map) and 1 (the header PATCH and the flat map, which
 * 5.x marks deprecated with a `Deprecation` header). Any other value is refused, as 5.x does.
 */
import { parseEntityTagCondition, type EntityTagCondition } from "../../core/revision";
import { Problem, refuse } from "../problems";
import type { ApiResponse } from "../response";
import type { RequestContext } from "../router";
import { headersValue } from "./headers";

export interface PatchVersion {
	version: 1 | 2;
	/** The client sent the header (header-targeted PATCH reads it to choose between the formats). */
	explicit: boolean;
}

/** What answers served the format 1 way carry, exactly as Local REST API 5.1 sends it (RFC 8594's sunset). */
export const DEPRECATION = { Deprecation: 'true; sunset-version="6.0"' };

/** Runs a format 1 request: its answer, a refusal thrown on the way included, carries DEPRECATION (as 5.1's does). */
export async function servedAsFormat1(run: () => Promise<ApiResponse>): Promise<ApiResponse> {
	try {
		return deprecated(await run());
	} catch (error) {
		if (error instanceof Problem) throw new Problem(deprecated(error.response));
		throw error;
	}
}

function deprecated(answer: ApiResponse): ApiResponse {
	return { ...answer, headers: { ...answer.headers, ...DEPRECATION } };
}

export function patchVersion(context: RequestContext): PatchVersion {
	const raw = headersValue(context, "markdown-patch-version");
	if (raw === undefined) return { version: 2, explicit: false };
	const value = raw.trim();
	if (value === "1" || value === "2") return { version: value === "1" ? 1 : 2, explicit: true };
	return refuse(
		"invalid-patch-version",
		`Markdown-Patch-Version "${raw.slice(0, 40)}" is not a version this API speaks: send ` +
			`1 or 2, or leave the header out (2). Nothing was read or written.`,
	);
}

/**
 * A revision as Local REST API 5.x clients send it: the document map's `version` bare, or the ETag quoted. The
 * JSON field and the If-Match header may both be given only when they agree.
 */
export function lenientIfMatch(context: RequestContext, fromBody?: string): EntityTagCondition {
	const header = headersValue(context, "if-match");
	const fromHeader = asCondition(header);
	if (fromBody === undefined) return fromHeader;
	const sent = asCondition(fromBody);
	if (header !== undefined && JSON.stringify(sent) !== JSON.stringify(fromHeader)) {
		return refuse(
			"invalid-patch-instruction",
			"The instruction's ifMatch and the If-Match header name different revisions, so it " +
				"is not clear which one you read. Send one of them. Nothing was written.",
		);
	}
	return sent;
}

function asCondition(raw: string | undefined): EntityTagCondition {
	if (raw === undefined) return { kind: "absent" };
	const value = raw.trim();
	if (value === "*" || value.startsWith('"') || value.startsWith("W/")) return parseEntityTagCondition(value);
	return parseEntityTagCondition(`"${value}"`);
}

/** Targets arrive percent-encoded (headers cannot carry most of Unicode); a stray literal % is taken as it is. */
export function percentDecoded(raw: string): string {
	try {
		return decodeURIComponent(raw.trim());
	} catch {
		return raw.trim();
	}
}

/** The body declares itself a whole PATCH instruction (`application/vnd.olrapi.patch-instruction+json`). */
export function isInstructionBody(context: RequestContext): boolean {
	return /^\s*application\/vnd\.olrapi\.patch-instruction\+json\s*(;|$)/i.test(
		headersValue(context, "content-type") ?? "",
	);
}
