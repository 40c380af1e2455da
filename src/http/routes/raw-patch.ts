/**
 * Local REST API 5.x "raw-content mode": the target in the URL (/vault/{note}/heading/A/B) or, under an explicit
 * `Markdown-Patch-Version: 2`, in `Target-Type`/`Target` headers (a heading `Target` is percent-encoded JSON: a list
 * of heading texts); the operation in `Operation` (or implied by PUT and POST); the payload is the body itself.
 */
import type { PatchInstruction, PatchOperation, PatchTargetType } from "../../core/patch";
import { resolveTarget } from "../../core/patch-instruction";
import { algebraError } from "../../core/patch-algebra";
import { refuse } from "../problems";
import type { ApiResponse } from "../response";
import type { RequestContext } from "../router";
import { LRA_CASE } from "../lra-error-codes";
import { lenientIfMatch, patchVersion, percentDecoded } from "./patch-version";
import { writePatch } from "./patch-write";
import { headersValue } from "./headers";
import { patchHeaderOptions } from "./patch-headers";
import { heldRevision } from "./write-answer";

export interface RawTarget {
	type: PatchTargetType;
	/** A frontmatter key or block id; a heading path joined with `::` (for messages). */
	target: string;
	/** A heading's path, outermost first. */
	path?: string[];
	/** Named the format 1 way (`Target: A::B`): headings in the payload are then taken as written, not rebased. */
	format1?: boolean;
}

const TYPES: readonly PatchTargetType[] = ["heading", "block", "frontmatter"];
const OPERATIONS: readonly PatchOperation[] = ["append", "prepend", "replace", "delete"];

/** The target named by `Target-Type` and `Target` under format 2. */
export function headerTarget(context: RequestContext): RawTarget {
	const type = headersValue(context, "target-type")?.trim().toLowerCase();
	const raw = headersValue(context, "target");
	if (type === undefined || raw === undefined || !TYPES.includes(type as PatchTargetType)) {
		return invalid(
			"Header targeting under Markdown-Patch-Version: 2 needs Target-Type (heading, block " +
				"or frontmatter) and Target: for a heading, a percent-encoded JSON list of heading " +
				'texts (encodeURIComponent(JSON.stringify(["Plan", "Next steps"]))); for a block its ' +
				"id, for frontmatter its key. Nothing was written.",
		);
	}
	let target: unknown = percentDecoded(raw);
	if (type === "heading") {
		try {
			target = JSON.parse(target as string);
		} catch {
			return invalid(
				'Under Markdown-Patch-Version: 2 a heading Target is percent-encoded JSON, e.g. encodeURIComponent(JSON.stringify(["Plan", ' +
					'"Next steps"])); send Markdown-Patch-Version: 1 for the "Plan::Next steps" form. ' +
					"Nothing was written.",
			);
		}
	}
	const resolved = resolveTarget(type as PatchTargetType, target);
	if (typeof resolved === "string") return invalid(resolved);
	return { type: type as PatchTargetType, ...resolved };
}

/**
 * The part of a note that `Target-Type` and `Target` (split on `Target-Delimiter`, default `::`) name on a GET, PUT
 * or POST, as Local REST API 4.x clients send them: the request then acts on that part, never on the whole note.
 * Local REST API 5.1 does this only under `Markdown-Patch-Version: 1` (the caller marks its answer deprecated) and
 * refuses the headers otherwise; so do we, rather than guess which format they mean.
 */
