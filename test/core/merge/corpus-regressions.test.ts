/**
 * The markdown rules' decisions, each pinned by a real merge from ../shared/merge-corpus, cut down to a few lines.
 * The corpus id in each test's name is the case it was made from (real-corpus.test.ts replays the full cases).
 */
import { afterAll, describe, expect, it } from "vitest";
import { mergedText, mergeThreeWay, rulesFired, type MergeResult } from "../../../src/core/merge";
import { gitMerger } from "../../helpers/git-merge";

const git = gitMerger();
afterAll(() => git.close());

function merge(base: string, mine: string, theirs: string): MergeResult {
	return mergeThreeWay(base, mine, theirs);
}

const reasons = (result: MergeResult) =>
	result.regions.flatMap((region) => (region.kind === "conflict" ? [region.reason] : []));

describe("frontmatter: neighbouring keys changed on each side conflict, as in git", () => {
	it("github+opensource.guide/0336 (code-of-conduct.md): toc added under a description the other side shortened", () => {
		const base =
			"---\ntitle: Your Code of Conduct\ndescription: Adopting, and enforcing, a code of conduct empowers you.\n---\n\nA code of conduct is a document.\n";
		const mine =
			'---\ntitle: Your Code of Conduct\ndescription: Adopting, and enforcing, a code of conduct empowers you.\ntoc:\n  why: "Why"\n---\n\n## Why do I need a code of conduct?\n\nA code of conduct is a document.\n';
		const theirs =
			"---\ntitle: Your Code of Conduct\ndescription: Empowering healthy behavior through a code of conduct.\n---\n\nA code of conduct is a document.\n";
		expect(git.merge({ base, mine, theirs }).conflicts).toBe(1);
		const result = merge(base, mine, theirs);
		expect(reasons(result)).toEqual(["overlap"]);
		expect(rulesFired(result)).toEqual([]);
		// The body's new heading still merges: only the frontmatter is left to the person.
		expect(result.regions).toContainEqual(
			expect.objectContaining({ kind: "stable", origin: "mine", text: "## Why do I need a code of conduct?\n\n" }),
		);
	});

	it("github+opensource.guide/0338 (getting-paid.md): the intro repeating description deleted, description shortened", () => {
		const intro = "Whether you contribute a lot or a little, you may wonder whether anybody gets paid.\n";
		const base = `---\ntitle: Getting Paid\ndescription: ${intro}---\n\n${intro}\n## Why\n`;
		const mine = `---\ntitle: Getting Paid\ndescription: ${intro}toc:\n  why: "Why"\n---\n\n## Why\n`;
		const theirs = `---\ntitle: Getting Paid\ndescription: Ways to think about money and open source.\n---\n\n${intro}\n## Why\n`;
		const result = merge(base, mine, theirs);
		expect(result.conflicts).toBe(1);
		const conflict = result.regions.find((region) => region.kind === "conflict");
		expect(conflict).toMatchObject({
			reason: "overlap",
			theirs: "description: Ways to think about money and open source.\n",
		});
	});

	it("github+opensource.guide/0340 (metrics.md): class and toc added under a description the other side rewrote", () => {
		const base =
			"---\ntitle: Open Source Metrics\ndescription: Is it growing?\n---\n\nIs it growing? Let's talk.\n\n## Why measure anything?\n\nData can help you:\n";
		const mine =
			'---\ntitle: Open Source Metrics\ndescription: Is it growing?\nclass: metrics\ntoc:\n  why: "Why"\n---\n\n## Why measure anything?\n\nData can help you:\n';
		const theirs =
			"---\ntitle: Open Source Metrics\ndescription: Measuring activity.\n---\n\nIs it growing? Let's talk.\n\n## Why measure anything?\n\nWith more data, you can:\n";
		const result = merge(base, mine, theirs);
		expect(reasons(result)).toEqual(["overlap"]);
		expect(result.regions).toContainEqual(
			expect.objectContaining({ kind: "stable", origin: "theirs", text: "With more data, you can:\n" }),
		);
	});

	it("github+opensource.guide/0423 (legal.md): two different keys added at the same place", () => {
		const base = "---\ntitle: The legal side\n---\n\nText.\n";
		const result = merge(
			base,
			base.replace("side\n", "side\nbreadcrumb: Getting Started\n"),
			base.replace("side\n", "side\nnext: preparing.md\n"),
		);
		expect(reasons(result)).toEqual(["overlap"]);
	});

	it("github+opensource.guide/0317 (beginners-guide.md): the same title change on both sides, description on one, merges and is marked", () => {
		const base = "---\ntitle: A Project\ndescription: An brief introduction.\nclass: beginners\n---\n\nBody.\n";
		const mine = "---\ntitle: A&nbsp;Project\ndescription: Learn more.\nclass: beginners\n---\n\nBody.\n";
		const theirs = "---\ntitle: A&nbsp;Project\ndescription: An brief introduction.\nclass: beginners\n---\n\nBody.\n";
		expect(git.merge({ base, mine, theirs }).conflicts).toBe(1);
		const result = merge(base, mine, theirs);
		expect(mergedText(result)).toBe(mine);
		const block = "---\ntitle: A&nbsp;Project\ndescription: Learn more.\nclass: beginners\n---\n";
		expect(result.regions[0]).toEqual({
			kind: "stable",
			text: block,
			origin: "both",
			base: base.slice(0, base.indexOf("\n\n") + 1),
			rule: "frontmatter",
			mine: block,
			theirs: theirs.slice(0, theirs.indexOf("\n\n") + 1),
		});
		expect(rulesFired(result)).toEqual(["frontmatter"]);
	});

	it("keeps the set-merge of tags and aliases next to other keys (marked tags)", () => {
		const base = "---\ntitle: T\ntags: [a]\naliases: [x]\n---\nbody\n";
		const mine = "---\ntitle: T2\ntags: [a, b]\naliases: [x]\n---\nbody\n";
		const theirs = "---\ntitle: T\ntags: [a, c]\naliases: [x, y]\n---\nbody\n";
		expect(git.merge({ base, mine, theirs }).conflicts).toBe(1);
		const result = merge(base, mine, theirs);
		expect(mergedText(result)).toBe("---\ntitle: T2\ntags: [a, b, c]\naliases: [x, y]\n---\nbody\n");
		expect(result.regions[0]).toMatchObject({
			rule: "tags",
			origin: "both",
			mine: mine.slice(0, -5),
			theirs: theirs.slice(0, -5),
		});
	});
});

