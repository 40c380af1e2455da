import { createHash } from "crypto";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
	etagOf,
	parseEntityTagCondition,
	revisionInSlices,
	revisionOf,
	sentRevisions,
	strongMatch,
	weakMatch,
	type EntityTagCondition,
} from "../../src/core/revision";

const reference = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("base64url");

/** Strings that stress encoding: emoji (surrogate pairs), CRLF, BOM, NUL, combining marks, lone surrogates. */
const trickyString = fc.oneof(
	fc.string({ unit: "binary" }),
	fc.string({ unit: "grapheme" }),
	fc
		.array(fc.constantFrom("a", "é", "e\u0301", "\r\n", "\n", "\r", "\ufeff", "😀", "👩‍👩‍👧", "\u0000", " ", "\t"))
		.map((parts) => parts.join("")),
);

describe("revisionOf", () => {
	it("is the SHA-256 of the exact UTF-8 bytes, base64url without padding, for arbitrary strings", () => {
		fc.assert(
			fc.property(trickyString, (text) => {
				const bytes = Buffer.from(text, "utf8");
				expect(revisionOf(text)).toBe(reference(bytes));
			}),
			{ numRuns: 300 },
		);
	});

	it("gives the same token for a string and for its UTF-8 bytes", () => {
		fc.assert(
			fc.property(trickyString, (text) => {
				expect(revisionOf(new TextEncoder().encode(text))).toBe(revisionOf(text));
			}),
		);
	});

	it("hashes raw bytes as given, including invalid UTF-8", () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
				expect(revisionOf(bytes)).toBe(reference(bytes));
			}),
		);
	});

	it("is always 43 base64url characters", () => {
		fc.assert(
			fc.property(trickyString, (text) => {
				expect(revisionOf(text)).toMatch(/^[A-Za-z0-9_-]{43}$/);
			}),
		);
	});

	it("matches the known SHA-256 of the empty string and of 'abc'", () => {
		expect(revisionOf("")).toBe("47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU");
		expect(revisionOf("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
	});

	it("distinguishes CRLF from LF, a BOM from none, and NFC from NFD", () => {
		expect(revisionOf("a\r\nb")).not.toBe(revisionOf("a\nb"));
		expect(revisionOf("\ufeffa")).not.toBe(revisionOf("a"));
		expect(revisionOf("\u00e9")).not.toBe(revisionOf("e\u0301"));
		expect(revisionOf("a\n")).not.toBe(revisionOf("a"));
	});

	it("gives equal tokens exactly when the contents are equal (generated strings)", () => {
		fc.assert(
			fc.property(trickyString, trickyString, (a, b) => {
				expect(revisionOf(a) === revisionOf(b)).toBe(Buffer.from(a, "utf8").equals(Buffer.from(b, "utf8")));
			}),
			{ numRuns: 500 },
		);
		fc.assert(
			fc.property(trickyString, (a) => {
				expect(revisionOf(a)).toBe(revisionOf(a.slice()));
				expect(revisionOf(a + "x")).not.toBe(revisionOf(a));
			}),
		);
	});
});

describe("etagOf", () => {
	it("wraps the revision in double quotes as a strong entity tag", () => {
		expect(etagOf("abc")).toBe('"abc"');
		const revision = revisionOf("hello");
		expect(etagOf(revision)).toBe(`"${revision}"`);
		expect(etagOf(revision).startsWith("W/")).toBe(false);
	});

	it("round-trips through the header parser as a single strong tag", () => {
		fc.assert(
			fc.property(trickyString, (text) => {
				const revision = revisionOf(text);
				expect(parseEntityTagCondition(etagOf(revision))).toEqual({
					kind: "tags",
					tags: [{ weak: false, opaque: revision }],
				});
			}),
		);
	});
});

