/**
 * The one path validator every route uses. A path that passes is relative, normalized, free of traversal and
 * look-alike tricks, outside every hidden or plugin-owned folder, and (for writes) a note type.
 */
import { fitsInUtf8 } from "./utf8";

export interface PathPolicy {
	/** The vault's config folder (`vault.configDir`), always denied even if it is not a dot-folder. */
	configDir: string;
	/** Extensions (without dot) that may be read and written as notes. */
	noteExtensions: readonly string[];
	/** Extra folders that are never served (for example the plugin's own state folder). */
	deniedFolders?: readonly string[];
}

export type PathResult = { ok: true; path: string } | { ok: false; reason: string };

const MAX_PATH_LENGTH = 1024;
const MAX_SEGMENT_BYTES = 255;
// Windows ignores spaces between a device name and its extension (`nul .md` is NUL).
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)( *\..*)?$/i;
/** Characters some platforms fold into `/`, `\`, `.` or `:`; never legitimate enough to risk. */
const LOOKALIKES =
	/[\u2215\u2044\u29f8\uff0f\uff3c\u2216\ufe68\u2024\u2025\u2026\ufe19\ufe30\uff0e\u3002\ufe52\u2100\u2101\u2105\u2106\uff1a\ufe13\ufe55\u2236\ua789]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Turns the raw (still percent-encoded) part of a URL after a route prefix into a vault path, decoding each
 * segment exactly once. An encoded `/` inside a segment is refused rather than reinterpreted.
 */
export function decodeUrlPath(raw: string): PathResult {
	const segments: string[] = [];
	for (const encoded of raw.split("/")) {
		let segment: string;
		try {
			segment = decodeURIComponent(encoded);
		} catch {
			return { ok: false, reason: "The path is not valid percent-encoding." };
		}
		if (segment.includes("/"))
			return { ok: false, reason: "An encoded slash (%2F) is not allowed inside a path segment." };
		segments.push(segment);
	}
	return { ok: true, path: segments.join("/") };
}

/** `decodeUrlPath` then `validateVaultPath`: what a URL's remainder names, or why it names nothing. */
export function decodeVaultPath(raw: string, policy: PathPolicy, kind: "note" | "folder"): PathResult {
	const decoded = decodeUrlPath(raw);
	return decoded.ok ? validateVaultPath(decoded.path, policy, kind) : decoded;
}

/** Validates a decoded vault-relative path. `kind` says whether it names a note or a folder. */
export function validateVaultPath(path: string, policy: PathPolicy, kind: "note" | "folder"): PathResult {
	if (kind === "folder" && path === "") return { ok: true, path: "" };
	if (path.length > MAX_PATH_LENGTH) return { ok: false, reason: "The path is too long." };
	if (path.startsWith("/")) return { ok: false, reason: "The path must be relative to the vault (no leading /)." };
	if (/^[a-zA-Z]:/.test(path)) return { ok: false, reason: "Drive letters are not allowed." };
	// The path is served exactly as named (a note listed as `Cafe\u0301.md` is read and written by that name); only
	// the checks below compare a folded form, so a look-alike spelling of a denied folder is still denied.
	const trimmed = kind === "folder" && path.endsWith("/") ? path.slice(0, -1) : path;
	const segments = trimmed.split("/");
	for (const segment of segments) {
		// The folded spelling is checked too, when it differs (most names are already NFC without a no-break space).
		const spelled = segment.normalize("NFC").replace(/\u00a0/g, " ");
		const problem = segmentProblem(segment) ?? (spelled === segment ? null : segmentProblem(spelled));
		if (problem) return { ok: false, reason: problem };
	}
	const first = segments[0]!;
	// Compared case-insensitively too: on macOS and Windows `Config/` is the same folder as `config/`.
	const lowered = folded(trimmed);
	const denied = [policy.configDir, ".trash", ...(policy.deniedFolders ?? [])].map((folder) =>
		folded(folder.replace(/\/+$/, "")),
	);
	for (const folder of denied) {
		if (folder !== "" && (lowered === folder || lowered.startsWith(folder + "/"))) {
			return { ok: false, reason: `The folder "${first}" is not served.` };
		}
	}
	if (kind === "note") {
		const name = segments[segments.length - 1]!;
		const dot = name.lastIndexOf(".");
		const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
		if (!policy.noteExtensions.includes(extension)) {
			const allowed = policy.noteExtensions.map((ext) => "." + ext).join(", ");
			return { ok: false, reason: `Only notes (${allowed}) can be read and written here.` };
		}
	}
	return { ok: true, path: trimmed };
}

/** The form two names are compared in: NFC, a no-break space as a space, lower case. */
function folded(path: string): string {
	return path
		.normalize("NFC")
		.replace(/\u00a0/g, " ")
		.toLowerCase();
}

function segmentProblem(segment: string): string | null {
	if (segment === "") return "The path has an empty segment (a doubled or trailing slash).";
	if (segment === "." || segment === "..") return "`.` and `..` segments are not allowed.";
	if (CONTROL.test(segment)) return "Control characters are not allowed in paths.";
	if (segment.includes("\\")) return "Backslashes are not allowed in paths; use /.";
	if (/[:*?"<>|]/.test(segment)) return 'The characters : * ? " < > | are not allowed in paths.';
	if (LOOKALIKES.test(segment)) return "Look-alike slash or dot characters are not allowed in paths.";
	if (segment.startsWith(".")) return "Hidden files and folders (starting with .) are not served.";
	if (/[. ]$/.test(segment)) return "A path segment may not end in a dot or a space.";
	if (WINDOWS_RESERVED.test(segment)) return `"${segment}" is a reserved name on Windows.`;
	if (!fitsInUtf8(segment, MAX_SEGMENT_BYTES)) return "A path segment is too long.";
	return null;
}

/** The folder part of a vault path ("" for the root). */
export function parentFolder(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash === -1 ? "" : path.slice(0, slash);
}
