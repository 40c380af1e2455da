/** UTF-8 sizes without encoding: checked against Node's own encoder on every kind of character. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countUtf8, fitsInUtf8, truncateUtf8, utf8Length } from "../../src/core/utf8";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const SAMPLES = ["", "plain", "é", "日本語", "🙂 emoji", "a\ud800b", "\udc00", "mixed é 日 🙂"];

describe("utf8Length", () => {
	it("agrees with the encoder, lone surrogates included", () => {
		for (const text of SAMPLES) expect(utf8Length(text), text).toBe(bytes(text));
		fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => utf8Length(text) === bytes(text)));
	});

	it("counts the same without Node's Buffer (the fallback for other hosts)", () => {
		for (const text of SAMPLES) expect(countUtf8(text), text).toBe(bytes(text));
		fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => countUtf8(text) === bytes(text)));
	});
});

describe("fitsInUtf8", () => {
	it("answers like the full count, at every limit around the size", () => {
		fc.assert(
			fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.integer({ min: -3, max: 3 }), (text, delta) => {
				const limit = Math.max(0, bytes(text) + delta);
				return fitsInUtf8(text, limit) === bytes(text) <= limit;
			}),
		);
	});

	it("decides on a huge text by its length when the limit is far off", () => {
		const huge = "x".repeat(5 * 1024 * 1024);
		expect(fitsInUtf8(huge, 256 * 1024)).toBe(false);
		expect(fitsInUtf8("日本", 6)).toBe(true);
	});
});

describe("truncateUtf8", () => {
	it("keeps the longest start that fits, never half a surrogate pair", () => {
		expect(truncateUtf8("a🙂b", 4)).toBe("a");
		expect(truncateUtf8("a🙂b", 5)).toBe("a🙂");
		fc.assert(
			fc.property(fc.string({ unit: "binary" }), fc.nat(60), (text, limit) => {
				const kept = truncateUtf8(text, limit);
				return (
					text.startsWith(kept) &&
					bytes(kept) <= limit &&
					(kept.length === text.length ||
						bytes(text.slice(0, kept.length + (isPair(text, kept.length) ? 2 : 1))) > limit)
				);
			}),
		);
	});
});

function isPair(text: string, i: number): boolean {
	const unit = text.charCodeAt(i);
	return unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}