describe("lists: re-indenting items turns the list rule off where the nestings would mix", () => {
	const toc = "* [Go](#go)\n* [HTML and CSS](#html-and-css)\n  * [Bootstrap](#bootstrap)\n* [IDE](#ide)\n";

	it("EbookFoundation+free-programming-books/0234 (free-courses-bn.md): sub-items re-indented 2 → 4, a sibling added at 2", () => {
		const mine = toc.replace(
			"  * [Bootstrap](#bootstrap)\n",
			"  * [Bootstrap](#bootstrap)\n  * [Tailwind](#tailwind)\n",
		);
		const theirs = toc.replace("  * [Bootstrap]", "    * [Bootstrap]");
		expect(git.merge({ base: toc, mine, theirs }).conflicts).toBe(1);
		expect(reasons(merge(toc, mine, theirs))).toEqual(["overlap"]);
		// Either side may be the one that re-indents.
		expect(reasons(merge(toc, theirs, mine))).toEqual(["overlap"]);
	});

	it("EbookFoundation+free-programming-books/0035 (free-courses-*.md): a sub-item re-indented next to its renamed parent conflicts, as in git (the list rule is off for a re-indented list)", () => {
		const base = "* [Haskell](#haskell)\n* [HTML / CSS](#html--css)\n  * [Bootstrap](#bootstrap)\n* [Java](#java)\n";
		const mine = base.replace("  * [Bootstrap]", "    * [Bootstrap]");
		const theirs = base.replace("[HTML / CSS](#html--css)", "[HTML and CSS](#html-and-css)");
		expect(git.merge({ base, mine, theirs }).conflicts).toBe(1);
		const result = merge(base, mine, theirs);
		expect(reasons(result)).toEqual(["overlap"]);
		expect(rulesFired(result)).toEqual([]);
		// Re-indenting in one list while the other side edits an item elsewhere in it, apart, still merges by git's rule.
		const far = base.replace("* [Haskell](#haskell)\n", "* [Go](#go)\n* [Haskell](#haskell)\n");
		expect(merge(base, mine, far).clean).toBe(true);
	});

	it("turns the rule off when both sides re-indent items of one list", () => {
		const base = "- a\n- b\n- c\n";
		expect(reasons(merge(base, "  - a\n- b\n- c\n", "- a\n  - b\n- c\n"))).toEqual(["overlap"]);
	});

	it("keeps ticking a task next to an item the other side edited (marked list)", () => {
		const base = "# Today\n- [ ] call Ann\n- [ ] buy milk\n";
		const result = merge(
			base,
			"# Today\n- [x] call Ann\n- [ ] buy milk\n",
			"# Today\n- [ ] call Ann\n- [ ] buy oat milk\n",
		);
		expect(mergedText(result)).toBe("# Today\n- [x] call Ann\n- [ ] buy oat milk\n");
		expect(result.regions.filter((region) => region.kind === "stable" && region.rule === "list")).toEqual([
			{ kind: "stable", text: "- [x] call Ann\n", origin: "mine", base: "- [ ] call Ann\n", rule: "list" },
			{ kind: "stable", text: "- [ ] buy oat milk\n", origin: "theirs", base: "- [ ] buy milk\n", rule: "list" },
		]);
	});
});

