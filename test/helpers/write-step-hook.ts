/**
 * Deterministic access to the middle of the headless gateway's write step: the gateway writes a note by opening a
 * hidden temp file (`.<name>.rg-tmp-…`, in its temp folder or beside the note), then renames it over the note. Hooking the temp file's open lets
 * a test act after the guard's check and before the replace, without depending on timing.
 */
import fs from "fs";
import { join } from "path";
import { vi } from "vitest";
import { TEMP_FOLDER } from "../../src/headless/folder-guard";
import { TEMP_MARKER } from "../../src/vault/atomic-file";

type OpenCallback = (error: NodeJS.ErrnoException | null, fd: number) => void;

/**
 * Runs `hook` each time the gateway starts writing `note` (vault-relative) in `root`; returns the uninstaller. The
 * temp file is beside the note, or in the headless host's temp folder (named after the note's file name alone).
 */
export function onNoteWriteStep(root: string, note: string, hook: () => Promise<void> | void): () => void {
	const slash = note.lastIndexOf("/");
	const name = `.${note.slice(slash + 1)}${TEMP_MARKER}`;
	const prefixes = [join(root, note.slice(0, slash + 1), name), join(root, TEMP_FOLDER, name)];
	// The gateway opens its temp file with the callback API (atomic-file.ts `writeNew`): open(path, flags, mode, callback).
	const open = fs.open.bind(fs) as (...args: unknown[]) => void;
	const spy = vi.spyOn(fs, "open").mockImplementation((...args: unknown[]) => {
		if (!prefixes.some((prefix) => String(args[0]).startsWith(prefix))) return open(...args);
		const callback = args[args.length - 1] as OpenCallback;
		Promise.resolve()
			.then(hook)
			.then(
				() => open(...args),
				(error: NodeJS.ErrnoException) => callback(error, -1),
			);
	});
	return () => spy.mockRestore();
}
