/**
 * URL targets, as Local REST API 5.x spells them: /vault/{note}/heading/{A}/{B}, /vault/{note}/frontmatter/{key} and
 * /vault/{note}/block/{id}. GET reads the part; PUT replaces it, POST appends to it and PATCH applies its Operation
 * header, each written through the guarded writer like a PUT of the whole note.
 *
 * The rule that keeps every note reachable: a URL is a target only when a segment ending in `.md` is followed by
 * `heading`, `frontmatter` or `block` and at least one more segment. `/vault/heading/Note.md` (a note inside a folder
 * named `heading`) is a note; a folder whose own name ends in `.md` cannot hold a folder named like a target type.
 */
import { readTarget } from "../../core/read-target";
import { etagFor } from "../../core/revision-tokens";
import type { PatchTargetType } from "../../core/patch";
import { problem, refuse } from "../problems";
import { json, type ApiResponse, type JsonValue } from "../response";
import { actorOf, type Handler, type Method, type RequestContext } from "../router";
import { resolvePath } from "./note-path";
import { isInstructionBody, patchVersion, servedAsFormat1 } from "./patch-version";
import { rawPatch, type RawTarget } from "./raw-patch";
import { headersValue } from "./headers";
import { patchHeaderOptions } from "./patch-headers";
import { withRest } from "../request-context";
import { htmlAnswer, wantsHtml } from "./note-html";

const TYPES: readonly string[] = ["heading", "frontmatter", "block"];
const VAULT = "/vault/";
const TARGET_AFTER_NOTE = /\.md\/./i;

/** The route's matcher: the raw remainder after /vault/ when it names a part of a note, else null. */
export function matchNoteTarget(raw: string): string | null {
	// Every target has a note segment ending in .md followed by more: most note URLs are turned away here, unsplit.
	if (!raw.startsWith(VAULT) || !TARGET_AFTER_NOTE.test(raw)) return null;
	const rest = raw.slice(VAULT.length);
	return splitTarget(rest) ? rest : null;
}

interface SplitTarget {
	/** The note's raw (still encoded) path. */
	note: string;
	type: PatchTargetType;
	/** The raw segments after the type. */
	segments: string[];
}

function splitTarget(rest: string): SplitTarget | null {
	const segments = rest.split("/");
	for (let index = 0; index + 2 < segments.length; index++) {
		if (!segments[index]!.toLowerCase().endsWith(".md") || !TYPES.includes(segments[index + 1]!)) continue;
		const after = segments.slice(index + 2);
		if (after.some((segment) => segment === "")) return null;
		return {
			note: segments.slice(0, index + 1).join("/"),
			type: segments[index + 1] as PatchTargetType,
			segments: after,
		};
	}
	return null;
}

/** Each segment is decoded on its own, so an encoded slash stays inside its heading's text. */
function targetOf(context: RequestContext): { path: string; target: RawTarget } {
	const split = splitTarget(context.rest);
	if (!split) return refuse("route-not-found", "This URL does not name a part of a note. See GET /openapi.json.");
	if (headersValue(context, "target-type") !== undefined || headersValue(context, "target") !== undefined) {
		refuse(
			"conflicting-target",
			"The URL names a part of the note and so do Target-Type/Target headers; send one " +
				"of them. Nothing was read or written.",
		);
	}
	patchVersion(context);
	if (context.method === "GET" || context.method === "HEAD") patchHeaderOptions(context, "read");
	// A whole instruction in the body and a target in the URL: two specifications of one patch (LRA 5.1: 422).
	if (context.method === "PATCH" && isInstructionBody(context)) {
		refuse(
			"conflicting-target",
			"The URL names a part of the note and the body is a whole PATCH instruction (application/vnd.olrapi.patch-instruction+json); " +
				"send the instruction to /vault/{note} without a URL target, or the raw payload here. " +
				"Nothing was written.",
		);
	}
	const decoded: string[] = [];
	for (const segment of split.segments) {
		try {
			decoded.push(decodeURIComponent(segment));
		} catch {
			refuse("invalid-path", `"${segment}" is not valid percent-encoding. Nothing was read or written.`);
		}
	}
	if (split.type !== "heading" && decoded.length > 1) {
		refuse(
			"invalid-path",
			`A ${split.type} target is one URL segment (percent-encode a / inside it as %2F). Nothing was read or written.`,
		);
	}
	const path = resolvePath(withRest(context, split.note), "note");
	const target: RawTarget =
		split.type === "heading"
			? { type: "heading", target: decoded.join("::"), path: decoded }
			: { type: split.type, target: decoded[0]! };
	return { path, target };
}