describe("fences: a change to the opening fence's info string is not a change inside the block", () => {
	const block =
		"Text.\n\n```rust\nuse std::io;\n\nfn new(value: u32) -> Guess {\n    check(value);\n    Guess { value }\n}\n```\n\nMore.\n";

	it("rust-lang+book/0553 (ch11-01-writing-tests.md): ```rust → ```rust,panics against a change in the code merges as git does", () => {
		const mine = block.replace("u32", "i32");
		const theirs = block.replace("```rust", "```rust,panics");
		const reference = git.merge({ base: block, mine, theirs });
		expect(reference.conflicts).toBe(0);
		const result = merge(block, mine, theirs);
		expect(mergedText(result)).toBe(reference.output);
		expect(rulesFired(result)).toEqual([]);
	});

	it("rust-lang+book/0555 (ch19-01-unsafe-rust.md): the info string changed and the same code change made on both sides", () => {
		const mine = block.replace("u32", "i32");
		const theirs = block.replace("```rust", "```rust,unsafe").replace("u32", "i32");
		const reference = git.merge({ base: block, mine, theirs });
		expect(reference.conflicts).toBe(0);
		expect(mergedText(merge(block, mine, theirs))).toBe(reference.output);
	});

	it("rust-lang+book/0721 (chapter12.md): a paragraph added above and ```bash → ```text, against a change in the output", () => {
		const base = "Intro.\n\n```bash\n$ cargo run\n     Running `target\\debug\\greprs.exe`\n```\n";
		const mine = base.replace("target\\debug\\greprs.exe", "target/debug/greprs");
		const theirs = base.replace("```bash", "Let's try it:\n\n```text");
		const reference = git.merge({ base, mine, theirs });
		expect(reference.conflicts).toBe(0);
		expect(mergedText(merge(base, mine, theirs))).toBe(reference.output);
	});

	it("rust-lang+rfcs/0072 (0000-allocator.md): both sides changing the code still conflict, info string or not", () => {
		const mine = block.replace("u32", "i32");
		const theirs = block.replace("```rust", "```rust,ignore").replace("Guess { value }", "Guess { value: value * 2 }");
		expect(git.merge({ base: block, mine, theirs }).conflicts).toBe(0);
		expect(reasons(merge(block, mine, theirs))).toEqual(["fence"]);
	});
});
