/**
 * StateStorage in a folder on disk (the headless host's `.revision-guard/`), with atomic replaces. Everything in it
 * is private to this user (the settings hold the API keys; history and conflicts name every note).
 */
import {
	closeSync,
	promises as fs,
	openSync,
	readFileSync,
	readSync,
	writeFile as writeFileLater,
	writeFileSync,
} from "fs";
import { StringDecoder } from "string_decoder";
import { dirname, join } from "path";
import { fsyncFolder, writeFileAtomic } from "./atomic-file";
import type { StateStorage } from "./gateway";
import { NewFolders } from "./new-folders";

export class NodeStateStorage implements StateStorage {
	/** Folders already created, so hot paths skip a mkdir syscall. */
	private readonly madeFolders = new Set<string>();
	/** Files this process appended to since they were last removed: their folder entry is durable already. */
	private readonly appended = new Set<string>();
	private readonly newFolders = new NewFolders();

	constructor(
		private readonly folder: string,
		/** The longest line readLines hands over (smaller in tests). */
		private readonly maxLineChars = MAX_LINE_CHARS,
	) {}

	async read(name: string): Promise<string | null> {
		try {
			// At once: the state is read whole when the host starts, before it answers anything, and the promise API's
			// read holds the file in a buffer of its own besides the text (about 7 MB more peak memory on 50,000 notes).
			return readFileSync(join(this.folder, name), "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw error;
		}
	}

	/**
	 * Read at once in pieces, as `read` is, so a large state file is never held whole (history-file.ts). A line longer
	 * than `maxLineChars` rejects: the file is not one to read by line.
	 */
	async readLines(name: string, line: (text: string) => boolean): Promise<boolean> {
		let fd: number;
		try {
			fd = openSync(join(this.folder, name), "r");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
			throw error;
		}
		try {
			const chunk = Buffer.allocUnsafe(LINE_CHUNK_BYTES);
			// A character split between two pieces is decoded whole, with the second.
			const decoder = new StringDecoder("utf8");
			// A line longer than a piece (the merge-base index's) is gathered piece by piece and joined once: searching
			// the whole of it again at each piece would cost its length squared.
			const started: string[] = [];
			let startedChars = 0;
			for (;;) {
				const read = readSync(fd, chunk, 0, chunk.length, null);
				const piece = read === 0 ? decoder.end() : decoder.write(chunk.subarray(0, read));
				let start = 0;
				for (let end = piece.indexOf("\n"); end !== -1; end = piece.indexOf("\n", start)) {
					const text = piece.slice(start, end);
					const whole = started.length === 0 ? text : started.join("") + text;
					started.length = 0;
					startedChars = 0;
					if (!line(whole)) return true;
					start = end + 1;
				}
				if (start < piece.length) {
					started.push(piece.slice(start));
					startedChars += piece.length - start;
				}
				// Not a file of lines after all: the caller reads it whole.
				if (startedChars > this.maxLineChars)
					throw new Error(`${name} has a line longer than ${this.maxLineChars} characters`);
				if (read === 0) break;
			}
			if (started.length > 0) line(started.join(""));
			return true;
		} finally {
			closeSync(fd);
		}
	}

	async write(name: string, content: string, options: { durable?: boolean } = {}): Promise<void> {
		const target = join(this.folder, name);
		await this.makeFolder(dirname(target));
		// A cache whose readers verify what they read (the bases) is written in place: a torn file is found out and
		// dropped on read, so a temp file and a rename (two calls more on every accepted write) buy it nothing.
		if (options.durable === false) await writeInPlace(target, content);
		else await writeFileAtomic(target, content, { mode: 0o600 });
	}

	async append(name: string, text: string): Promise<void> {
		const target = join(this.folder, name);
		await this.makeFolder(dirname(target));
		const handle = await fs.open(target, "a", 0o600);
		try {
			await handle.writeFile(text);
			await handle.sync();
		} finally {
			await handle.close();
		}
		// The first append may have created the file: its name must survive a crash too.
		if (!this.appended.has(target)) {
			await fsyncFolder(dirname(target));
			this.appended.add(target);
		}
	}

	/** Makes an existing file private to this user (one written by an older version may be world-readable). */
	async restrict(name: string): Promise<void> {
		await fs.chmod(join(this.folder, name), 0o600).catch(() => undefined);
	}

	async remove(name: string): Promise<void> {
		const target = join(this.folder, name);
		this.appended.delete(target);
		await fs.rm(target, { force: true });
		// The removal must last too: a log that came back after a power loss could be replayed over a newer snapshot.
		await fsyncFolder(dirname(target));
	}

	private async makeFolder(folder: string): Promise<void> {
		if (this.madeFolders.has(folder)) return;
		// A folder made here is fsynced into its parent: else a crash could take it away, with the files written in it.
		await (
			await this.newFolders.make(folder, 0o700)
		).durable;
		this.madeFolders.add(folder);
	}
}

/** Up to this size a cache file is written at once (a few microseconds into the page cache, no fsync). */
const SMALL_CACHE_FILE = 256 * 1024;

/** Writes a cache file in place: at once when small (cheaper than three trips through the thread pool), else on the pool. */
function writeInPlace(target: string, content: string): Promise<void> {
	if (content.length <= SMALL_CACHE_FILE) {
		try {
			writeFileSync(target, content, { mode: 0o600 });
			return Promise.resolve();
		} catch (error) {
			return Promise.reject(error instanceof Error ? error : new Error(String(error)));
		}
	}
	return new Promise((resolve, reject) =>
		writeFileLater(target, content, { mode: 0o600 }, (error) => (error ? reject(error) : resolve())),
	);
}

/**
 * How much of a state file readLines holds at once. Large enough for V8 to keep each piece's text among its large
 * objects, which its young-generation collector never copies: the lines handed over are slices of that text, and
 * the history keeps them (core/stored-note.ts), so smaller pieces were copied twice as they aged.
 */
const LINE_CHUNK_BYTES = 1024 * 1024;
/**
 * The longest line readLines hands over: far above any note's line, and above the merge-base index's (one line of
 * history.json, about 50 bytes per base kept: 1.5 MB for 28,000), which a line limit of 1 MB sent to the whole read.
 */
const MAX_LINE_CHARS = 64 * 1024 * 1024;
