import { describe, expect, it } from "vitest";
import { ParsedNoteIndex } from "../../../src/service/search/parsed-note-index";
import { WALK_MS } from "../../../src/service/notes/vault-files";
import type { FolderEntry, NoteSnapshot } from "../../../src/vault/gateway";
import { MemoryGateway } from "../../helpers/memory-gateway";

const all = () => true;
const now = () => Promise.resolve();
/** Longer than the index's RACY_MS: a note parsed this long after its time is trusted by size and time. */
const RACY_GAP = 5_000;

/** A memory gateway that counts reads and reports a chosen modification time for every file. */
class CountingGateway extends MemoryGateway {
	reads: string[] = [];
	mtime = 1_000;
	override async read(path: string): Promise<NoteSnapshot | null> {
		this.reads.push(path);
		const snapshot = await super.read(path);
		return snapshot && { ...snapshot, stat: { ...snapshot.stat, mtime: this.mtime } };
	}
	override async list(folder: string): Promise<FolderEntry[] | null> {
		const entries = await super.list(folder);
		return (
			entries && entries.map((entry) => (entry.stat ? { ...entry, stat: { ...entry.stat, mtime: this.mtime } } : entry))
		);
	}
}

describe("ParsedNoteIndex", () => {
	it("lists each markdown note's tag uses, in every folder, and only the notes `include` admits", async () => {
		const gateway = new MemoryGateway({
			"a.md": "#x #x\n",
			"deep/er/b.md": "---\ntags: [y]\n---\n#x\n",
			"c.txt": "#notmd\n",
			"skip/d.md": "#skipped\n",
		});
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now });
		const uses = await index.tagUses((path) => !path.startsWith("skip/"));
		expect(uses.sort()).toEqual(
			[
				["x", "x"],
				["y", "x"],
			].sort(),
		);
	});

	it("parses a note once, and again only when it hears the note changed (another program's edit, or this host's write)", async () => {
		const gateway = new CountingGateway({ "a.md": "#one\n", "b.md": "#two\n" });
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now, wallClock: () => 10_000 });
		await index.tagUses(all);
		expect(gateway.reads.sort()).toEqual(["a.md", "b.md"]);
		gateway.reads = [];
		expect((await index.tagUses(all)).sort()).toEqual([["one"], ["two"]]);
		expect(gateway.reads).toEqual([]);
		gateway.externalEdit("a.md", "#three\n");
		expect((await index.tagUses(all)).sort()).toEqual([["three"], ["two"]]);
		expect(gateway.reads).toEqual(["a.md"]);
		// This host's own writes are told by the service (a folder's watcher leaves them out).
		gateway.notes.set("b.md", "#four\n");
		gateway.notes.set("new.md", "#five\n");
		index.changed("b.md");
		index.changed("new.md");
		expect((await index.tagUses(all)).sort()).toEqual([["five"], ["four"], ["three"]]);
		gateway.notes.delete("new.md");
		index.changed("new.md");
		expect((await index.tagUses(all)).sort()).toEqual([["four"], ["three"]]);
	});

	it("walks again after WALK_MS and then parses again what changed unheard, by size and time, and what was racy", async () => {
		const gateway = new CountingGateway({ "a.md": "#one\n", "b.md": "#two\n" });
		let clock = 1_000 + 100;
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now, wallClock: () => clock });
		await index.tagUses(all);
		// Changed without a word: unseen until the next walk.
		gateway.notes.set("a.md", "#three #four\n");
		gateway.notes.set("b.md", "#six\n");
		clock += 1;
		expect((await index.tagUses(all)).sort()).toEqual([["one"], ["two"]]);
		clock += WALK_MS + 1;
		gateway.reads = [];
		// a.md's size changed; b.md kept its size and time, but was parsed within RACY_MS of that time.
		expect((await index.tagUses(all)).sort()).toEqual([["six"], ["three", "four"]]);
		expect(gateway.reads.sort()).toEqual(["a.md", "b.md"]);
		gateway.reads = [];
		clock += WALK_MS + 1;
		await index.tagUses(all);
		expect(gateway.reads).toEqual([]);
	});

	it("lists every file links may reach (attachments too) without parsing a note, and a walk for that still checks kept notes", async () => {
		const gateway = new CountingGateway({ "a.md": "#one\n", "pics/p.png": "png", "data.csv": "x" });
		let clock = 1_000 + 100;
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now, wallClock: () => clock });
		await index.tagUses(all);
		clock += RACY_GAP;
		gateway.reads = [];
		gateway.notes.set("a.md", "#changed unheard\n");
		clock += WALK_MS + 1;
		// This call walks: the kept a.md no longer matches the walk (its size changed) and must not be trusted later.
		expect((await index.linkableFiles()).sort()).toEqual(["a.md", "data.csv", "pics/p.png"]);
		expect(gateway.reads).toEqual([]);
		expect(await index.tagUses(all)).toEqual([["changed"]]);
	});

	it("forgets deleted notes and skips notes it cannot read", async () => {
		const gateway = new MemoryGateway({ "a.md": "#a\n", "b.md": "#b\n" });
		gateway.read = async (path) =>
			path === "b.md" ? Promise.reject(new Error("not UTF-8")) : MemoryGateway.prototype.read.call(gateway, path);
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now });
		expect(await index.tagUses(all)).toEqual([["a"]]);
		await gateway.mutate("a.md", () => ({ kind: "trash", result: null }));
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
		const links = await index.links(
			"Plan.md",
			["Goals", "pic.png", "Missing", "Goals"],
			(path) => path !== "Skipped.md",
		);
		expect(links).toEqual({
			links: ["Projects/Goals.md", "pic.png"],
			unresolvedLinks: ["Missing"],
			backlinks: ["Other.md", "Projects/Goals.md"],
		});
		gateway.externalEdit("Missing.md", "[[Plan]]\n");
		expect(await index.links("Plan.md", ["Missing"], all)).toMatchObject({
			links: ["Missing.md"],
			unresolvedLinks: [],
			backlinks: ["Missing.md", "Other.md", "Projects/Goals.md", "Skipped.md"],
		});
	});

	it("stops listening to the vault when closed", async () => {
		const gateway = new MemoryGateway({ "a.md": "#a\n" });
		const index = new ParsedNoteIndex({ gateway, yieldToHost: now });
		await index.tagUses(all);
		index.close();
		gateway.externalEdit("a.md", "#b\n");
		expect(await index.tagUses(all)).toEqual([["a"]]);
	});

	it("renders only when given a renderer", async () => {
		const gateway = new MemoryGateway();
		expect(new ParsedNoteIndex({ gateway, yieldToHost: now }).renderHtml).toBeUndefined();
		const rendering = new ParsedNoteIndex({
			gateway,
			yieldToHost: now,
			render: (markdown, max) => (markdown.length > max ? null : `<p>${markdown}</p>`),
		});
		expect(await rendering.renderHtml!("a.md", "hi", 100)).toBe("<p>hi</p>");
		expect(await rendering.renderHtml!("a.md", "hi", 1)).toBeNull();
	});
});
