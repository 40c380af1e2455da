import { describe, expect, it } from "vitest";
import { ParsedNoteIndex } from "../../src/service/parsed-note-index";
import type { NoteSnapshot } from "../../src/vault/gateway";
import { MemoryGateway } from "../helpers/memory-gateway";

const all = () => true;
const now = () => Promise.resolve();

/** A memory gateway that counts reads and reports a chosen modification time for every note. */
class CountingGateway extends MemoryGateway {
	reads: string[] = [];
	mtime = 1_000;
	override async read(path: string): Promise<NoteSnapshot | null> {
		this.reads.push(path);
		const snapshot = await super.read(path);
		return snapshot && { ...snapshot, stat: { ...snapshot.stat, mtime: this.mtime } };
	}
	override async list(folder: string) {
		const entries = await super.list(folder);
		return entries && entries.map((entry) => (entry.stat ? { ...entry, stat: { ...entry.stat, mtime: this.mtime } } : entry));
	}
}

describe("ParsedNoteIndex", () => {
	it("lists each markdown note's tag uses, in every folder, and only the notes `include` admits", async () => {
		const gateway = new MemoryGateway({ "a.md": "#x #x\n", "deep/er/b.md": "---\ntags: [y]\n---\n#x\n", "c.txt": "#notmd\n", "skip/d.md": "#skipped\n" });
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now });
		const uses = await index.tagUses((path) => !path.startsWith("skip/"));
		expect(uses.sort()).toEqual([["x", "x"], ["y", "x"]].sort());
	});

	it("parses again only the notes whose stat changed, once they are older than the racy window", async () => {
		const gateway = new CountingGateway({ "a.md": "#one\n", "b.md": "#two\n" });
		let clock = 1_000 + 5_000;
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now, wallClock: () => clock });
		await index.tagUses(all);
		expect(gateway.reads.sort()).toEqual(["a.md", "b.md"]);
		gateway.reads = [];
		await index.tagUses(all);
		expect(gateway.reads).toEqual([]);
		gateway.notes.set("a.md", "#three #four\n");
		expect((await index.tagUses(all)).sort()).toEqual([["three", "four"], ["two"]].sort());
		expect(gateway.reads).toEqual(["a.md"]);
		// Parsed within the racy window of its modification: read again next time, even with the same stat.
		clock = 1_000 + 100;
		gateway.notes.set("b.md", "#five\n");
		gateway.reads = [];
		await index.tagUses(all);
		gateway.notes.set("b.md", "#six!\n");
		expect((await index.tagUses(all)).sort()).toEqual([["six"], ["three", "four"]].sort());
	});

	it("forgets deleted notes and skips notes it cannot read", async () => {
		const gateway = new MemoryGateway({ "a.md": "#a\n", "b.md": "#b\n" });
		gateway.read = async (path) => (path === "b.md" ? Promise.reject(new Error("not UTF-8")) : MemoryGateway.prototype.read.call(gateway, path));
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now });
		expect(await index.tagUses(all)).toEqual([["a"]]);
		gateway.notes.delete("a.md");
		expect(await index.tagUses(all)).toEqual([]);
	});

	it("resolves links over every file (attachments too) and finds the notes that link back", async () => {
		const gateway = new MemoryGateway({
			"Plan.md": "See [[Goals]], ![[pic.png]], [[Missing]] and [[Goals#Later|later]].\n",
			"Projects/Goals.md": "Back to [[Plan]].\n",
			"Other.md": "[also](Plan.md) and [[plan]]\n",
			"Unrelated.md": "[[Goals]]\n",
			"Skipped.md": "[[Plan]]\n",
			"pic.png": "png",
		});
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now });
		const links = await index.links("Plan.md", ["Goals", "pic.png", "Missing", "Goals"], (path) => path !== "Skipped.md");
		expect(links).toEqual({ links: ["Projects/Goals.md", "pic.png"], unresolvedLinks: ["Missing"], backlinks: ["Other.md", "Projects/Goals.md"] });
	});

	it("renders only when given a renderer", async () => {
		const gateway = new MemoryGateway();
		expect(new ParsedNoteIndex({ gateway, yieldToHost: now }).renderHtml).toBeUndefined();
		const rendering = new ParsedNoteIndex({ gateway, yieldToHost: now, render: (markdown, max) => (markdown.length > max ? null : `<p>${markdown}</p>`) });
		expect(await rendering.renderHtml!("a.md", "hi", 100)).toBe("<p>hi</p>");
		expect(await rendering.renderHtml!("a.md", "hi", 1)).toBeNull();
	});
});
