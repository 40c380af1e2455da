/**
 * Folder fsyncs, committed in groups. A rename or link into a folder is durable once the folder itself is fsynced
 * after it. Many writes into one folder at once (several agents on one note, each refusal's .bak beside it) each
 * asked for an fsync of their own, and a disk does them one after another. Here a caller joins the next fsync of
 * its folder that has not started yet: while one is under way, everyone who asks meanwhile waits for the next one,
 * which starts when it ends and covers all of them. No caller is answered by an fsync that started before it asked,
 * so every entry it made is in the fsync that answers it: the same durability, with fewer fsyncs.
 */
import fs from "fs";

interface FolderState {
	/** The fsync under way, if any. */
	running: Promise<void> | null;
	/** The fsync that will start when the running one ends, shared by everyone who asked meanwhile. */
	next: Promise<void> | null;
}

const folders = new Map<string, FolderState>();

/** Resolves once an fsync of `folder` that started after this call has finished (never rejects). */
export function fsyncFolder(folder: string): Promise<void> {
	let state = folders.get(folder);
	if (state === undefined) {
		state = { running: null, next: null };
		folders.set(folder, state);
	}
	if (state.running === null) return run(folder, state);
	// One is under way (it may have started before our entry was made): join the one after it.
	state.next ??= state.running.then(() => {
		state.next = null;
		return run(folder, state);
	});
	return state.next;
}

function run(folder: string, state: FolderState): Promise<void> {
	const running = syncOnce(folder).finally(() => {
		if (state.running !== running) return;
		state.running = null;
		if (state.next === null) folders.delete(folder);
	});
	state.running = running;
	return running;
}

function syncOnce(folder: string): Promise<void> {
	// Opening and closing a folder touch no data (microseconds, done at once); the fsync waits on the disk, on the pool.
	// Some platforms cannot fsync a directory (it fails there); the rename itself is still atomic on them.
	let fd: number;
	try {
		fd = fs.openSync(folder, "r");
	} catch {
		return Promise.resolve();
	}
	return new Promise((resolve) =>
		fs.fsync(fd, () => {
			try {
				fs.closeSync(fd);
			} catch {
				// Nothing to do: the folder's entries are as durable as this platform makes them.
			}
			resolve();
		}),
	);
}
