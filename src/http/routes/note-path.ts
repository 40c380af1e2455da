/** Turns a route's raw remainder into a validated vault path, or stops the request with the problem that explains why not. */
import { RememberedPaths } from "../remembered-paths";
import { refuse } from "../problems";
import type { RequestContext } from "../router";

/** One per process is enough: the answers depend only on the path and the policy, which is part of the key. */
const remembered = new RememberedPaths();

export function resolvePath(context: RequestContext, kind: "note" | "folder"): string {
	const checked = remembered.resolve(context.rest, context.notes.pathPolicy(), kind);
	if (checked.ok) return checked.path;
	return refuse("invalid-path", `${checked.reason} Nothing was read or written.`);
}

/** The note a write (PUT, POST, PATCH, DELETE) names; a folder (`/vault/` or a path ending in `/`) is a 405, as in LRA. */
export function resolveWritePath(context: RequestContext): string {
	if (context.rest === "" || context.rest.endsWith("/")) {
		refuse(
			"folder-not-a-note",
			`${context.method} acts on a note, and "/vault/${context.rest.slice(0, 200)}" names ` +
				`a folder, so nothing was written. Name the note's path without a trailing slash (GET ` +
				`the folder to list its notes).`,
			{},
			{ Allow: "GET, HEAD" },
		);
	}
	return resolvePath(context, "note");
}
