/**
 * PATCH /vault/{path}, in each format Local REST API clients send:
 * - format 2 (the default): a JSON instruction body (`targetType`, `target`, `operation`, `content`/`value`, `ifMatch`);
 * - format 2 raw-content mode with `Target-Type`/`Target` headers (explicit `Markdown-Patch-Version: 2`; a heading
 *   `Target` is percent-encoded JSON), the body being the payload;
 * - format 1: `Operation`, `Target-Type`, `Target` (`A::B`) headers, under `Markdown-Patch-Version: 1` or, for clients
 *   older than 5.x that send no version, whenever `Target-Type` or `Target` is present.
 * The handler only parses; every format is written by writePatch, guarded exactly like PUT.
 */
import { parseEntityTagCondition } from "../../core/revision";
import { parsePatchInstruction } from "../../core/patch-instruction";
import type { PatchInstruction, PatchOperation } from "../../core/patch";
import { refuse } from "../problems";
import type { ApiResponse } from "../response";
import type { RequestContext } from "../router";
import { resolvePath } from "./note-path";
import { DEPRECATION, isInstructionBody, lenientIfMatch, patchVersion, percentDecoded } from "./patch-version";
import { writePatch } from "./patch-write";
import { headerTarget, rawPatch } from "./raw-patch";
import { patchHeaderOptions } from "./patch-headers";
import { headersValue } from "./headers";
import { heldRevision } from "./write-answer";

const OPERATIONS: readonly PatchOperation[] = ["append", "prepend", "replace"];

export async function patchNote(context: RequestContext): Promise<ApiResponse> {
	const path = resolvePath(context, "note");
	const { version, explicit } = patchVersion(context);
	const headerTargeted = headersValue(context, "target-type") !== undefined || headersValue(context, "target") !== undefined;
	if (headerTargeted && isInstructionBody(context)) {
		return refuse("conflicting-target", "Target-Type/Target headers name a part of the note and the body is a whole PATCH instruction (application/vnd.olrapi.patch-instruction+json); send one of them. Nothing was written.");
	}
	if (version === 2 && explicit && headerTargeted) return rawPatch(context, path, headerTarget(context));
	if (version === 1 || headerTargeted) return headerPatch(context, path, version === 1 ? DEPRECATION : {});
	// The instruction's options are its fields: headers that would set them are refused rather than ignored.
	patchHeaderOptions(context, "instruction");
	// Captured when the request arrived (see heldRevision), before the body is read.
	const held = heldRevision(context, path);
	const parsed = parsePatchInstruction(await context.body());
	if (!parsed.ok) return refuse("invalid-patch-instruction", parsed.detail);
	const { instruction, body, ifMatch } = parsed.parsed;
	return writePatch(context, { path, instruction, body, ifMatch: lenientIfMatch(context, ifMatch), held, answerWithNote: true });
}

/** Format 1: the instruction in headers, the payload in the body; If-Match as in PUT. */
async function headerPatch(context: RequestContext, path: string, headers: Record<string, string>): Promise<ApiResponse> {
	const instruction = { ...headerInstruction(context), ...patchHeaderOptions(context, "format1") };
	const held = heldRevision(context, path);
	const body = await context.body();
	return writePatch(context, { path, instruction, body, ifMatch: parseEntityTagCondition(headersValue(context, "if-match")), held, answerWithNote: false, headers });
}

function headerInstruction(context: RequestContext): PatchInstruction {
	const operation = headersValue(context, "operation")?.trim().toLowerCase();
	const targetType = headersValue(context, "target-type")?.trim().toLowerCase();
	const rawTarget = headersValue(context, "target");
	const usage = "PATCH needs Operation (append, prepend or replace), Target-Type (heading, block or frontmatter) and Target (percent-encoded; nested headings joined by Target-Delimiter, default ::); nothing was written. Or send a JSON instruction body without these headers (Markdown-Patch-Version 2).";
	if (operation === undefined || targetType === undefined || rawTarget === undefined) return invalid(usage);
	if (!OPERATIONS.includes(operation as PatchOperation)) return invalid(`Operation "${operation}" is not supported. ${usage}`);
	if (targetType !== "heading" && targetType !== "frontmatter" && targetType !== "block") {
		return refuse("patch-target-not-supported", `Target-Type "${targetType}" is not supported here; heading, block and frontmatter are. Nothing was written. To change anything else, GET the note and PUT it whole with If-Match.`);
	}
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

function invalid(detail: string): never {
	return refuse("invalid-patch", detail);
}
