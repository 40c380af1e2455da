/** Turns a route's raw remainder into a validated vault path, or the problem response that explains why not. */
import { decodeUrlPath, validateVaultPath } from "../../core/path";
import { problem } from "../problems";
import type { RequestContext } from "../router";
import type { ApiResponse } from "../response";

export type ResolvedPath = { ok: true; path: string } | { ok: false; response: ApiResponse };

export function resolvePath(context: RequestContext, kind: "note" | "folder"): ResolvedPath {
	const decoded = decodeUrlPath(context.rest);
	const checked = decoded.ok ? validateVaultPath(decoded.path, context.notes.pathPolicy(), kind) : decoded;
	if (checked.ok) return checked;
	return { ok: false, response: problem("invalid-path", `${checked.reason} Nothing was read or written.`) };
}
