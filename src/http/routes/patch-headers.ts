/**
 * The Local REST API's PATCH vocabulary that this API does not carry out, refused by name rather than ignored: a
 * header that changes what a request does, silently dropped, does something else than the client asked for (a
 * `Target-Scope: marker` rename that replaces a section's body instead, a duplicate guard that lets a retried append
 * land twice). Checked on every request that names a part of a note, in whichever format it comes.
 */
import { refuse } from "../problems";
import type { RequestContext } from "../router";
import { headersValue } from "./headers";

export function refuseUnsupportedPatchHeaders(context: RequestContext): void {
	const scope = headersValue(context, "target-scope")?.trim();
	if (scope !== undefined && scope.toLowerCase() !== "content") {
		unsupported("Target-Scope", scope, "Only the default scope, content (a heading's body, a block's text, a frontmatter value), is carried out here: renaming or moving a heading is not. To rename one, GET the note and PUT it whole with If-Match.");
	}
	const reject = headersValue(context, "reject-if-content-preexists")?.trim().toLowerCase();
	if (reject !== undefined && reject !== "false") {
		unsupported("Reject-If-Content-Preexists", reject, "The duplicate check is not carried out here. Send If-Match (or ifMatch) with the revision you read instead: a retry after a lost answer is then refused as stale, never applied twice.");
	}
	// Before Local REST API 5.1 the duplicate check was on unless this said true; true is what this API always does.
	const apply = headersValue(context, "apply-if-content-preexists")?.trim().toLowerCase();
	if (apply !== undefined && apply !== "true") {
		unsupported("Apply-If-Content-Preexists", apply, "Refusing content that is already there is not carried out here. Send If-Match with the revision you read, so a retry is refused as stale instead.");
	}
	const within = headersValue(context, "within");
	if (within !== undefined) unsupported("Within", within, "Choosing one of several equal targets is not carried out here: name the heading with its enclosing headings, or use a block id.");
	const destination = headersValue(context, "destination");
	if (destination !== undefined) unsupported("Destination", destination, "Moving a part of a note is not carried out here. GET the note and PUT it whole with If-Match.");
	// Targets are always matched trimmed: no heading text, block id or frontmatter key begins or ends with whitespace
	// (markdown and YAML drop it), so either value names the same part.
	const trim = headersValue(context, "trim-target-whitespace")?.trim().toLowerCase();
	if (trim !== undefined && trim !== "true" && trim !== "false") unsupported("Trim-Target-Whitespace", trim, "Send true or false.");
}

function unsupported(header: string, value: string, why: string): never {
	return refuse("unsupported-header", `${header}: ${value.slice(0, 60)} is not supported here, so nothing was read or written. ${why}`, { header });
}
