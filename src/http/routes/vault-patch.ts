/**
 * PATCH /vault/{path}, in each format Local REST API clients send:
 * - format 2 (the default): a JSON instruction body (`targetType`, `target`, `operation`, `content`/`value`, `ifMatch`);
 * - format 2 raw-content mode with `Target-Type`/`Target` headers (explicit `Markdown-Patch-Version: 2`; a heading
 *   `Target` is percent-encoded JSON), the body being the payload;
 * - format 1: `Operation`, `Target-Type`, `Target` (`A::B`) headers, under `Markdown-Patch-Version: 1`; without a
 *   version, these headers are refused (Local REST API 5.1 does the same: they mean different things in 1 and 2).
 * The handler only parses; every format is written by writePatch, guarded exactly like PUT.
 */
import { parseEntityTagCondition } from "../../core/revision";
import { parsePatchInstruction } from "../../core/patch-instruction";
import type { PatchInstruction, PatchOperation } from "../../core/patch";
import { refuse } from "../problems";
import type { ApiResponse } from "../response";
import type { RequestContext } from "../router";
import { LRA_CASE } from "../lra-error-codes";
import { resolveWritePath } from "./note-path";
import { isInstructionBody, lenientIfMatch, patchVersion, percentDecoded, servedAsFormat1 } from "./patch-version";
import { writePatch } from "./patch-write";
import { headerTarget, rawPatch } from "./raw-patch";
import { patchHeaderOptions } from "./patch-headers";
import { headersValue } from "./headers";
import { heldRevision } from "./write-answer";

const OPERATIONS: readonly PatchOperation[] = ["append", "prepend", "replace"];

export async function patchNote(context: RequestContext): Promise<ApiResponse> {
	const path = resolveWritePath(context);
	const { version, explicit } = patchVersion(context);
	const headerTargeted =
		headersValue(context, "target-type") !== undefined || headersValue(context, "target") !== undefined;
	if (headerTargeted && isInstructionBody(context)) {
		refuse(
			"conflicting-target",
			"The body is a PATCH instruction (application/vnd.olrapi.patch-instruction+json), " +
				"which names its own target, and so do the Target-Type/Target headers; send one of " +
				"them. Nothing was written.",
		);
	}
	if (version === 1) return servedAsFormat1(() => headerPatch(context, path));
	if (headerTargeted) {
		// The same headers mean different things in the two formats (Target: A::B, or percent-encoded JSON), so the
		// request must say which one it speaks, as Local REST API 5.1 requires.
		if (!explicit) {
			refuse(
				"patch-version-required",
				"Target-Type/Target headers on a PATCH mean different things in the two formats, " +
					"and this request names neither, so nothing was written. Add Markdown-Patch-Version: " +
					"1 for the header format (Target: A::B), or Markdown-Patch-Version: 2 for raw-content " +
					"mode (a heading Target as percent-encoded JSON).",
			);
		}
		return rawPatch(context, path, headerTarget(context));
	}
	// The instruction's options are its fields: headers that would set them are refused rather than ignored.
	patchHeaderOptions(context, "instruction");
	// Captured when the request arrived (see heldRevision), before the body is read.
	const held = heldRevision(context, path);
	const parsed = parsePatchInstruction(await context.body());
	if (!parsed.ok) return refuse("invalid-patch-instruction", parsed.detail);
	const { instruction, body, ifMatch } = parsed.parsed;
	return writePatch(context, {
		path,
		instruction,
		body,
		ifMatch: lenientIfMatch(context, ifMatch),
		held,
		answerWithNote: true,
	});
}

/** Format 1: the instruction in headers, the payload in the body; If-Match as in PUT. Answered with the patched note. */
async function headerPatch(context: RequestContext, path: string): Promise<ApiResponse> {
	const instruction = { ...headerInstruction(context), ...patchHeaderOptions(context, "format1") };
	const held = heldRevision(context, path);
	const body = await context.body();
	return writePatch(context, {
		path,
		instruction,
		body,
		ifMatch: parseEntityTagCondition(headersValue(context, "if-match")),
		held,
		answerWithNote: true,
		format1: true,
	});
}

/** The headers, checked in Local REST API 5.1's order, each missing or wrong one with its code. */
function headerInstruction(context: RequestContext): PatchInstruction {
	const operation = headersValue(context, "operation")?.trim().toLowerCase();
	const targetType = headersValue(context, "target-type")?.trim().toLowerCase();
	const rawTarget = headersValue(context, "target");
	const usage =
		"PATCH needs Operation (append, prepend or replace), Target-Type (heading, block " +
		"or frontmatter) and Target (percent-encoded; nested headings joined by Target-Delimiter, " +
		"default ::); nothing was written. Or send a JSON instruction body without these headers " +
		"(Markdown-Patch-Version 2).";
	if (targetType === undefined) return invalid(`Target-Type is missing. ${usage}`, LRA_CASE.missingTargetType);
	if (targetType !== "heading" && targetType !== "frontmatter" && targetType !== "block") {
		return refuse(
			"patch-target-not-supported",
			`Target-Type "${targetType.slice(0, 40)}" is not supported here; heading, block and ` +
				`frontmatter are. Nothing was written. To change anything else, GET the note and PUT ` +
				`it whole with If-Match.`,
		);
	}
	if (operation === undefined) return invalid(`Operation is missing. ${usage}`, LRA_CASE.missingOperation);
	if (!OPERATIONS.includes(operation as PatchOperation))
		return invalid(`Operation "${operation.slice(0, 40)}" is not supported. ${usage}`, LRA_CASE.invalidOperation);
	if (rawTarget === undefined || rawTarget.trim() === "")
		return invalid(`Target is missing. ${usage}`, LRA_CASE.missingTarget);
	const contentType = headersValue(context, "content-type") ?? "";
	return {
		operation: operation as PatchOperation,
		targetType,
		target: percentDecoded(rawTarget),
		delimiter: headersValue(context, "target-delimiter") || undefined,
		json: /^\s*application\/json\s*(;|$)/i.test(contentType),
		createTargetIfMissing: headersValue(context, "create-target-if-missing")?.trim().toLowerCase() === "true",
	};
}

function invalid(detail: string, errorCode: number): never {
	return refuse("invalid-patch", detail, { errorCode });
}
