/** Turns a route's raw remainder into a validated vault path, or stops the request with the problem that explains why not. */
import { decodeUrlPath, validateVaultPath } from "../../core/path";
import { refuse } from "../problems";
import type { RequestContext } from "../router";

export function resolvePath(context: RequestContext, kind: "note" | "folder"): string {
	const decoded = decodeUrlPath(context.rest);
	const checked = decoded.ok ? validateVaultPath(decoded.path, context.notes.pathPolicy(), kind) : decoded;
	if (checked.ok) return checked.path;
	return refuse("invalid-path", `${checked.reason} Nothing was read or written.`);
}
