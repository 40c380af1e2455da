import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateKey, matchKey } from "../../src/core/keys";

describe("generateKey", () => {
	it("is 43 base64url characters (256 bits, no padding)", () => {
		for (let i = 0; i < 50; i++) {
			const key = generateKey();
			expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
			expect(Buffer.from(key, "base64url")).toHaveLength(32);
		}
	});

	it("is random: a thousand keys are all different", () => {
		const keys = new Set(Array.from({ length: 1000 }, generateKey));
		expect(keys.size).toBe(1000);
	});

	it("uses the whole alphabet over many keys (not a constant or a counter)", () => {
		const seen = new Set(Array.from({ length: 200 }, generateKey).join(""));
		expect(seen.size).toBeGreaterThan(60);
	});
});

describe("matchKey", () => {
	const keys = [
		{ name: "claude", key: generateKey() },
		{ name: "nightly", key: generateKey() },
		{ name: "short", key: "0123456789abcdef" },
	];

	it("finds the key that matches", () => {
		for (const candidate of keys) expect(matchKey(keys, candidate.key)).toBe(candidate);
	});

	it("rejects a wrong key of the same length", () => {
		const key = keys[0]!.key;
		const flipped = (key[0] === "A" ? "B" : "A") + key.slice(1);
		expect(matchKey(keys, flipped)).toBeUndefined();
		expect(matchKey(keys, generateKey())).toBeUndefined();
	});

	it("rejects keys of a different length, including prefixes and extensions, without throwing", () => {
		const key = keys[0]!.key;
		expect(matchKey(keys, key.slice(0, -1))).toBeUndefined();
		expect(matchKey(keys, key + "A")).toBeUndefined();
		expect(matchKey(keys, key + key)).toBeUndefined();
		expect(matchKey(keys, "x".repeat(10_000))).toBeUndefined();
	});

	it("rejects an empty key without throwing", () => {
		expect(matchKey(keys, "")).toBeUndefined();
	});

	it("is case-sensitive and does not trim", () => {
		expect(matchKey(keys, "0123456789ABCDEF")).toBeUndefined();
		expect(matchKey(keys, " 0123456789abcdef")).toBeUndefined();
		expect(matchKey(keys, "0123456789abcdef\n")).toBeUndefined();
	});

	it("finds nothing when no keys are configured", () => {
		expect(matchKey([], generateKey())).toBeUndefined();
		expect(matchKey([], "")).toBeUndefined();
	});

	it("returns the first of several entries sharing one key", () => {
		const shared = generateKey();
		const list = [
			{ key: shared, name: "first" },
			{ key: shared, name: "second" },
		];
		expect(matchKey(list, shared)?.name).toBe("first");
	});

	it("matches exactly when the presented string equals a configured key (property)", () => {
		fc.assert(
			fc.property(
				fc.array(fc.string({ unit: "binary", minLength: 1 }), { maxLength: 5 }),
				fc.string({ unit: "binary" }),
				(raw, presented) => {
					const list = raw.map((key, index) => ({ key, index }));
					const found = matchKey(list, presented);
					const expected = list.find((k) => k.key === presented);
					expect(found).toBe(expected);
				},
			),
		);
	});

	it("tells apart keys that differ only past a shorter key's end, or by a NUL (property)", () => {
		expect(matchKey([{ key: "abc" }], "abc\u0000")).toBeUndefined();
		expect(matchKey([{ key: "abc\u0000" }], "abc")).toBeUndefined();
		fc.assert(
			fc.property(fc.string({ unit: "binary", minLength: 1 }), fc.string({ unit: "binary" }), (key, extra) => {
				const short = { key };
				const long = { key: key + extra };
				expect(matchKey([short], long.key)).toBe(extra === "" ? short : undefined);
				expect(matchKey([long], short.key)).toBe(extra === "" ? long : undefined);
			}),
		);
	});
});
