import { describe, expect, it } from "vitest";
import { isHiddenPath, KnownTree } from "../../src/vault/folder-watcher-tree";

function tree(): KnownTree {
	const known = new KnownTree("root");
	known.addFolder("a", "1");
	known.addFolder("a/b", "2");
	known.addFile("a/one.md");
	known.addFile("a/b/two.md");
	known.addFile("top.md");
	return known;
}

describe("KnownTree (what the folder watcher knows to exist)", () => {
	it("forgets a folder with everything under it, and says which notes those were", () => {
		const known = tree();
		const forgotten = known.remove("a");
		expect(forgotten.files.sort()).toEqual(["a/b/two.md", "a/one.md"]);
		expect(forgotten.folders).toEqual(["a", "a/b"]);
		expect(known.kindOf("a/b/two.md")).toBeUndefined();
		expect(known.hasFolder("a/b")).toBe(false);
		expect(known.kindOf("top.md")).toBe("file");
		expect(known.remove("a")).toEqual({ files: [], folders: [] });
	});

	it("lists its regular files, a folder's own before those of its folders, and no other kind of entry", () => {
		const known = tree();
		known.addFile("a/link.md", "other");
		known.addFileIn("a", "fifo.md", "other");
		known.addFile("zz.md");
		expect(known.regularFiles()).toEqual(["top.md", "zz.md", "a/one.md", "a/b/two.md"]);
		// A link is still an entry the watcher reports, like a file: forgotten with its folder.
		expect(known.remove("a").files.sort()).toEqual(["a/b/two.md", "a/fifo.md", "a/link.md", "a/one.md"]);
	});

	it("adds nothing under a folder it does not know", () => {
		const known = tree();
		known.addFileIn("gone", "x.md");
		expect(known.kindOf("gone/x.md")).toBeUndefined();
		known.addFileIn("a/b", "three.md");
		expect(known.kindOf("a/b/three.md")).toBe("file");
		expect(known.addFile("gone/x.md")).toBe(false);
		expect(known.addFolder("gone/y", "3")).toBe(false);
		expect(known.kindOf("gone/x.md")).toBeUndefined();
	});

	it("points a path under unknown folders at the highest of them", () => {
		const known = tree();
		expect(known.topmostUnknown("a/b/two.md")).toBe("a/b/two.md");
		expect(known.topmostUnknown("a/new/deeper/x.md")).toBe("a/new");
		expect(known.topmostUnknown("z/x.md")).toBe("z");
		expect(known.foldersUnder("")).toEqual(["", "a", "a/b"]);
	});

	it("calls a path hidden when any segment starts with a dot", () => {
		for (const path of [".revision-guard/x.json", "sub/.n.md.rg-tmp-0a1b", ".trash/n.md", "a/.obsidian/app.json", ".x"])
			expect(isHiddenPath(path), path).toBe(true);
		for (const path of ["a.md", "a/b.c/d.md", "notes/x..md"]) expect(isHiddenPath(path), path).toBe(false);
	});
});
