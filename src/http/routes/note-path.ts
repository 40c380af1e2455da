/** Turns a route's raw remainder into a validated vault path, or stops the request with the problem that explains why not. */
import { resolveUrlPath } from "../../core/path";
import { refuse } from "../problems";
import type { RequestContext } from "../router";

export function resolvePath(context: RequestContext, kind: "note" | "folder"): string {
	const checked = resolveUrlPath(context.rest, context.notes.pathPolicy(), kind);
	if (checked.ok) return checked.path;
	return refuse("invalid-path", `${checked.reason} Nothing was read or written.`);
}
