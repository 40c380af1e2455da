/**
 * The history checker is only as good as what it can see: each kind of violation, planted in a small synthetic
 * history, must be reported, and a clean history must pass.
 */
import { describe, expect, it } from "vitest";
import { sha256Token } from "../helpers/vault-files";
import { checkHistory, type Attempt, type OutsideEdit, type WriteHistory } from "../helpers/write-history";

const I = "# note\n";
const tok = sha256Token;

function ok(line: string, before: string, at: [number, number], writer = 0): Attempt {
	return {
		writer,
		round: 0,
		line,
		base: tok(before),
		body: before + line,
		sentAt: at[0],
		answeredAt: at[1],
		outcome: { kind: "ok", token: tok(before + line) },
	};
}
function refused(line: string, before: string, backupPath: string, at: [number, number]): Attempt {
	return {
		writer: 9,
		round: 0,
		line,
		base: tok(before),
		body: before + line,
		sentAt: at[0],
		answeredAt: at[1],
		outcome: { kind: "refused", backupPath },
	};
}
function outside(line: string, before: string, at: [number, number]): OutsideEdit {
	return { line, from: tok(before), to: tok(before + line), startedAt: at[0], endedAt: at[1] };
}

/** I → +a (writer) → +x (outside) → +b (writer); one refusal kept as r.bak. */
function clean(): WriteHistory {
	const stale = refused("r\n", I, "r.bak.md", [2, 3]);
	return {
		initial: I,
		attempts: [ok("a\n", I, [1, 2]), stale, ok("b\n", I + "a\nx\n", [7, 8])],
		outsideEdits: [outside("x\n", I + "a\n", [4, 5])],
		readMismatches: [],
		final: I + "a\nx\nb\n",
		backups: new Map([["r.bak.md", Buffer.from(stale.body)]]),
	};
}

describe("checkHistory", () => {
	it("passes a clean history", () => {
		expect(checkHistory(clean())).toEqual([]);
	});

	it("reports two accepted writes on one base (a lost update)", () => {
		const history = clean();
		history.attempts.push(ok("c\n", I + "a\nx\n", [7, 9], 3));
		expect(checkHistory(history).some((v) => v.includes("lost update"))).toBe(true);
	});

	it("reports an outside edit that was overwritten", () => {
		const history = { ...clean(), final: I + "a\nb\n" };
		history.attempts[2] = ok("b\n", I + "a\n", [7, 8]);
		const violations = checkHistory(history);
		expect(violations.some((v) => v.includes("overwrote another"))).toBe(true);
		expect(violations.some((v) => v.includes("outside edit x") && v.includes("0 times"))).toBe(true);
	});

	it("reports an acknowledged line missing from the note, or there twice", () => {
		expect(checkHistory({ ...clean(), final: I + "a\nx\n" }).length).toBeGreaterThan(0);
		expect(checkHistory({ ...clean(), final: I + "a\nx\nb\nb\n" }).some((v) => v.includes("2 times"))).toBe(true);
	});

	it("reports a refusal whose .bak is missing, differs by a byte, or that named none", () => {
		expect(checkHistory({ ...clean(), backups: new Map() }).some((v) => v.includes("does not exist"))).toBe(true);
		expect(
			checkHistory({ ...clean(), backups: new Map([["r.bak.md", Buffer.from(I + "r\r\n")]]) }).some((v) =>
				v.includes("not byte-identical"),
			),
		).toBe(true);
		const history = clean();
		history.attempts[1] = { ...history.attempts[1]!, outcome: { kind: "refused", backupPath: null } };
		expect(checkHistory(history).some((v) => v.includes("without a .bak"))).toBe(true);
	});

	it("reports a refused line that reached the note", () => {
		const history = clean();
		history.final = I + "a\nx\nb\nr\n";
		expect(checkHistory(history).some((v) => v.includes("refused, yet its line is in the note"))).toBe(true);
	});

	it("reports a change acknowledged before another was sent whose line still comes after it", () => {
		// b was answered (event 2) before a was sent (event 3), yet the note has a before b.
		const history: WriteHistory = {
			initial: I,
			attempts: [ok("a\n", I, [3, 4]), ok("b\n", I + "a\n", [1, 2])],
			outsideEdits: [],
			readMismatches: [],
			final: I + "a\nb\n",
			backups: new Map(),
		};
		expect(checkHistory(history).some((v) => v.includes("was acknowledged before"))).toBe(true);
	});

	it("reports any answer that is neither an acceptance nor a stale refusal", () => {
		const history = clean();
		history.attempts.push({ ...ok("z\n", I, [9, 10]), outcome: { kind: "other", detail: "500 internal-error" } });
		expect(checkHistory(history).some((v) => v.includes("unexpected answer"))).toBe(true);
	});
});
