/**
 * The headless host's moment formats, held to moment itself (the version Obsidian ships, as the stub hands it out,
 * in its "en" locale) on every token it formats, over random dates and random mixes of tokens and literals.
 */
import fc from "fast-check";
import { moment } from "../../obsidian-stub";
import { describe, expect, it } from "vitest";
import { formatDate } from "../../../src/core/periodic/date-format";

const TOKENS = [
	"Y",
	"YY",
	"YYYY",
	"M",
	"Mo",
	"MM",
	"MMM",
	"MMMM",
	"Q",
	"Qo",
	"D",
	"Do",
	"DD",
	"DDD",
	"DDDo",
	"DDDD",
	"d",
	"do",
	"dd",
	"ddd",
	"dddd",
	"e",
	"E",
	"w",
	"wo",
	"ww",
	"W",
	"Wo",
	"WW",
	"gg",
	"gggg",
	"ggggg",
	"GG",
	"GGGG",
	"GGGGG",
	"H",
	"HH",
	"h",
	"hh",
	"k",
	"kk",
	"m",
	"mm",
	"s",
	"ss",
	"a",
	"A",
	"Hmm",
	"Hmmss",
	"hmm",
	"hmmss",
];
const LITERALS = ["-", "/", " ", "_", ".", "[W]", "[Week ]", "[Q]", "\\W", "T", "g", "[Mo]"];

function format(pattern: string, date: Date): string {
	const result = formatDate(pattern, date);
	if (!result.ok) throw new Error(`refused ${result.token}`);
	return result.text;
}

describe("formatDate", () => {
	it("formats the periodic notes' default formats as moment does", () => {
		const date = new Date(2024, 11, 30, 9, 5, 7);
		for (const pattern of [
			"YYYY-MM-DD",
			"gggg-[W]ww",
			"YYYY-MM",
			"YYYY-[Q]Q",
			"YYYY",
			"GGGG-[W]WW",
			"YYYY/MM/YYYY-MM-DD",
			"dddd, MMMM Do YYYY",
		]) {
			expect(format(pattern, date)).toBe(moment(date).locale("en").format(pattern));
		}
		expect(format("gggg-[W]ww", date)).toBe("2025-W01");
		expect(format("GGGG-[W]WW", new Date(2021, 0, 1))).toBe("2020-W53");
	});

	it("agrees with moment on every token over random dates (property)", () => {
		const dates = fc.date({ min: new Date(1000, 0, 1), max: new Date(9999, 11, 31), noInvalidDate: true });
		const patterns = fc
			.array(fc.oneof(fc.constantFrom(...TOKENS), fc.constantFrom(...LITERALS)), { minLength: 1, maxLength: 6 })
			.map((parts) => parts.join(" "));
		fc.assert(
			fc.property(dates, patterns, (date, pattern) => {
				expect(format(pattern, date)).toBe(moment(date).locale("en").format(pattern));
			}),
			{ numRuns: 2000 },
		);
	});

	it("agrees with moment on week numbers around every new year from 1990 to 2040", () => {
		for (let year = 1990; year <= 2040; year++) {
			for (let day = -7; day <= 7; day++) {
				const date = new Date(year, 0, 1 + day, 12);
				expect(format("gggg ww w GGGG WW W e E d", date)).toBe(
					moment(date).locale("en").format("gggg ww w GGGG WW W e E d"),
				);
			}
		}
	});

	it("refuses tokens it does not format (localized formats, eras, zones, fractions, epochs) rather than guess", () => {
		const date = new Date(2024, 0, 2);
		for (const token of ["LL", "L", "l", "LT", "N", "SSS", "Z", "ZZ", "z", "X", "x", "y", "YYYYY"]) {
			expect(formatDate(`YYYY ${token}`, date)).toEqual({ ok: false, token });
		}
		// Inside brackets, or escaped, they are text.
		expect(formatDate("[LL] \\L", date)).toEqual({ ok: true, text: "LL L" });
	});
});
