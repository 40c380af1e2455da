/**
 * Where a link leads, by Obsidian's rules (its metadataCache.getFirstLinkpathDest, as observed on Obsidian 1.13), for
 * a host that has no Obsidian to ask (the headless host):
 * 1. a path starting with `./`, `../` or `/` names exactly that file (from the note's folder, or the vault root);
 * 2. else a file at exactly that vault path wins;
 * 3. else, among the files whose path ends with it (`[[b/Note]]` matches `a/b/Note.md`), one in the linking note's own
 *    folder wins, then the shortest path (then the first in code-unit order, so the answer never depends on listing order).
 * A link without an extension means a markdown note (`[[Note]]` is `Note.md`); one with an extension that names no
 * file is tried as a note too (`[[v1.2]]` is `v1.2.md`). Names are matched without regard to case, an exact spelling first.
 */
import { parentFolder } from "./path";

export class LinkTargets {
	/** Lower-cased path → the files spelled so (two spellings differ only on a case-sensitive disk). */
	private readonly byPath = new Map<string, string[]>();
	/** Lower-cased file name → the files with that name. */
	private readonly byName = new Map<string, string[]>();

	/** `files`: every file a link may lead to, as vault-relative paths (attachments too, not only notes). */
	constructor(files: Iterable<string>) {
		for (const file of files) {
			push(this.byPath, file.toLowerCase(), file);
			push(this.byName, nameOf(file).toLowerCase(), file);
		}
	}

	/** The file `linkpath` (as written, without `#heading` or alias) leads to from the note at `source`, or null. */
	resolve(linkpath: string, source: string): string | null {
		const explicit = /^\.{1,2}\/|^\//.test(linkpath);
		if (explicit) {
			const joined = linkpath.startsWith("/") ? linkpath.slice(1) : joinPath(parentFolder(source), linkpath);
			return joined === null ? null : this.exact(joined);
		}
		const exact = this.exact(linkpath);
		if (exact !== null) return exact;
		const folder = parentFolder(source);
		const candidates = this.endingWith(linkpath);
		const beside = candidates.filter((file) => parentFolder(file) === folder);
		const pool = beside.length > 0 ? beside : candidates;
		return pool.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))[0] ?? null;
	}

	/** The file at exactly this path, as a note first (`Note` → `Note.md`), then as written. */
	private exact(path: string): string | null {
		for (const form of forms(path)) {
			const found = this.byPath.get(form.toLowerCase());
			if (found) return found.find((file) => file === form) ?? found[0]!;
		}
		return null;
	}

	private endingWith(linkpath: string): string[] {
		for (const form of forms(linkpath)) {
			const lower = form.toLowerCase();
			const named = this.byName.get(nameOf(lower)) ?? [];
			const matches = named.filter((file) => {
				const path = file.toLowerCase();
				return path === lower || path.endsWith("/" + lower);
			});
			if (matches.length > 0) return matches;
		}
		return [];
	}
}

/** The spellings a link path may mean, the likelier first. */
function forms(path: string): string[] {
	const name = nameOf(path);
	const hasExtension = name.lastIndexOf(".") > 0;
	if (path.toLowerCase().endsWith(".md")) return [path];
	return hasExtension ? [path, `${path}.md`] : [`${path}.md`];
}

function nameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

/** `folder` + a relative path with `.` and `..` segments; null when it climbs out of the vault. */
function joinPath(folder: string, relative: string): string | null {
	const parts = folder === "" ? [] : folder.split("/");
	for (const segment of relative.split("/")) {
		if (segment === "." || segment === "") continue;
		if (segment === "..") {
			if (parts.length === 0) return null;
			parts.pop();
		} else parts.push(segment);
	}
	return parts.join("/");
}

function push(map: Map<string, string[]>, key: string, value: string): void {
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}
