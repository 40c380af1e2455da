/**
 * A live note's saved history kept as its JSON text (core/stored-note.ts): only text that parses without fail to the
 * note it names is kept, and what is taken from it (its path, its identity) is what parsing it gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StoredNote, storedIdentity, storedNote } from "../../src/core/stored-note";

const entry = { revision: "r", time: 1, size: 1, source: { kind: "agent", agent: "a" } };

describe("a stored note", () => {
	it("is kept as its text when it has the shape a saved note has, with its path and identity taken from it", () => {
		const note = { path: 'd/"quoted" \\ é.md', entries: [entry, entry], identity: 'i:"\n' };
		const json = JSON.stringify(note);
		const stored = storedNote(json);
		expect(stored).toBeInstanceOf(StoredNote);
		expect(stored?.path).toBe(note.path);
		expect(stored?.json).toBe(json);
		expect(storedIdentity(json)).toBe(note.identity);
		expect(storedIdentity(JSON.stringify({ path: "a.md", entries: [] }))).toBeUndefined();
		// Fields an entry carries under the note's own name are not taken for the note's.
		const inEntry = JSON.stringify({ path: "e.md", entries: [{ ...entry, identity: "the entry's" }] });
		expect(storedNote(inEntry)?.path).toBe("e.md");
		expect(storedIdentity(inEntry)).toBeUndefined();
	});

	it("is parsed instead when it is a deleted note's, has another shape, or is damaged", () => {
		for (const other of [
			JSON.stringify({ path: "a.md", entries: [entry], deletedAt: 1 }),
			JSON.stringify({ path: "a.md", entries: [entry], identity: "i", deletedAt: 1 }),
			JSON.stringify({ entries: [], path: "a.md" }),
			JSON.stringify({ path: "a.md", entries: [{ ...entry, source: { kind: ["agent"] } }] }),
			JSON.stringify({ path: 5, entries: [] }),
			JSON.stringify({ path: "a.md", entries: [entry] }).slice(0, -3),
			JSON.stringify({ path: "a.md", entries: [entry] }).replace("]", "],"),
			'{"path":"a.md","entries":[{"revision":"r\u0001"}]}',
			'{"path":"a.md","entries":[{"revision":"\\x"}]}',
		])
			expect(storedNote(other)).toBeUndefined();
	});

	it("gives what parsing it gives, whatever it holds", () => {
		const text = fc.string({ unit: "binary" });
		const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
		const key = fc.oneof(fc.stringMatching(/^[A-Za-z]{1,9}$/), fc.string());
		const entries = fc.array(fc.dictionary(key, fc.oneof(scalar, fc.dictionary(key, scalar))), { maxLength: 3 });
		const saved = fc.record({ path: text, entries, identity: text }, { requiredKeys: ["path", "entries"] });
		let kept = 0;
		fc.assert(
			fc.property(saved, (note) => {
				const json = JSON.stringify(note);
				const stored = storedNote(json);
				if (stored === undefined) return;
				kept++;
				const parsed = JSON.parse(json) as { path: string; identity?: string };
				expect(stored.path).toBe(parsed.path);
				expect(storedIdentity(json)).toBe(parsed.identity);
			}),
			{ numRuns: 1000 },
		);
		expect(kept).toBeGreaterThan(100);
	});

	it("gives what parsing it gives for text written by hand: escapes, surrogates, repeated fields in an entry", () => {
		for (const json of [
			'{"path":"x\\u0041\\/\\\\y.md","entries":[{"revision":"a","revision":"b"}],"identity":"\\ud800\\u0022"}',
			'{"path":"\\\\","entries":[],"identity":"\\\\"}',
			'{"path":"a\\",\\"entries\\":[","entries":[{"identity":"no"}]}',
		]) {
			const stored = storedNote(json);
			expect(stored, json).toBeInstanceOf(StoredNote);
			const parsed = JSON.parse(json) as { path: string; identity?: string };
			expect(stored?.path).toBe(parsed.path);
			expect(storedIdentity(json)).toBe(parsed.identity);
		}
		// A key the parser would treat apart is not a key of the shape (letters only): parsed instead.
		expect(storedNote('{"path":"a.md","entries":[{"__proto__":{"deletedAt":1}}]}')).toBeUndefined();
	});

	it("is judged on lines as long as the history file allows (1 MB) without failing", () => {
		const long = "a".repeat(1024 * 1024 - 64);
		for (const json of [
			`{"path":"${long}","entries":[]}`,
			`{"path":"${long}","entries":[]`,
			`{"path":"a","entries":[{"n":1${"1".repeat(1024 * 1024 - 64)}x}]}`,
			`{"path":"a","entries":[${Array(200_000).fill("{}").join(",")}]`,
		])
			expect(() => storedNote(json)).not.toThrow();
	});
});
