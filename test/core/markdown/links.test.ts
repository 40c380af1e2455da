import { describe, expect, it } from "vitest";
import { MAX_LINKS_PER_NOTE, noteEmbedpaths, noteLinkpaths } from "../../../src/core/markdown/links";

describe("noteLinkpaths", () => {
	it("reads wikilinks and embeds, without heading, block or alias", () => {
		expect(
			noteLinkpaths(
				"See [[Plan]], [[Folder/Other Note#Goals|the goals]] and ![[diagram.png]] and [[Plan#^block-1]].\n",
			),
		).toEqual(["Plan", "Folder/Other Note", "diagram.png", "Plan"]);
	});

	it("reads markdown links to vault files, percent-decoded, and leaves out URLs with a scheme", () => {
		const note =
			'[a](Notes/Plan%20B.md) [b](<Notes/With space.md>) [c](Other.md#Heading "title") ![img](pics/a.png) [web](https://x.test/a.md) [mail](mailto:a@x.test) [obs](obsidian://open?vault=x)\n';
		expect(noteLinkpaths(note)).toEqual(["Notes/Plan B.md", "Notes/With space.md", "Other.md", "pics/a.png"]);
	});

	it("leaves out links to a heading of the same note", () => {
		expect(noteLinkpaths("[[#Heading]] [x](#section) [[^block]]\n")).toEqual(["^block"]);
	});

	it("does not look inside fenced or inline code", () => {
		const note = [
			"[[Before]]",
			"```",
			"[[InFence]] [x](Fenced.md)",
			"```",
			"`[[Inline]]` [[After]]",
			"~~~",
			"[[Tilde]]",
		].join("\n");
		expect(noteLinkpaths(note)).toEqual(["Before", "After"]);
	});

	it("reads an alias escaped in a table, and a link whose text holds brackets", () => {
		expect(noteLinkpaths("| [[Note\\|alias]] | [see [1]](Ref.md) |\n")).toEqual(["Note", "Ref.md"]);
	});

	it("reads wikilinks in frontmatter values (Obsidian's properties), but no other frontmatter text", () => {
		const note =
			'---\nup: "[[Parent]]"\nrelated:\n  - "[[One]]"\n  - plain\nnested: { deep: "see [[Deep]]" }\ntitle: "[x](NotALink.md)"\n---\nBody [[Body]]\n';
		expect(noteLinkpaths(note)).toEqual(["Parent", "One", "Deep", "Body"]);
	});

	it("reads balanced parentheses in a destination, and no link past 32 levels of them", () => {
		expect(noteLinkpaths("[a](Note(1).md) [b](x" + "(".repeat(33) + ")".repeat(33) + ")\n")).toEqual(["Note(1).md"]);
	});

	it("keeps a link with broken percent-encoding as written, and skips empty targets", () => {
		expect(noteLinkpaths("[a](100%.md) [[ ]] [b]()\n")).toEqual(["100%.md"]);
	});

	it("lists a link once per use, and at most MAX_LINKS_PER_NOTE", () => {
		expect(noteLinkpaths("[[A]] [[A]]\n")).toEqual(["A", "A"]);
		expect(noteLinkpaths("[[x]]".repeat(MAX_LINKS_PER_NOTE + 3))).toHaveLength(MAX_LINKS_PER_NOTE);
	});

	it("reads a long line of brackets and parentheses in linear time", () => {
		const started = Date.now();
		const lines = [
			"[a](" + " ".repeat(200_000),
			"[".repeat(100_000),
			"[x]".repeat(50_000),
			"[x](".repeat(50_000),
			"[x](<".repeat(50_000),
			"[x](a '".repeat(50_000),
			"[[".repeat(50_000),
		];
		expect(noteLinkpaths(lines.join("\n"))).toEqual([]);
		// A guard against catastrophic backtracking only (quadratic would take minutes), not a speed assertion.
		expect(Date.now() - started).toBeLessThan(20_000);
	});
});

describe("noteEmbedpaths", () => {
	it("reads the embeds alone, wikilink and markdown, and never a frontmatter link", () => {
		const note =
			'---\nrelated: "[[Front]]"\n---\n' +
			"See [[Plain]] and ![[Embedded#Part|shown]].\n" +
			"A [link](Linked.md), an ![embed](Folder/Shown%20Too.md) and ![image](pic.png).\n" +
			"`![[In code]]`\n";
		expect(noteEmbedpaths(note)).toEqual(["Embedded", "Folder/Shown Too.md", "pic.png"]);
		expect(noteLinkpaths(note)).toEqual(["Front", "Plain", "Embedded", "Linked.md", "Folder/Shown Too.md", "pic.png"]);
	});

	it("does not take a '!' before a link's text for an embed when a bracket comes between", () => {
		expect(noteEmbedpaths("Wow![x] then [y](Note.md)\n")).toEqual([]);
	});
});