describe("parseEntityTagCondition", () => {
	it("reports an absent header as absent", () => {
		expect(parseEntityTagCondition(undefined)).toEqual({ kind: "absent" });
	});

	it("parses * (with surrounding whitespace) as any", () => {
		expect(parseEntityTagCondition("*")).toEqual({ kind: "any" });
		expect(parseEntityTagCondition("  *\t")).toEqual({ kind: "any" });
	});

	it("parses a single strong tag", () => {
		expect(parseEntityTagCondition('"abc"')).toEqual({ kind: "tags", tags: [{ weak: false, opaque: "abc" }] });
	});

	it("parses an empty opaque tag", () => {
		expect(parseEntityTagCondition('""')).toEqual({ kind: "tags", tags: [{ weak: false, opaque: "" }] });
	});

	it("parses a weak tag with the case-sensitive W/ prefix", () => {
		expect(parseEntityTagCondition('W/"abc"')).toEqual({ kind: "tags", tags: [{ weak: true, opaque: "abc" }] });
		expect(parseEntityTagCondition('w/"abc"').kind).toBe("malformed");
	});

	it("parses a list with optional whitespace, mixing weak and strong tags", () => {
		expect(parseEntityTagCondition(' "a" ,W/"b",\t"c" ')).toEqual({
			kind: "tags",
			tags: [
				{ weak: false, opaque: "a" },
				{ weak: true, opaque: "b" },
				{ weak: false, opaque: "c" },
			],
		});
	});

	it("tolerates empty list elements between, after and before tags", () => {
		const ab = {
			kind: "tags",
			tags: [
				{ weak: false, opaque: "a" },
				{ weak: false, opaque: "b" },
			],
		};
		expect(parseEntityTagCondition('"a", , "b"')).toEqual(ab);
		expect(parseEntityTagCondition('"a",,,"b"')).toEqual(ab);
		expect(parseEntityTagCondition('"a", "b",')).toEqual(ab);
		expect(parseEntityTagCondition('"a", "b" , ,')).toEqual(ab);
		// RFC 9110 §5.6.1.2: `#element => [ element ] *( OWS "," OWS [ element ] )`, so leading empties are valid too.
		expect(parseEntityTagCondition(', "a", "b"')).toEqual(ab);
		expect(parseEntityTagCondition(' , ,"a","b"')).toEqual(ab);
	});

	it("keeps commas inside a quoted opaque tag", () => {
		expect(parseEntityTagCondition('"a,b"')).toEqual({ kind: "tags", tags: [{ weak: false, opaque: "a,b" }] });
	});

	it("refuses unquoted tags as malformed", () => {
		for (const raw of ["abc", "W/abc", '"a", b', 'a, "b"']) {
			expect(parseEntityTagCondition(raw)).toEqual({ kind: "malformed", raw });
		}
	});

	it("refuses garbage as malformed", () => {
		for (const raw of [
			"",
			"   ",
			",",
			" , , ",
			'"abc',
			'abc"',
			'"a" "b"',
			'"a"x',
			'"a";"b"',
			'W/ "a"',
			'"a"b"',
			'"a\\"b"',
			'"with space"',
			'"tab\there"',
			'*, "a"',
			'"a", *',
			"**",
			'"\u0100"',
			'"😀"',
		]) {
			expect(parseEntityTagCondition(raw), raw).toEqual({ kind: "malformed", raw });
		}
	});

	it("accepts obs-text (\\x80-\\xff) inside an opaque tag", () => {
		expect(parseEntityTagCondition('"\u00e9\u00ff"')).toEqual({
			kind: "tags",
			tags: [{ weak: false, opaque: "\u00e9\u00ff" }],
		});
	});

	it("parses any list of well-formed tags it is given, in order", () => {
		const opaque = fc.string({ unit: fc.constantFrom(..."abcXYZ019-_!#$%&'()*+,./:;<=>?@[]^`{|}~"), maxLength: 12 });
		const tag = fc.record({ weak: fc.boolean(), opaque });
		const ows = fc.constantFrom("", " ", "\t", "  ");
		fc.assert(
			fc.property(fc.array(tag, { minLength: 1, maxLength: 6 }), ows, ows, (tags, before, after) => {
				const raw = tags.map((t) => `${before}${t.weak ? "W/" : ""}"${t.opaque}"${after}`).join(",");
				expect(parseEntityTagCondition(raw)).toEqual({ kind: "tags", tags });
			}),
		);
	});

	it("never throws and always yields one of the four kinds for arbitrary input", () => {
		fc.assert(
			fc.property(fc.string({ unit: "binary" }), (raw) => {
				const parsed = parseEntityTagCondition(raw);
				expect(["any", "tags", "malformed"]).toContain(parsed.kind);
				if (parsed.kind === "tags") expect(parsed.tags.length).toBeGreaterThan(0);
			}),
		);
	});
});

