/**
 * Deterministic access to the middle of the headless gateway's write step: the gateway writes a note by opening a
 * hidden temp file beside it (`.<name>.rg-tmp-…`), then renames it over the note. Hooking the temp file's open lets
 * a test act after the guard's check and before the replace, without depending on timing.
 */
import { promises as fsPromises } from "fs";
import { join } from "path";
import { vi } from "vitest";
import { TEMP_MARKER } from "../../src/vault/atomic-file";

/** Runs `hook` each time the gateway starts writing `note` (vault-relative) in `root`; returns the uninstaller. */
export function onNoteWriteStep(root: string, note: string, hook: () => Promise<void> | void): () => void {
	const slash = note.lastIndexOf("/");
	const prefix = join(root, note.slice(0, slash + 1), `.${note.slice(slash + 1)}${TEMP_MARKER}`);
	const open = fsPromises.open.bind(fsPromises);
	const spy = vi.spyOn(fsPromises, "open").mockImplementation(async (...args: Parameters<typeof fsPromises.open>) => {
		if (String(args[0]).startsWith(prefix)) await hook();
		return open(...args);
	});
	return () => spy.mockRestore();
}
