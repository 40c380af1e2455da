/**
 * Where a command's text comes from. The Obsidian CLI turns `\n` and `\t` inside an argument into a newline and a tab
 * (so `\times` in LaTeX arrives as a tab and "imes"), and the operating system caps how long a command line may be.
 * So besides the plain `content=`, text can come exact: `content64=` (base64 of the UTF-8 bytes) or `file=` (an
 * absolute path to a file on this computer, typically the agent's own temp file). Every source is capped at the
 * body size limit (maxBodyMB, as for REST) and must be valid UTF-8: a note is never written with replacement
 * characters.
 */
import { constants, promises as fs } from "fs";
import { isAbsolute } from "path";
import { utf8Length } from "../core/utf8";
import type { AgentNotes } from "../service/notes/agent-notes";
import { badArgument, throwFailure } from "./answer";
import type { Arguments } from "./args";

const MB = 1024 * 1024;

/** The largest text a command takes or gives, in bytes: the body size limit REST uses. */
export function bodyCapBytes(notes: AgentNotes): number {
	return notes.settings().maxBodyMB * MB;
}

/**
 * The text of `name=`, `name64=` or (when `fromFile`) `file=`: exactly one of them, or undefined when none is given
 * and `required` is false.
 */
export async function textArgument(
	args: Arguments,
	notes: AgentNotes,
	name: string,
	options: { required: boolean; fromFile?: boolean },
): Promise<string | undefined> {
	const sources = [name, `${name}64`, ...(options.fromFile ? ["file"] : [])];
	const given = sources.filter((source) => args.has(source));
	const spelled = sources.map((source) => `${source}=`).join(", ");
	if (given.length > 1)
		badArgument(
			given[1]!,
			`Give the text once: ${given.map((source) => `${source}=`).join(" and ")} were both given.`,
			`Keep one of ${spelled}.`,
		);
	const source = given[0];
	if (source === undefined) {
		if (options.required)
			badArgument(
				name,
				`The text is missing: give one of ${spelled}.`,
				`For exact bytes (LaTeX, tabs, long text) use ${name}64=<base64>${options.fromFile ? " or file=/absolute/path" : ""}.`,
			);
		return undefined;
	}
	const cap = bodyCapBytes(notes);
	const value = args.text(source)!;
	if (source === "file") return readTextFile(value, cap);
	if (source.endsWith("64")) return decodeBase64Text(source, value, cap);
	// The CLI hands a bare flag (`content` with no value) over as "true": never write that word over a note by accident.
	if (value === "true")
		badArgument(
			source,
			`${source} was given without a value (the CLI passes a bare flag as "true"), so nothing was written.`,
			`Give ${source}=<text>; to write the word "true" itself, use ${source}64=dHJ1ZQ==.`,
		);
	if (utf8Length(value) > cap) tooLarge(source, cap);
	return value;
}

/** Strict base64 (RFC 4648 §4, padded; the line breaks `base64` inserts are allowed), decoded as strict UTF-8. */
export function decodeBase64Text(name: string, value: string, capBytes: number): string {
	const compact = value.replace(/\r?\n/g, "");
	const fix = `Encode the exact bytes with standard base64, e.g. ${name}="$(base64 < file.md | tr -d '\\n')".`;
	if (/[^A-Za-z0-9+/=]/.test(compact))
		badArgument(name, `${name}= is not base64: it holds characters outside A-Z a-z 0-9 + / =.`, fix);
	const padding = compact.indexOf("=");
	if (
		compact.length % 4 !== 0 ||
		(padding !== -1 && (padding < compact.length - 2 || /[^=]/.test(compact.slice(padding))))
	) {
		badArgument(
			name,
			`${name}= is not well-formed base64 (its length must be a multiple of 4, with = padding only at the end).`,
			fix,
		);
	}
	if ((compact.length / 4) * 3 > capBytes + 2) tooLarge(name, capBytes);
	const bytes = Buffer.from(compact, "base64");
	// Buffer's decoder ignores stray bits in the last character; re-encoding catches text that only looks like base64.
	if (bytes.toString("base64") !== compact)
		badArgument(name, `${name}= is not canonical base64 (its last characters carry stray bits).`, fix);
	if (bytes.length > capBytes) tooLarge(name, capBytes);
	return utf8Text(bytes, name);
}

/**
 * Reads the file `file=` names: an absolute path (a relative one would be resolved against Obsidian's working folder,
 * not the agent's), a regular file (never a pipe or a device, which could block or never end), at most the body cap.
 * It may lie outside the vault: it is typically the agent's own temp file, and the CLI's caller already runs as the
 * same user (the CLI's own `eval` runs code inside the app), so reading it gives no access the caller lacks.
 */
export async function readTextFile(path: string, capBytes: number): Promise<string> {
	if (!isAbsolute(path))
		badArgument(
			"file",
			`file= must be an absolute path (it was "${path.slice(0, 200)}"); a relative one ` +
				`would be read from Obsidian's folder, not yours.`,
			'Give the full path, e.g. file="$PWD/draft.md" or file=/tmp/draft.md.',
		);
	let handle: fs.FileHandle;
	try {
		// Non-blocking, so that a named pipe put in the file's place cannot stall the open; it is refused below.
		handle = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? "unknown";
		return throwFailure(
			"file-not-readable",
			`The file "${path.slice(0, 200)}" could not be opened (${code}); nothing was written.`,
			"Check the path and that the file exists, or pass the text with content64= instead.",
			{ argument: "file", code },
		);
	}
	try {
		const stat = await handle.stat();
		if (!stat.isFile())
			throwFailure(
				"file-not-readable",
				`"${path.slice(0, 200)}" is not a regular file; nothing was written.`,
				"Write the text to a regular file first, or pass it with content64=.",
				{ argument: "file" },
			);
		if (stat.size > capBytes) tooLarge("file", capBytes);
		// Read one byte past the cap, so a file that grew since the stat is still caught.
		const buffer = Buffer.alloc(Math.min(stat.size, capBytes) + 1);
		let length = 0;
		for (;;) {
			const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
			if (bytesRead === 0) break;
			length += bytesRead;
			if (length > capBytes) tooLarge("file", capBytes);
			// Longer than it was a moment ago: something is still writing it, and half a file must not become a note.
			if (length === buffer.length)
				throwFailure(
					"file-not-readable",
					`"${path.slice(0, 200)}" grew while it was being read; nothing was written.`,
					"Finish writing the file, then run the command again.",
					{ argument: "file" },
				);
		}
		return utf8Text(buffer.subarray(0, length), "file");
	} finally {
		await handle.close();
	}
}

function utf8Text(bytes: Uint8Array, name: string): string {
	try {
		// ignoreBOM keeps a leading BOM, so the note (or its .bak) holds exactly the bytes sent.
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
	} catch {
		return throwFailure(
			"invalid-utf8",
			`The text from ${name}= is not valid UTF-8; nothing was written.`,
			"Send the note as UTF-8 text.",
			{ argument: name },
		);
	}
}

function tooLarge(name: string, capBytes: number): never {
	return throwFailure(
		"content-too-large",
		`The text from ${name}= is over the ${capBytes / MB} MB body size limit; nothing was written.`,
		"Send a smaller text (split the change into several :edit or :append calls), or ask " +
			"the person to raise the body size limit in the plugin's settings.",
		{ argument: name, limitBytes: capBytes },
	);
}
