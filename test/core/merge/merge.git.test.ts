import { afterAll, describe, expect, it } from "vitest";
import { mergedText, mergeThreeWay, renderMerge } from "../../../src/core/merge/index";
import { gitMerger } from "../../helpers/git-merge";
import { seededRandom } from "../../helpers/seeded-random";

/**
 * Compares the merge with `git merge-file` on a seeded corpus of plain-text triples (no markdown constructs, so
 * none of our markdown rules apply and git is the reference).
 *
 * Two styles: "unique" lines (each line text appears once), where the diff is unambiguous and even the diff3
 * rendering must be byte-identical to git's; and "prose" with repeated blank and "}" lines, where hunks can slide
 * and only git's placement gives git's answer. "letters" texts are drawn from five distinct lines, where many
 * equally minimal diffs exist and only a diff that chooses like git's Myers diff agrees with git.
 */

type Style = "unique" | "prose" | "letters";
interface Case {
	style: Style;
	base: string;
	mine: string;
	theirs: string;
}

function corpus(count: number, seed: number): Case[] {
	const random = seededRandom(seed);
	const below = (n: number) => Math.floor(random() * n);
	let fresh = 0;
	const cases: Case[] = [];
	for (let n = 0; n < count; n++) {
		const style: Style = n % 3 === 0 ? "unique" : n % 3 === 1 ? "prose" : "letters";
		const newLine = () => {
			const roll = random();
			if (style === "letters") return `${"abcde"[below(5)]}\n`;
			if (style === "prose" && roll < 0.15) return "\n";
			if (style === "prose" && roll < 0.25) return "}\n";
			return `line ${fresh++}\n`;
		};
		const edit = (lines: string[]) => {
			const out = lines.slice();
			for (let k = below(4); k > 0; k--) {
				const at = below(out.length + 1);
				const roll = random();
				if (roll < 0.35 && at < out.length) out[at] = newLine();
				else if (roll < 0.6 && at < out.length) out.splice(at, 1 + below(2));
				else out.splice(at, 0, ...Array.from({ length: 1 + below(2) }, newLine));
			}
			return out;
		};
		const baseLines = Array.from({ length: 3 + below(12) }, newLine);
		let texts = [baseLines, edit(baseLines), edit(baseLines)].map((lines) => lines.join(""));
		// Some notes end without a newline (on the base and mine, so both sides touch the last line differently).
		if (random() < 0.2) texts = [texts[0]!.replace(/\n$/, ""), texts[1]!.replace(/\n$/, ""), texts[2]!];
		// Some are CRLF with non-BMP characters.
		if (random() < 0.25) texts = texts.map((text) => text.replace(/\n/g, "\r\n").replace(/line 1/g, "l🙂ne 1"));
		cases.push({ style, base: texts[0]!, mine: texts[1]!, theirs: texts[2]! });
	}
	return cases;
}

const git = gitMerger();
afterAll(() => git.close());
const gitMerge = (c: Case, extra: string[] = []) => git.merge(c, extra);

/** Hand-picked cases where diff-match-patch places a hunk differently from git, so only git's hunk sliding agrees. */
const SLIDING: Case[] = [
	{ style: "prose", base: "b\n}\n\n", mine: "X\nb\n}\n}\n\n", theirs: "b\n}\nY\n\n" },
	{
		style: "prose",
		base: "line 272\nline 273\nline 274\nline 275\nline 276\n}\nline 277\nline 278\n}\n\n",
		mine: "line 272\nline 275\nline 276\n}\nline 277\nline 280\nline 279\nline 278\n}\n}\n\n",
		theirs:
			"line 272\nline 273\nline 274\nline 275\nline 283\nline 281\nline 276\n}\nline 277\nline 278\n}\nline 284\n\n",
	},
	{ style: "prose", base: "b\nc\n}\n\n", mine: "c\nX\nb\n}\n}\n\n", theirs: "b\nc\n}\nY\n\n" },
];

describe("agreement with git merge-file", () => {
	const cases = [...SLIDING, ...corpus(900, 20240611)];

	it("is clean with git's text where git is clean, and conflicts where git conflicts", () => {
		let gitClean = 0;
		for (const c of cases) {
			const git = gitMerge(c);
			const ours = mergeThreeWay(c.base, c.mine, c.theirs);
			const label = JSON.stringify(c);
			if (git.conflicts === 0) {
				gitClean++;
				expect(ours.clean, label).toBe(true);
				expect(mergedText(ours), label).toBe(git.output);
			} else {
				expect(ours.clean, label).toBe(false);
			}
		}
		// The corpus must exercise both outcomes.
		expect(gitClean).toBeGreaterThan(cases.length / 4);
		expect(gitClean).toBeLessThan((cases.length * 3) / 4);
	});

	it("renders conflicts exactly like git merge-file --diff3 when lines are unique", () => {
		let compared = 0;
		for (const c of cases) {
			if (c.style !== "unique") continue;
			const ours = mergeThreeWay(c.base, c.mine, c.theirs);
			if (ours.clean) continue;
			const git = gitMerge(c, ["--diff3", "-L", "mine", "-L", "base", "-L", "agent"]);
			expect(renderMerge(ours, { diff3: true }), JSON.stringify(c)).toBe(git.output);
			expect(ours.conflicts, JSON.stringify(c)).toBe(git.conflicts);
			compared++;
		}
		expect(compared).toBeGreaterThan(30);
	});
});
