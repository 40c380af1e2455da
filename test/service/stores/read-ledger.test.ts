import { describe, expect, it } from "vitest";
import { ReadLedger } from "../../../src/service/stores/read-ledger";

describe("ReadLedger", () => {
	it("remembers the last revision each client read of each note, with its time", () => {
		const ledger = new ReadLedger(10);
		ledger.record("key:a", "Note.md", "r1", 1000);
		ledger.record("key:a", "Other.md", "r2", 2000);
		ledger.record("key:b", "Note.md", "r3", 3000);
		expect(ledger.lastRead("key:a", "Note.md")).toEqual({ revision: "r1", time: 1000, sight: "whole" });
		expect(ledger.lastRead("key:a", "Other.md")).toEqual({ revision: "r2", time: 2000, sight: "whole" });
		expect(ledger.lastRead("key:b", "Note.md")).toEqual({ revision: "r3", time: 3000, sight: "whole" });
		expect(ledger.size).toBe(3);
	});

	it("knows nothing of a note a client never read, even when another client read it", () => {
		const ledger = new ReadLedger(10);
		ledger.record("key:b", "Note.md", "r1", 1000);
		expect(ledger.lastRead("key:a", "Note.md")).toBeUndefined();
		expect(ledger.lastRead("key:b", "Other.md")).toBeUndefined();
	});

	it("keeps only the latest read of a note by a client", () => {
		const ledger = new ReadLedger(10);
		ledger.record("key:a", "Note.md", "r1", 1000);
		ledger.record("key:a", "Note.md", "r2", 2000);
		expect(ledger.lastRead("key:a", "Note.md")).toEqual({ revision: "r2", time: 2000, sight: "whole" });
		expect(ledger.size).toBe(1);
	});

	it("does not confuse a client id that is a prefix of another, or paths that join alike", () => {
		const ledger = new ReadLedger(10);
		ledger.record("key:a", "b/Note.md", "r1", 1000);
		ledger.record("key:ab", "Note.md", "r2", 2000);
		expect(ledger.lastRead("key:a", "b/Note.md")?.revision).toBe("r1");
		expect(ledger.lastRead("key:ab", "Note.md")?.revision).toBe("r2");
		expect(ledger.lastRead("key:a", "bNote.md")).toBeUndefined();
	});

	it("forgets the least recently used read first when over capacity", () => {
		const ledger = new ReadLedger(2);
		ledger.record("key:a", "1.md", "r1", 1);
		ledger.record("key:a", "2.md", "r2", 2);
		ledger.record("key:a", "3.md", "r3", 3);
		expect(ledger.size).toBe(2);
		expect(ledger.lastRead("key:a", "1.md")).toBeUndefined();
		expect(ledger.lastRead("key:a", "2.md")?.revision).toBe("r2");
		expect(ledger.lastRead("key:a", "3.md")?.revision).toBe("r3");
	});

	it("counts a lookup as a use, so a note in active use is not the one forgotten", () => {
		const ledger = new ReadLedger(2);
		ledger.record("key:a", "1.md", "r1", 1);
		ledger.record("key:a", "2.md", "r2", 2);
		expect(ledger.lastRead("key:a", "1.md")?.revision).toBe("r1");
		ledger.record("key:a", "3.md", "r3", 3);
		expect(ledger.lastRead("key:a", "1.md")?.revision).toBe("r1");
		expect(ledger.lastRead("key:a", "2.md")).toBeUndefined();
	});

	it("counts a new read of a known note as a use", () => {
		const ledger = new ReadLedger(2);
		ledger.record("key:a", "1.md", "r1", 1);
		ledger.record("key:a", "2.md", "r2", 2);
		ledger.record("key:a", "1.md", "r1b", 3);
		ledger.record("key:a", "3.md", "r3", 4);
		expect(ledger.lastRead("key:a", "1.md")?.revision).toBe("r1b");
		expect(ledger.lastRead("key:a", "2.md")).toBeUndefined();
	});

	it("shrinks to a lowered capacity at once, oldest first", () => {
		const ledger = new ReadLedger(5);
		for (let i = 1; i <= 5; i++) ledger.record("key:a", `${i}.md`, `r${i}`, i);
		ledger.setCapacity(2);
		expect(ledger.size).toBe(2);
		expect([1, 2, 3, 4, 5].map((i) => ledger.lastRead("key:a", `${i}.md`)?.revision)).toEqual([
			undefined,
			undefined,
			undefined,
			"r4",
			"r5",
		]);
	});

	it("forgets everything one client read and nothing another did", () => {
		const ledger = new ReadLedger(10);
		ledger.record("key:a", "1.md", "r1", 1);
		ledger.record("key:a", "2.md", "r2", 2);
		ledger.record("key:ab", "1.md", "r3", 3);
		ledger.forgetClient("key:a");
		expect(ledger.lastRead("key:a", "1.md")).toBeUndefined();
		expect(ledger.lastRead("key:a", "2.md")).toBeUndefined();
		expect(ledger.lastRead("key:ab", "1.md")?.revision).toBe("r3");
		expect(ledger.size).toBe(1);
	});

	it("remembers how much of the note a read showed: a part of a revision already seen whole stays whole", () => {
		const ledger = new ReadLedger(10);
		ledger.record("key:a", "Note.md", "r1", 1000, "part");
		expect(ledger.lastRead("key:a", "Note.md")?.sight).toBe("part");
		ledger.record("key:a", "Note.md", "r1", 2000, "whole");
		ledger.record("key:a", "Note.md", "r1", 3000, "part");
		expect(ledger.lastRead("key:a", "Note.md")).toEqual({ revision: "r1", time: 3000, sight: "whole" });
		ledger.record("key:a", "Note.md", "r2", 4000, "part");
		expect(ledger.lastRead("key:a", "Note.md")).toEqual({ revision: "r2", time: 4000, sight: "part" });
	});

	it("forgets one client's read of one note (it deleted the note, or found it gone)", () => {
		const ledger = new ReadLedger(10);
		ledger.record("key:a", "Note.md", "r1", 1000);
		ledger.record("key:a", "Other.md", "r2", 1000);
		ledger.record("key:b", "Note.md", "r1", 1000);
		ledger.forget("key:a", "Note.md");
		expect(ledger.lastRead("key:a", "Note.md")).toBeUndefined();
		expect(ledger.lastRead("key:a", "Other.md")?.revision).toBe("r2");
		expect(ledger.lastRead("key:b", "Note.md")?.revision).toBe("r1");
	});

	it("carries a read along a change by the same agent only when it stood on exactly the revision replaced", () => {
		const ledger = new ReadLedger(10);
		ledger.record("key", "a.md", "r1", 100, "whole");
		ledger.record("key", "b.md", "r1", 100, "part");
		ledger.carry("key", "a.md", "r1", "r2", 200);
		ledger.carry("key", "b.md", "r1", "r2", 200);
		expect(ledger.lastRead("key", "a.md")).toEqual({ revision: "r2", time: 200, sight: "whole" });
		expect(ledger.lastRead("key", "b.md")).toEqual({ revision: "r2", time: 200, sight: "part" });
		// A read of something else (someone else's change came in between) stays where it was; no read, none is made.
		ledger.carry("key", "a.md", "r1", "r3", 300);
		ledger.carry("key", "c.md", "r1", "r2", 300);
		expect(ledger.lastRead("key", "a.md")?.revision).toBe("r2");
		expect(ledger.lastRead("key", "c.md")).toBeUndefined();
	});

	it("finds who holds a read of a path by prefix, and stops listing a read once it is forgotten, trimmed or its client ends", () => {
		const ledger = new ReadLedger(3);
		ledger.record("key:a:s1", "n.md", "r1", 1);
		ledger.record("key:a:s2", "n.md", "r1", 2);
		ledger.record("key:ab:s3", "n.md", "r1", 3);
		expect(ledger.clientsOf("n.md", "key:a:").sort()).toEqual(["key:a:s1", "key:a:s2"]);
		ledger.forget("key:a:s1", "n.md");
		expect(ledger.clientsOf("n.md", "key:a:")).toEqual(["key:a:s2"]);
		ledger.record("other", "m.md", "r1", 4);
		ledger.record("other", "o.md", "r1", 5);
		// Over capacity: the oldest read (key:a:s2's) went first.
		expect(ledger.clientsOf("n.md", "key:a:")).toEqual([]);
		ledger.forgetClient("key:ab:s3");
		expect(ledger.clientsOf("n.md", "")).toEqual([]);
	});
});
