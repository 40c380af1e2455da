/**
 * Confinement of a plain folder: every path resolves inside its root, symlinks that lead outside (or loop) are
 * refused, and nothing is written through a symlink.
 */
import { lstatSync, promises as fs } from "fs";
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
	 * Whether a part of `path` below the root that exists (a folder on its way, or the entry itself) is a symbolic link.
	 * One lstat per such part, at once: a few microseconds for a scoped request, where a realpath on the thread pool
	 * cost a round trip. A part that cannot be looked at for any reason but absence counts as a link (the caller refuses).
	 */
	throughLink(path: string): boolean {
		let at = this.root;
		for (const part of path.split("/")) {
			if (part === "") continue;
			at = join(at, part);
			let stats;
			try {
				stats = lstatSync(at, { throwIfNoEntry: false });
			} catch (error) {
				// A file where a folder of the path goes: nothing further along exists, so nothing is a link.
				return (error as NodeJS.ErrnoException).code !== "ENOTDIR";
			}
			if (stats === undefined) return false;
			if (stats.isSymbolicLink()) return true;
		}
		return false;
	}

	assertInside(path: string, real: string): void {
		if (real !== this.root && !real.startsWith(this.root + sep)) throw new VaultPathError(path, "outside-vault");
	}
}
