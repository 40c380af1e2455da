// @ts-check
/**
 * Where a file an agent's tool names sits in the vault: the vault path the host serves it at, or why the hook leaves
 * it alone. Relative paths, `..` and symbolic links on the way (the vault root given through a link, or reached
 * through one) all come to the same answer, so one note is always one record.
 */
import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * @typedef {{ kind: "note", path: string, urlPath: string, absolute: string }} VaultNote
 *   `path` is the vault path (`/`-separated), `urlPath` the same with each segment percent-encoded once, and
 *   `absolute` the file on disk.
 * @typedef {VaultNote | { kind: "outside" } | { kind: "not-a-note" }} VaultPlace
 */

/**
 * @param {string} file the path the tool was given (absolute, or relative to `cwd`)
 * @param {string} cwd where the agent's tool resolves relative paths
 * @param {string} vaultRoot the vault folder, already resolved by `realVaultRoot`
 * @param {readonly string[]} noteExtensions extensions the host serves as notes, lower case, without the dot
 * @returns {Promise<VaultPlace>}
 */
export async function placeInVault(file, cwd, vaultRoot, noteExtensions) {
	const absolute = resolve(cwd, file);
	const real = join(await realFolder(dirname(absolute)), basename(absolute));
	const inside = relative(vaultRoot, real);
	if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside))
		return { kind: "outside" };
	const segments = inside.split(sep);
	// Hidden files and folders (.obsidian, .trash, .git, the host's own state) are never served.
	if (segments.some((segment) => segment.startsWith("."))) return { kind: "not-a-note" };
	const name = segments[segments.length - 1] ?? "";
	const dot = name.lastIndexOf(".");
	if (dot <= 0 || !noteExtensions.includes(name.slice(dot + 1).toLowerCase())) return { kind: "not-a-note" };
	return {
		kind: "note",
		path: segments.join("/"),
		urlPath: segments.map(encodeURIComponent).join("/"),
		absolute: real,
	};
}

/** The vault folder with every symbolic link resolved; throws when it is not there. */
export async function realVaultRoot(/** @type {string} */ folder) {
	return realpath(resolve(folder));
}

/**
 * The folder with its links resolved. A folder that does not exist yet (a new note in a new folder) is resolved up
 * to its nearest existing ancestor, and the missing rest is kept as written.
 * @param {string} folder
 * @returns {Promise<string>}
 */
async function realFolder(folder) {
	try {
		return await realpath(folder);
	} catch {
		const parent = dirname(folder);
		if (parent === folder) return folder;
		return join(await realFolder(parent), basename(folder));
	}
}
