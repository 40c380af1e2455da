import { describe, expect, it } from "vitest";
import { LinkTargets } from "../../src/core/link-resolution";

const files = [
	"Note.md",
	"a/b/Note.md",
	"zzzz/Note.md",
	"b/Note.md",
	"Projects/Plan.md",
	"Projects/img.png",
	"Deep/er/Only.md",
	"v1.2.md",
	"Archive/Plan.md",
	"Case/MixedCase.md",
];
const targets = new LinkTargets(files);

describe("LinkTargets.resolve (Obsidian's rules)", () => {
	it("takes an exact vault path first, even over a note beside the linking one", () => {
		expect(targets.resolve("Note", "zzzz/Source.md")).toBe("Note.md");
		expect(targets.resolve("b/Note", "a/Source.md")).toBe("b/Note.md");
	});

	it("then a note in the linking note's own folder", () => {
		expect(targets.resolve("Plan", "Archive/Source.md")).toBe("Archive/Plan.md");
		expect(targets.resolve("Plan", "Projects/Source.md")).toBe("Projects/Plan.md");
	});

	it("then the shortest path, then code-unit order", () => {
		expect(targets.resolve("Plan", "Elsewhere/Source.md")).toBe("Archive/Plan.md");
		expect(targets.resolve("Only", "Source.md")).toBe("Deep/er/Only.md");
	});

	it("matches a partial path only on a folder boundary", () => {
		expect(targets.resolve("er/Only", "x.md")).toBe("Deep/er/Only.md");
		expect(targets.resolve("r/Only", "x.md")).toBeNull();
	});

	it("reads a name without extension as a note, and a name with one as that file or a note", () => {
		expect(targets.resolve("img.png", "x.md")).toBe("Projects/img.png");
		expect(targets.resolve("v1.2", "x.md")).toBe("v1.2.md");
		expect(targets.resolve("Plan.md", "x.md")).toBe("Archive/Plan.md");
	});

	it("matches names without regard to case", () => {
		expect(targets.resolve("mixedcase", "x.md")).toBe("Case/MixedCase.md");
		expect(targets.resolve("case/MIXEDCASE.md", "x.md")).toBe("Case/MixedCase.md");
	});

	it("resolves ./, ../ and / paths exactly, and nowhere else", () => {
		expect(targets.resolve("./Plan", "Projects/Source.md")).toBe("Projects/Plan.md");
		expect(targets.resolve("../Note", "b/Source.md")).toBe("Note.md");
		expect(targets.resolve("/Projects/Plan", "Archive/Source.md")).toBe("Projects/Plan.md");
		expect(targets.resolve("./Only", "Source.md")).toBeNull();
		expect(targets.resolve("../../Note", "Source.md")).toBeNull();
	});

	it("leaves a link to nothing unresolved", () => {
		expect(targets.resolve("xylophone-does-not-exist", "Note.md")).toBeNull();
		expect(new LinkTargets([]).resolve("Note", "Note.md")).toBeNull();
	});
});