export function format1Target(context: RequestContext): RawTarget | null {
	const type = headersValue(context, "target-type")?.trim().toLowerCase();
	const raw = headersValue(context, "target");
	if (type === undefined && raw === undefined) return null;
	const together =
		"Target-Type (heading, block or frontmatter) and Target go together, and name the " +
		"part of the note this request acts on. Nothing was read or written.";
	if (type === undefined)
		return refuse("patch-target-not-supported", together, { errorCode: LRA_CASE.missingTargetType });
	if (!TYPES.includes(type as PatchTargetType))
		return refuse(
			"patch-target-not-supported",
			`Target-Type "${type.slice(0, 40)}" is not one of heading, block or frontmatter. ${together}`,
		);
	if (raw === undefined || raw.trim() === "")
		return refuse("patch-target-not-supported", together, { errorCode: LRA_CASE.missingTarget });
	if (patchVersion(context).version !== 1) {
		return refuse(
			"header-target-needs-version",
			`Target-Type and Target name a part of the note only under Markdown-Patch-Version: ` +
				`1 (the deprecated header format), so nothing was read or written. Add Markdown-Patch-Version: ` +
				`1, or name the part in the URL: /vault/{note}/${type}/{${type === "heading" ? "A}/{B" : type === "block" ? "id" : "key"}}.`,
		);
	}
	if (context.method === "GET" || context.method === "HEAD") patchHeaderOptions(context, "read");
	const target = percentDecoded(raw);
	if (type !== "heading") return { type: type as PatchTargetType, target, format1: true };
	const delimiter = headersValue(context, "target-delimiter") || "::";
	return { type: "heading", target, path: target.split(delimiter).map((part) => part.trim()), format1: true };
}

/**
 * Writes the body to the target, guarded like PUT. `implied` is PUT's replace or POST's append; PATCH reads Operation
 * and the option headers (Target-Scope, Within, Destination, Reject-If-Content-Preexists; format 1 also
 * Trim-Target-Whitespace). The body is the payload: text is content, JSON a frontmatter value or a table's rows, and
 * no body carries nothing (a delete, or a move).
 */
export async function rawPatch(
	context: RequestContext,
	path: string,
	target: RawTarget,
	implied?: PatchOperation,
): Promise<ApiResponse> {
	if (!target.format1 && headersValue(context, "target-delimiter") !== undefined)
		invalid(
			"Target-Delimiter belongs to Markdown-Patch-Version: 1; here each heading is its " +
				"own URL segment (or a JSON list), so no delimiter is needed. Nothing was written.",
		);
	const operation = implied ?? (headersValue(context, "operation")?.trim().toLowerCase() as PatchOperation | undefined);
	if (operation === undefined || !OPERATIONS.includes(operation))
		invalid(
			`PATCH here needs an Operation header: append, prepend, replace or delete${operation ? ` (not "${operation.slice(0, 40)}")` : ""}. ` +
				`Nothing was written.`,
			operation === undefined ? LRA_CASE.missingOperation : LRA_CASE.invalidOperation,
		);
	const options = patchHeaderOptions(context, target.format1 ? "format1" : implied ? "implied" : "raw");
	const ifMatch = lenientIfMatch(context);
	const held = heldRevision(context, path);
	const body = await context.body();
	const json = /^\s*application\/json\s*(;|$)/i.test(headersValue(context, "content-type") ?? "");
	if (json && target.type === "heading")
		invalid("A heading takes markdown text, not JSON: send the body as text/markdown. Nothing was written.");
	const move = options.scope === "parent";
	if (body === "" && operation !== "delete" && !move)
		invalid(
			`The body is empty, so there is nothing to ${operation}. To empty the ${target.type === "frontmatter" ? "value" : "section"}, ` +
				`send Operation: delete. Nothing was written.`,
		);
	if (move && body !== "")
		invalid(
			"A move (Target-Scope: parent) carries its destination in the Destination header and no body. Nothing was written.",
		);
	const instruction: PatchInstruction = {
		operation,
		targetType: target.type,
		target: target.target,
		...(target.path ? { headingPath: target.path, relativeHeadings: !target.format1 } : {}),
		json: json && operation !== "delete",
		createTargetIfMissing: headersValue(context, "create-target-if-missing")?.trim().toLowerCase() === "true",
		...options,
	};
	const outside = algebraError(instruction, operation === "delete" ? "" : body);
	if (outside !== null) invalid(outside);
	return writePatch(context, {
		path,
		instruction,
		body: operation === "delete" ? "" : body,
		ifMatch,
		held,
		answerWithNote: true,
	});
}

/** `errorCode`: LRA's finer code, where the request's headers (not an instruction) were wrong. */
function invalid(detail: string, errorCode?: number): never {
	return refuse("invalid-patch-instruction", detail, errorCode === undefined ? {} : { errorCode });
}
