/** The lost-update verdict on a save made by another program (core/outside-save.ts). */
import { describe, expect, it } from "vitest";
import { judgeOutsideSaveSteps, type OutsideSave } from "../../src/core/outside-save";
import { WORD_COMPARE_LIMIT } from "../../src/core/outside-save-carried";
import { finishNow } from "../../src/core/steps";

const judge = (save: Omit<OutsideSave, "writtenIsEarlier"> & { writtenIsEarlier?: boolean }) =>
	finishNow(judgeOutsideSaveSteps({ writtenIsEarlier: false, ...save }));

const B = "# Plan\n\n- one\n- two\n\n## Notes\n\nnothing yet\n";
const P = "# Plan\n\n- one\n- two\n- three (person)\n\n## Notes\n\nnothing yet\n";

describe("an outside save's verdict", () => {
	it("flags a save made from the older copy: it lacks P's edit and has one of its own, and offers the clean merge", () => {
		const W = "# Plan\n\n- one\n- two\n\n## Notes\n\nthe agent's note\n";
		const verdict = judge({ parent: B, previous: P, written: W });
		expect(verdict).toMatchObject({
			kind: "lost",
			merged: "# Plan\n\n- one\n- two\n- three (person)\n\n## Notes\n\nthe agent's note\n",
		});
	});

	it("does not flag a save made from P (a program that re-read the note)", () => {
		expect(judge({ parent: B, previous: P, written: P + "\nmore\n" })).toEqual({ kind: "kept" });
	});

	it("does not flag a save that edited P's new lines further", () => {
		const W = P.replace("- three (person)\n", "- three (person), done by Friday\n");
		expect(judge({ parent: B, previous: P, written: W })).toEqual({ kind: "kept" });
	});

	it("does not flag typing that went on inside a word P had started, in a note open in the editor (its autosaves)", () => {
		const base = "line one\nline two\n";
		expect(
			judge({
				parent: base,
				previous: "xxxxline one\nline two\n",
				written: "xxxxxxxxxxxxline one\nline two\n",
				openInEditor: true,
			}),
		).toEqual({ kind: "kept" });
		expect(
			judge({
				parent: base,
				previous: "hello wrold\nline two\n",
				written: "hello world\nline two\n",
				openInEditor: true,
			}),
		).toEqual({ kind: "kept" });
		expect(
			judge({
				parent: base,
				previous: "  line one\nline two\n",
				written: "    line one\nline two\n",
				openInEditor: true,
			}),
		).toEqual({ kind: "kept" });
	});

	it("flags a save that rewrote the same lines without P's edit", () => {
		const P2 = B.replace("nothing yet", "call Ada on Monday about the budget");
		const W = B.replace("nothing yet", "draft ready");
		expect(judge({ parent: B, previous: P2, written: W })).toMatchObject({ kind: "lost", merged: null });
	});

	it("does not flag a pure undo back to B or to an earlier revision", () => {
		expect(judge({ parent: B, previous: P, written: B })).toEqual({ kind: "undo" });
		expect(judge({ parent: B, previous: P, written: "# Older\n", writtenIsEarlier: true })).toEqual({ kind: "undo" });
	});

	it("flags a note created by P and replaced by a program that never saw it", () => {
		expect(judge({ parent: "", previous: "# Mine\n", written: "# Theirs\n" })).toMatchObject({ kind: "lost" });
	});

	it("does not flag what people merge by hand: both edits kept", () => {
		const W = "# Plan\n\n- one\n- two\n- three (person)\n\n## Notes\n\nthe agent's note\n";
		expect(judge({ parent: B, previous: P, written: W })).toEqual({ kind: "kept" });
	});

	it("does not flag a save that has P's new line in another place (the merge pairs it elsewhere)", () => {
		const P2 = "a\nb\nnew line\nc\n";
		const W = "a\nnew line\nb\nc\nmore\n";
		expect(judge({ parent: "a\nb\nc\n", previous: P2, written: W })).toEqual({ kind: "kept" });
	});

	it("flags a save that added its own item where P added another to the same line", () => {
		const B2 = "Languages: English, French.\n";
		const P2 = "Languages: English, French, Bengali (bn).\n";
		const W = "Languages: English, French, Ukrainian (uk).\n";
		expect(judge({ parent: B2, previous: P2, written: W })).toMatchObject({ kind: "lost" });
	});

	it("flags a save that kept most of P's lines but dropped one P added to the same place", () => {
		const B2 = "# Index\n\n- Java\n";
		const P2 = "# Index\n\n- Java\n- PHP\n  - Symfony framework\n";
		const W = "# Index\n\n- Java\n- PHP\n";
		const W2 = W + "- Go\n";
		expect(judge({ parent: B2, previous: P2, written: W2 })).toMatchObject({ kind: "lost" });
	});

	it("judges a change of indentation alone by the spaces W keeps", () => {
		const B2 = "```\nif ok:\n  run(1)\n```\n";
		const P2 = "```\nif ok:\n    run(1)\n```\n";
		expect(judge({ parent: B2, previous: P2, written: "```\nif ok:\n  run(2)\n```\n" })).toMatchObject({
			kind: "lost",
		});
		expect(judge({ parent: B2, previous: P2, written: "```\nif ok:\n    run(2)\n```\n" })).toEqual({ kind: "kept" });
	});

	it("judges a change of markup alone by the characters W keeps", () => {
		const B2 = "Install it with npm install and restart.\n";
		const P2 = "Install it with `npm install` and restart.\n";
		expect(judge({ parent: B2, previous: P2, written: "Install it with `npm install` and reload.\n" })).toEqual({
			kind: "kept",
		});
		expect(judge({ parent: B2, previous: P2, written: "Install it with npm install and reload.\n" })).toMatchObject({
			kind: "lost",
		});
	});

	it("does not flag a save that dropped only a blank line P removed (nothing P wrote is lost)", () => {
		const B2 = "# Title\n\n\nText here.\n";
		const P2 = "# Title\n\nText here.\n";
		expect(judge({ parent: B2, previous: P2, written: "# Title\n\n\nText here, and more.\n" })).toEqual({
			kind: "kept",
		});
	});

	it("flags a save that kept B's lines where P deleted them", () => {
		const B2 = "# Topics\n\n- one\n- two\n- three\n\nEnd.\n";
		const P2 = "# Topics\n\nEnd.\n";
		expect(
			judge({ parent: B2, previous: P2, written: "# Topics\n\n- one\n- two\n- three\n\nThe end.\n" }),
		).toMatchObject({ kind: "lost" });
	});

	it("flags a save that dropped the tag P added to the frontmatter while adding its own (the tags rule combines them)", () => {
		const B2 = "---\ntitle: Plan\ntags: [work]\n---\nBody\n";
		const P2 = B2.replace("[work]", "[work, urgent]");
		const W = "---\ntitle: The plan\ntags: [work, q3]\n---\nBody\n";
		expect(judge({ parent: B2, previous: P2, written: W })).toMatchObject({
			kind: "lost",
			merged: "---\ntitle: The plan\ntags: [work, urgent, q3]\n---\nBody\n",
		});
		expect(
			judge({ parent: B2, previous: P2, written: "---\ntitle: The plan\ntags: [work, urgent, q3]\n---\nBody\n" }),
		).toEqual({ kind: "kept" });
	});

	it("judges a place too big to compare word by word by its lines alone: when in doubt, the person is told", () => {
		const paragraph = (word: string) =>
			Array.from({ length: WORD_COMPARE_LIMIT / 10 }, (_, i) => `${word}${i}`).join(" ") + "\n";
		const B2 = "# Big\n\nshort\n";
		const P2 = "# Big\n\n" + paragraph("p");
		const edited = P2.replace("p5 ", "five ");
		expect(judge({ parent: B2, previous: P2, written: edited })).toMatchObject({ kind: "lost" });
		expect(judge({ parent: B2, previous: P2, written: P2 + "more\n" })).toEqual({ kind: "kept" });
	});
});