async function readPart(context: RequestContext): Promise<ApiResponse> {
	const { path, target } = targetOf(context);
	return asVersioned(context, () => readNotePart(context, path, target));
}

/** Under Markdown-Patch-Version: 1 a URL target is served too, marked deprecated, as Local REST API 5.1 does. */
function asVersioned(context: RequestContext, run: () => Promise<ApiResponse>): Promise<ApiResponse> {
	return patchVersion(context).version === 1 ? servedAsFormat1(run) : run();
}

/** GET of one part of a note (also for a GET with Target-Type/Target headers). */
export async function readNotePart(context: RequestContext, path: string, target: RawTarget): Promise<ApiResponse> {
	// A part of the note is a read of that part: its ETag is a part token, which can patch the note but never replace it.
	const read = await context.notes.read(actorOf(context), path, { head: context.method === "HEAD", part: true });
	if (read.kind !== "read") return problem("note-not-found", `There is no note at "${path}".`, { path });
	const headers = { ETag: etagFor(read.revision, read.sight), "Cache-Control": "no-store" };
	// Target-Scope narrows the read as it narrows a PATCH (content, marker, markerAndContent; checked before the read).
	const scope = patchHeaderOptions(context, "read").scope;
	const part = readTarget(
		read.content,
		target.type,
		target.target,
		target.path,
		scope === "parent" ? "content" : scope,
	);
	switch (part.kind) {
		case "missing":
			return problem(
				"target-not-found",
				`${part.detail} GET the note with Accept: application/vnd.olrapi.document-map+json to see what it has.`,
				{ path },
				headers,
			);
		case "unreadable":
			return problem("bad-request", `${part.detail} Nothing was read.`, { path }, headers);
		case "invalid-frontmatter":
			return problem(
				"invalid-frontmatter",
				`${part.detail} Nothing was read. The rest of the note can still be read (GET it), ` +
					`and its frontmatter fixed with a PUT of the whole note.`,
				{ path },
				headers,
			);
		case "json":
			if (wantsHtml(context))
				return problem(
					"bad-request",
					"A frontmatter value is data, not markdown, so it cannot be sent as HTML. GET it " +
						"without Accept: text/html for its JSON.",
					{ path },
					headers,
				);
			return { ...json(200, toJson(part.value), headers), omitBody: context.method === "HEAD" };
		case "text":
			// The Local REST API renders a heading's or block's part alone, as the note's own renderer shows it.
			if (wantsHtml(context)) return htmlAnswer(context, read.path, part.text, headers);
			return {
				status: 200,
				headers,
				body: part.text,
				contentType: "text/markdown; charset=utf-8",
				omitBody: context.method === "HEAD",
			};
	}
}

function writePart(operation?: "replace" | "append"): Handler {
	return async (context) => {
		const { path, target } = targetOf(context);
		if (operation === undefined) {
			// A PATCH: a URL target is format 2's (an instruction body beside it was refused in targetOf).
			if (patchVersion(context).version === 1)
				refuse(
					"invalid-patch-version",
					"A part of a note named in the URL is patched the Markdown-Patch-Version 2 way, so " +
						"nothing was written. Leave out Markdown-Patch-Version: 1, or name the part with Target-Type/Target " +
						"headers instead.",
				);
		}
		return asVersioned(context, () => rawPatch(context, path, target, operation));
	};
}

export const NOTE_TARGET_HANDLERS: Partial<Record<Method, Handler>> = {
	GET: readPart,
	PUT: writePart("replace"),
	POST: writePart("append"),
	PATCH: writePart(),
};

/** Frontmatter can hold dates and other non-JSON values; send what JSON can carry. */
function toJson(value: unknown): JsonValue {
	try {
		return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
	} catch {
		return null;
	}
}
