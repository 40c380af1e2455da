/** The lost-update verdict on a save made by another program (core/outside-save.ts). */
import { describe, expect, it } from "vitest";
import { judgeOutsideSaveSteps, type OutsideSave } from "../../src/core/outside-save";
import { finishNow } from "../../src/core/steps";

const judge = (save: Omit<OutsideSave, "writtenIsEarlier"> & { writtenIsEarlier?: boolean }) => finishNow(judgeOutsideSaveSteps({ writtenIsEarlier: false, ...save }));

const B = "# Plan\n\n- one\n- two\n\n## Notes\n\nnothing yet\n";
const P = "# Plan\n\n- one\n- two\n- three (person)\n\n## Notes\n\nnothing yet\n";

describe("an outside save's verdict", () => {
	it("flags a save made from the older copy: it lacks P's edit and has one of its own, and offers the clean merge", () => {
		const W = "# Plan\n\n- one\n- two\n\n## Notes\n\nthe agent's note\n";
		const verdict = judge({ parent: B, previous: P, written: W });
		expect(verdict).toMatchObject({ kind: "lost", merged: "# Plan\n\n- one\n- two\n- three (person)\n\n## Notes\n\nthe agent's note\n" });
	});

	it("does not flag a save made from P (a program that re-read the note)", () => {
		expect(judge({ parent: B, previous: P, written: P + "\nmore\n" })).toEqual({ kind: "kept" });
	});

	it("does not flag a save that edited P's new lines further", () => {
		const W = P.replace("- three (person)\n", "- three (person), done by Friday\n");
		expect(judge({ parent: B, previous: P, written: W })).toEqual({ kind: "kept" });
	});

	it("does not flag typing that went on inside a word P had started (an editor's autosaves)", () => {
		const base = "line one\nline two\n";
		expect(judge({ parent: base, previous: "xxxxline one\nline two\n", written: "xxxxxxxxxxxxline one\nline two\n" })).toEqual({ kind: "kept" });
		expect(judge({ parent: base, previous: "  line one\nline two\n", written: "    line one\nline two\n" })).toEqual({ kind: "kept" });
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
});
