import { describe, expect, it } from "vitest";
import { LinkResolver, linkPaths, noteLinks } from "../../../src/core/search/note-links";

describe("linkPaths", () => {
	it("reads wiki links, embeds and markdown links to vault files, without subpaths or aliases, each once", () => {
		const content = "See [[Plan]], [[Plan#Budget|the budget]], ![[Diagram.png]] and [notes](Projects/Q1%20notes.md#top).\n[web](https://example.com) [mail](mailto:a@b.c) [anchor](#here) [[Plan]]\n";
		expect(linkPaths(content, {})).toEqual(["Plan", "Diagram.png", "Projects/Q1 notes.md"]);
	});

	it("skips links in code, and reads wiki links in frontmatter values", () => {
		const content = "---\nrelated: \"[[Other]]\"\n---\n```\n[[InFence]]\n```\nInline `[[InCode]]` and [[Real]]\n";
		expect(linkPaths(content, { related: "[[Other]]", list: ["[[Listed|alias]]"] })).toEqual(["Other", "Listed", "Real"]);
	});
});

describe("LinkResolver", () => {
	const notes = ["Plan.md", "Projects/Plan.md", "Projects/Deep/Spec.md", "Archive/Spec.md", "Archive/Old/Spec.md", "Notes/a b.md"];
	const resolver = new LinkResolver(notes);

	it("resolves a path from the vault root first, with or without .md, ignoring case", () => {
		expect(resolver.resolve("Plan", "Projects/Other.md")).toBe("Plan.md");
		expect(resolver.resolve("projects/plan.md", "x.md")).toBe("Projects/Plan.md");
	});

	it("then from the note's folder, then the nearest note of that name", () => {
		expect(resolver.resolve("Deep/Spec", "Projects/Other.md")).toBe("Projects/Deep/Spec.md");
		expect(resolver.resolve("Spec", "Archive/Note.md")).toBe("Archive/Spec.md");
		expect(resolver.resolve("Spec", "Elsewhere/Note.md")).toBe("Archive/Spec.md");
		expect(resolver.resolve("Old/Spec", "x.md")).toBe("Archive/Old/Spec.md");
	});

	it("resolves explicit relative paths only from the note's folder, never outside the vault", () => {
		expect(resolver.resolve("./Spec", "Archive/Note.md")).toBe("Archive/Spec.md");
		expect(resolver.resolve("../Plan", "Projects/Deep/x.md")).toBe("Projects/Plan.md");
		expect(resolver.resolve("../../../Plan", "Projects/x.md")).toBeNull();
		expect(resolver.resolve("Missing", "x.md")).toBeNull();
		expect(resolver.resolve("", "Projects/Plan.md")).toBe("Projects/Plan.md");
	});

	it("reports the notes reached and the link paths that reach none, leaving attachments out of both", () => {
		expect(noteLinks("x.md", ["Plan", "Missing", "Diagram.png", "a b", "Plan.md"], resolver)).toEqual({ links: ["Plan.md", "Notes/a b.md"], unresolvedLinks: ["Missing"] });
	});
});
