/**
 * The start-up scan's proof that a note it opens is inside the vault, paid once per folder instead of once per note.
 * Linux names an open descriptor's real path (/proc/self/fd/N), and a path through that entry resolves from the
 * very folder the descriptor holds, as openat does. So the scan opens a note's folder once, checks that folder's
 * real path, and opens each note as `/proc/self/fd/<folder>/<name>` with O_NOFOLLOW: the file opened is then a
 * direct entry of that checked folder and not a symbolic link, so its real path is inside the vault as surely as
 * the per-note check (a readlink per note, read-file.ts) showed. A note that is a symbolic link fails to open
 * (ELOOP) and is left to the ordinary read, which follows it and checks where it leads.
 *
 * The folder's real path is checked again once it has been held for RECHECK_MS, so a folder moved out of the vault
 * meanwhile is not read through for longer than that.
 */
import { closeSync, constants, openSync, readlinkSync } from "fs";

/** Where Linux shows the real path of an open descriptor. */
const PROC_FD = "/proc/self/fd/";

/** How long a folder's checked real path is trusted before it is checked again. */
export const RECHECK_MS = 5;

interface HeldFolder {
	folder: string;
	fd: number;
	/** `/proc/self/fd/<fd>/`: a note's name appended to it opens the note in exactly this folder. */
	prefix: string;
	checkedAt: number;
}

export class ScanFolders {
	private held: HeldFolder | null = null;

	/**
	 * @param root the vault's real path
	 * @param assertInside throws when a real path is outside the vault (given the note's vault-relative path)
	 * @param now milliseconds, for RECHECK_MS (a test's clock)
	 */
	constructor(
		private readonly root: string,
		private readonly assertInside: (path: string, real: string) => void,
		private readonly now: () => number = () => performance.now(),
	) {}

	/**
	 * The path to open `path` by (with O_NOFOLLOW: see NO_FOLLOW) through its checked folder, or null when this
	 * platform cannot check a folder this way (then the note is opened by name and checked itself). Throws the open's
	 * error when the folder cannot be opened, and VaultPathError when it is outside the vault.
	 */
	pathFor(path: string): string | null {
		const slash = path.lastIndexOf("/");
		const folder = slash === -1 ? "" : path.slice(0, slash);
		const held = this.folderFor(path, folder);
		return held === null ? null : held.prefix + path.slice(slash + 1);
	}

	/** Lets go of the folder held (the scan is over, or the gateway closes). */
	release(): void {
		if (this.held === null) return;
		closeSync(this.held.fd);
		this.held = null;
	}

	private folderFor(path: string, folder: string): HeldFolder | null {
		const now = this.now();
		const held = this.held;
		if (held !== null && held.folder === folder) {
			if (now - held.checkedAt < RECHECK_MS) return held;
			// Still where it was checked: trusted for another while. Moved out: opened again by its name below.
			if (this.inside(path, held.fd, false)) {
				held.checkedAt = now;
				return held;
			}
		}
		this.release();
		const fd = openSync(folder === "" ? this.root : `${this.root}/${folder}`, FOLDER_FLAGS);
		let inside: boolean | null;
		try {
			inside = this.inside(path, fd, true);
		} catch (error) {
			closeSync(fd);
			throw error;
		}
		if (inside === null) {
			closeSync(fd);
			return null;
		}
		this.held = { folder, fd, prefix: `${PROC_FD}${fd}/`, checkedAt: now };
		return this.held;
	}

	/**
	 * Whether the folder `fd` holds is inside the vault; null when /proc cannot tell. When `refuse`, a folder outside
	 * throws (VaultPathError, from assertInside) instead of answering false.
	 */
	private inside(path: string, fd: number, refuse: boolean): boolean | null {
		let real: string;
		try {
			real = readlinkSync(PROC_FD + fd);
		} catch {
			return null;
		}
		if (refuse) {
			this.assertInside(path, real);
			return true;
		}
		return real === this.root || real.startsWith(this.root + "/");
	}
}

const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);

/** Added to a note's open through its folder: a note that is a symbolic link fails (ELOOP) instead of being followed. */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