describe("strongMatch / weakMatch", () => {
	const revision = revisionOf("content");
	const strong = parseEntityTagCondition(`"${revision}"`);
	const weak = parseEntityTagCondition(`W/"${revision}"`);
	const other = parseEntityTagCondition(`"${revisionOf("other")}"`);
	const list = parseEntityTagCondition(`"${revisionOf("other")}", "${revision}"`);

	it("strong comparison matches a strong tag equal to the revision", () => {
		expect(strongMatch(strong, revision)).toBe(true);
		expect(strongMatch(list, revision)).toBe(true);
	});

	it("weak tags never satisfy If-Match (strong comparison)", () => {
		expect(strongMatch(weak, revision)).toBe(false);
		expect(strongMatch(parseEntityTagCondition(`W/"${revision}", "nope"`), revision)).toBe(false);
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom(..."abcdefABC0123-_"), maxLength: 43 }), (opaque) => {
				expect(strongMatch(parseEntityTagCondition(`W/"${opaque}"`), opaque)).toBe(false);
			}),
		);
	});

	it('weak comparison matches both W/"x" and "x"', () => {
		expect(weakMatch(weak, revision)).toBe(true);
		expect(weakMatch(strong, revision)).toBe(true);
		expect(weakMatch(list, revision)).toBe(true);
	});

	it("neither comparison matches a different revision", () => {
		expect(strongMatch(other, revision)).toBe(false);
		expect(weakMatch(other, revision)).toBe(false);
	});

	it("absent, any and malformed conditions match nothing by tag comparison", () => {
		const conditions: EntityTagCondition[] = [{ kind: "absent" }, { kind: "any" }, { kind: "malformed", raw: "x" }];
		for (const condition of conditions) {
			expect(strongMatch(condition, revision)).toBe(false);
			expect(weakMatch(condition, revision)).toBe(false);
		}
	});

	it("compares opaque tags exactly (case-sensitive, no trimming)", () => {
		expect(strongMatch(parseEntityTagCondition('"Abc"'), "abc")).toBe(false);
		expect(weakMatch(parseEntityTagCondition('"abc"'), "abc ")).toBe(false);
	});
});

describe("sentRevisions", () => {
	it("lists only the strong tags a client sent, in order", () => {
		expect(sentRevisions(parseEntityTagCondition('W/"w", "a", "b"'))).toEqual(["a", "b"]);
		expect(sentRevisions(parseEntityTagCondition('W/"w"'))).toEqual([]);
		expect(sentRevisions({ kind: "any" })).toEqual([]);
		expect(sentRevisions({ kind: "absent" })).toEqual([]);
		expect(sentRevisions({ kind: "malformed", raw: "x" })).toEqual([]);
	});
});

