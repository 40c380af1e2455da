/**
 * Where a move or a copy goes: the `Destination` a client names, resolved as the Local REST API 5.x resolves it
 * (relative to the vault root, `.` and `..` allowed while they stay inside it, a trailing slash keeping the note's
 * own name), then held to the same path rules as every other path. Pure.
 */
import { validateVaultPath, type PathPolicy } from "./path";

export type DestinationResult =
	| { ok: true; path: string }
	/**
	 * `missing`: no Destination; `malformed`: not valid percent-encoding; `outside-vault`: absolute, or `..` past the
	 * vault's root; `not-allowed`: a path the vault does not serve as a note (the reason says which rule).
	 */
	| { ok: false; problem: "missing" | "malformed" | "outside-vault" | "not-allowed"; reason: string };

/**
 * Resolves `raw` for the note at `source`. `encoded`: the value is percent-encoded (an HTTP header, where non-ASCII
 * characters must be); MCP arguments are plain strings.
 */
export function resolveDestination(
	raw: string | undefined,
	source: string,
	policy: PathPolicy,
	encoded: boolean,
): DestinationResult {
	if (raw === undefined || raw.trim() === "")
		return { ok: false, problem: "missing", reason: "No destination was given." };
	let decoded = raw.trim();
	if (encoded) {
		try {
			decoded = decodeURIComponent(decoded);
		} catch {
			return { ok: false, problem: "malformed", reason: "The destination is not valid percent-encoding." };
		}
	}
	const slashed = decoded.replace(/\\/g, "/").replace(/\/+/g, "/");
	if (slashed.startsWith("/"))
		return {
			ok: false,
			problem: "outside-vault",
			reason: "The destination must be relative to the vault (no leading /).",
		};
	const segments: string[] = [];
	for (const segment of slashed.split("/")) {
		if (segment === "" || segment === ".") continue;
		if (segment !== "..") segments.push(segment);
		else if (segments.pop() === undefined)
			return {
				ok: false,
				problem: "outside-vault",
				reason: "The destination leads outside the vault (`..` past its root).",
			};
	}
	// A folder (a trailing slash, or the root itself) keeps the note's own name.
	const intoFolder = slashed.endsWith("/") || segments.length === 0 || /(^|\/)\.\.?$/.test(slashed);
	if (intoFolder) segments.push(source.slice(source.lastIndexOf("/") + 1));
	const checked = validateVaultPath(segments.join("/"), policy, "note");
	return checked.ok ? checked : { ok: false, problem: "not-allowed", reason: checked.reason };
}
