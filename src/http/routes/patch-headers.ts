/**
 * The Local REST API's PATCH option headers, read as LRA 5.1 defines them for each way a request names a part of a
 * note: `Target-Scope`, `Within`, `Destination`, `Reject-If-Content-Preexists` (and its older opposite
 * `Apply-If-Content-Preexists`) and `Trim-Target-Whitespace`. A header that a format has no meaning for is refused by
 * name rather than ignored: dropped silently, it would make the request do something else than the client asked
 * for (a `Target-Scope: marker` rename that replaces a section's body instead).
 */
import { PATCH_SCOPES, type PatchDestination, type PatchScope } from "../../core/patch";
import { parseDestination } from "../../core/patch-instruction";
import { LRA_CASE } from "../lra-error-codes";
import { refuse } from "../problems";
import type { RequestContext } from "../router";
import { headersValue } from "./headers";

/**
 * How the request names its part: `raw` (PATCH raw-content mode: a URL target or format 2 Target headers), `format1`
 * (the 1.x headers, on PATCH or on PUT/POST), `implied` (PUT or POST on a URL target), `instruction` (a JSON PATCH
 * instruction: its options are fields, not headers), `read` (GET of a part: Target-Scope narrows what it reads).
 */
export type HeaderFormat = "raw" | "format1" | "implied" | "instruction" | "read";

export interface PatchHeaderOptions {
	scope?: PatchScope;
	within?: number;
	destination?: PatchDestination;
	rejectIfContentPreexists?: boolean;
	trimTargetWhitespace?: boolean;
}

export function patchHeaderOptions(context: RequestContext, format: HeaderFormat): PatchHeaderOptions {
	const options: PatchHeaderOptions = {};
	const scope = headersValue(context, "target-scope")?.trim();
	if (scope !== undefined && scope !== "") {
		const allowed: readonly string[] =
			format === "raw"
				? PATCH_SCOPES
				: format === "format1" || format === "read"
					? ["content", "marker", "markerAndContent"]
					: ["content"];
		if (!allowed.includes(scope)) {
			if (format === "instruction")
				unsupported(
					"Target-Scope",
					scope,
					'A JSON instruction carries its scope as the field "scope"; the header is not read with it.',
				);
			if (format === "implied")
				unsupported(
					"Target-Scope",
					scope,
					"A PUT or POST of a URL target acts on the part's content only. To rename, move or " +
						"rewrite a heading or block whole, send a PATCH with Target-Scope.",
				);
			invalid(
				`Target-Scope "${scope.slice(0, 40)}" is not a scope ${format === "read" ? "a read takes (parent places a section, it has nothing to read)" : "here"}: send ${allowed.join(", ")}${format === "format1" ? " (parent, a move, is format 2 only)" : ""}. Nothing was ${format === "read" ? "read" : "written"}.`,
				LRA_CASE.invalidTargetScopeHeader,
			);
		}
		if (scope !== "content") options.scope = scope as PatchScope;
	}
	const within = headersValue(context, "within");
	if (within !== undefined) {
		if (format !== "raw")
			unsupported(
				"Within",
				within,
				format === "instruction"
					? 'A JSON instruction carries it as the field "within".'
					: "Within belongs to a format 2 PATCH (a URL target, or Target-Type/Target with Markdown-Patch-Version: 2).",
			);
		if (!/^-?\d{1,15}$/.test(within.trim()))
			invalid(
				`Within must be a whole number (0 the first block of the section's own body, -1 the last), not "${within.slice(0, 40)}". ` +
					`Nothing was written.`,
				LRA_CASE.invalidWithinHeader,
			);
		options.within = Number(within.trim());
	}
	const destination = headersValue(context, "destination");
	if (destination !== undefined) {
		if (format !== "raw")
			unsupported(
				"Destination",
				destination,
				format === "instruction"
					? 'A JSON instruction carries it as the field "destination".'
					: "Moving a heading is a format 2 PATCH with Target-Scope: parent and a Destination header.",
			);
		options.destination = readDestination(destination);
	}
	const reject = flag(context, "reject-if-content-preexists", "Reject-If-Content-Preexists");
	// Before Local REST API 5.1 the duplicate check was on unless Apply-If-Content-Preexists said true.
	const apply = flag(context, "apply-if-content-preexists", "Apply-If-Content-Preexists");
	if (reject === true || apply === false) {
		if (format === "instruction")
			unsupported(
				reject === true ? "Reject-If-Content-Preexists" : "Apply-If-Content-Preexists",
				String(reject ?? apply),
				'A JSON instruction carries it as the field "rejectIfContentPreexists".',
			);
		if (format !== "read") options.rejectIfContentPreexists = true;
	}
	const trim = headersValue(context, "trim-target-whitespace");
	if (trim !== undefined && format !== "read") {
		const value = flag(context, "trim-target-whitespace", "Trim-Target-Whitespace");
		// Raw-content mode refuses it whatever its value, as LRA 5.1 does: a 1.x client's request must not be reread as format 2.
		if (format !== "format1" && (value || format === "raw")) {
			unsupported(
				"Trim-Target-Whitespace",
				trim,
				"It belongs to the 1.x header format (Markdown-Patch-Version: 1); format 2 owns the " +
					"whitespace at a target's edges, as Local REST API 5.x does.",
			);
		}
		if (value) options.trimTargetWhitespace = true;
	}
	return options;
}

/** `true`/`false` (any case), or undefined when the header is absent; anything else is refused. */
function flag(context: RequestContext, name: string, header: string): boolean | undefined {
	const raw = headersValue(context, name);
	if (raw === undefined) return undefined;
	const value = raw.trim().toLowerCase();
	if (value === "true" || value === "false") return value === "true";
	return invalid(`${header} is true or false, not "${raw.slice(0, 40)}". Nothing was read or written.`);
}

function readDestination(raw: string): PatchDestination {
	let parsed: unknown;
	try {
		parsed = JSON.parse(decodeURIComponent(raw.trim()));
	} catch {
		return invalid(
			'The Destination header is percent-encoded JSON, e.g. encodeURIComponent(JSON.stringify({"parent": ' +
				'["Appendix"], "place": "last"})). Nothing was written.',
			LRA_CASE.invalidDestinationHeader,
		);
	}
	const destination = parseDestination(parsed);
	return typeof destination === "string" ? invalid(destination, LRA_CASE.invalidDestinationHeader) : destination;
}

function unsupported(header: string, value: string, why: string): never {
	return refuse(
		"unsupported-header",
		`${header}: ${value.slice(0, 60)} is not read here, so nothing was read or written. ${why}`,
		{ header },
	);
}

/** A header value the request cannot mean; `errorCode` is LRA's finer code for that header, where it has one. */
function invalid(detail: string, errorCode?: number): never {
	return refuse("invalid-patch-instruction", detail, errorCode === undefined ? {} : { errorCode });
}