describe("revisionOf on many texts", () => {
	it("answers every text with its own hash, however texts alternate (equal text built apart included)", () => {
		const hash = (text: string) => createHash("sha256").update(text).digest("base64url");
		const texts = ["a\n", "b\n", "a\n", "c\n", "b\n", ["a", "\n"].join(""), "", "a\n"];
		for (const text of texts) expect(revisionOf(text)).toBe(hash(text));
		expect(revisionOf(Buffer.from("b\n"))).toBe(hash("b\n"));
	});

	it("stays right over many texts, and long ones", () => {
		const hash = (text: string) => createHash("sha256").update(text).digest("base64url");
		const texts = Array.from({ length: 3000 }, (_, n) => `note ${n}\n`.repeat(200));
		for (const text of texts) expect(revisionOf(text)).toBe(hash(text));
		for (const text of texts.slice(0, 50)) expect(revisionOf(text.split("").join(""))).toBe(hash(text));
		const long = "x".repeat(300 * 1024);
		expect(revisionOf(long)).toBe(hash(long));
		expect(revisionOf(long + "")).toBe(hash(long));
	});

	it("tells apart texts that differ in one character anywhere, whatever the order", () => {
		const hash = (text: string) => createHash("sha256").update(text).digest("base64url");
		// Equal length, head and tail; one character in the middle differs (between two of the sampled characters).
		const base = "x".repeat(2000);
		const a = base.slice(0, 1000) + "a" + base.slice(1001);
		const b = base.slice(0, 1000) + "b" + base.slice(1001);
		for (const text of [a, b, a, b, b, a, [a.slice(0, 7), a.slice(7)].join("")])
			expect(revisionOf(text)).toBe(hash(text));
		fc.assert(
			fc.property(
				fc.string({ minLength: 1, maxLength: 3000 }),
				fc.nat(),
				fc.string({ minLength: 1, maxLength: 1 }),
				(text, at, swapped) => {
					const index = at % text.length;
					const other = text.slice(0, index) + swapped + text.slice(index + 1);
					for (const each of [text, other, text, other]) expect(revisionOf(each)).toBe(hash(each));
				},
			),
		);
	});

	it("remembers nothing: the same text asked again is hashed again (callers pass the revision along instead)", () =>
		withCountedHashes((counted, hashed) => {
			const text = "a note an agent wrote\n".repeat(100);
			expect(counted(text)).toBe(counted(text));
			expect(hashed()).toBe(2);
		}));
});

/** Runs `check` with a fresh revisionOf whose SHA-256 calls are counted (`crypto.hash` wrapped by a mock). */
async function withCountedHashes(check: (counted: typeof revisionOf, hashed: () => number) => void): Promise<void> {
	vi.resetModules();
	let hashed = 0;
	vi.doMock("crypto", async (importOriginal) => {
		const real = await importOriginal<typeof import("crypto")>();
		return { ...real, hash: (...args: Parameters<typeof real.hash>) => (hashed++, real.hash(...args)) };
	});
	try {
		const { revisionOf: counted } = await import("../../src/core/revision");
		check(counted, () => hashed);
	} finally {
		vi.doUnmock("crypto");
		vi.resetModules();
	}
}

describe("revisionOf without Node's one-shot crypto.hash (Obsidian's older Electron builds)", () => {
	it("falls back to createHash with the same answers", async () => {
		vi.resetModules();
		vi.doMock("crypto", async (importOriginal) => ({
			...(await importOriginal<typeof import("crypto")>()),
			hash: undefined,
		}));
		try {
			const { revisionOf: fallbackRevisionOf } = await import("../../src/core/revision");
			expect(fallbackRevisionOf("")).toBe("47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU");
			fc.assert(
				fc.property(trickyString, (text) => {
					expect(fallbackRevisionOf(text)).toBe(reference(Buffer.from(text, "utf8")));
					expect(fallbackRevisionOf(new TextEncoder().encode(text))).toBe(revisionOf(text));
				}),
				{ numRuns: 100 },
			);
		} finally {
			vi.doUnmock("crypto");
			vi.resetModules();
		}
	});
});

describe("revisionInSlices", () => {
	it("gives revisionOf's answer for texts long and short, surrogate pairs across slice edges and lone halves included", async () => {
		const hash = (text: string) => createHash("sha256").update(text).digest("base64url");
		let turns = 0;
		const yieldToHost = () => {
			turns++;
			return Promise.resolve();
		};
		const slice = 256 * 1024;
		const texts = [
			"short\n",
			"x".repeat(slice - 1) + "🙂" + "y".repeat(slice),
			"x".repeat(slice - 1) + "\ud83d" + "y".repeat(slice),
			"é".repeat(3 * slice + 7),
			"z".repeat(slice * 2) + "\udc00",
		];
		for (const text of texts) expect(await revisionInSlices(text, yieldToHost)).toBe(hash(text));
		// The long ones gave the host a turn between slices.
		expect(turns).toBeGreaterThanOrEqual(1 + 1 + 3 + 2);
	});
});
