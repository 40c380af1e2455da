/**
 * Confinement of a plain folder: every path resolves inside its root, symlinks that lead outside (or loop) are
 * refused, and nothing is written through a symlink.
 */
import { promises as fs } from "fs";
import { basename, dirname, join, relative, sep } from "path";
import { VaultPathError } from "./errors";
import { throwUnlessMissing } from "./note-file";

export class FolderPaths {
	/** `root` is the folder's real path. */
	constructor(readonly root: string) {}

	/** The real path of an existing entry, or null; refuses anything that resolves outside the root. */
	async resolveExisting(path: string): Promise<string | null> {
		const joined = join(this.root, path);
		let real: string;
		try {
			real = await fs.realpath(joined);
		} catch (error) {
			throwUnlessMissing(path, error);
			return null;
		}
		this.assertInside(path, real);
		return real;
	}

	/** Where a write to `path` lands: the nearest existing ancestor must resolve inside the root, and the target must not be a symlink. */
	async resolveForWrite(path: string): Promise<string> {
		const joined = join(this.root, path);
		const link = await fs.lstat(joined).catch(() => null);
		if (link?.isSymbolicLink()) {
			let real: string;
			try {
				real = await fs.realpath(joined);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new VaultPathError(path, "symlink-loop");
				throw new VaultPathError(path, "outside-vault");
			}
			this.assertInside(path, real);
			return real;
		}
		let ancestor = dirname(joined);
		for (;;) {
			const real = await fs.realpath(ancestor).catch(() => null);
			if (real !== null) {
				this.assertInside(path, real);
				return join(real, relative(ancestor, joined));
			}
			ancestor = dirname(ancestor);
		}
	}

	/**
	 * The entry named `path` itself, with its folder resolved but not a symbolic link it may be: what a delete of
	 * `path` removes. Its folder must resolve inside the root.
	 */
	async resolveEntry(path: string): Promise<string> {
		const folder = await fs.realpath(dirname(join(this.root, path)));
		this.assertInside(path, folder);
		return join(folder, basename(path));
	}

	/**
	 * Whether a part of `path` that exists is a symbolic link: the real path of its longest existing part is not that
	 * part, compared as `fold` does (NFC, and lower case where the disk ignores case: key scopes match names so, so a
	 * name that differs only so is the same name to them). One realpath for a path that exists.
	 */
	async throughLink(path: string, fold: (name: string) => string): Promise<boolean> {
		let at = join(this.root, path.replace(/\/+$/, ""));
		for (;;) {
			const real = await fs.realpath(at).catch(() => null);
			if (real !== null) return real !== at && fold(real) !== fold(at);
			if (at === this.root || dirname(at) === at) return false;
			at = dirname(at);
		}
	}

	assertInside(path: string, real: string): void {
		if (real !== this.root && !real.startsWith(this.root + sep)) throw new VaultPathError(path, "outside-vault");
	}
}
