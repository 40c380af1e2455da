import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backupPathFor, compactUtc, ConflictLog, newConflictId, type ConflictRecord } from "../../src/core/conflicts";

let counter = 0;
function record(overrides: Partial<ConflictRecord> = {}): ConflictRecord {
	counter++;
	return {
		id: `c-${counter}`,
		path: "notes/Plan.md",
		reason: "stale",
		sentRevision: "sent",
		currentRevision: "current",
		proposedRevision: "proposed",
		backupPath: "notes/Plan.20261121-101500.bak.md",
		agent: "claude",
		time: "2026-11-21T10:15:00.000Z",
		status: "open",
		...overrides,
	};
}

describe("ConflictLog", () => {
	it("adds records and gets them by id", () => {
		const log = new ConflictLog();
		const r = record();
		log.add(r);
		expect(log.get(r.id)).toBe(r);
		expect(log.get("missing")).toBeUndefined();
	});

	it("lists newest first", () => {
		const log = new ConflictLog();
		const [a, b, c] = [record(), record(), record()];
		log.add(a);
		log.add(b);
		log.add(c);
		expect(log.list().map((r) => r.id)).toEqual([c.id, b.id, a.id]);
	});

	it("filters by status and by path", () => {
		const log = new ConflictLog();
		const a = record({ path: "a.md" });
		const b = record({ path: "b.md", status: "resolved" });
		const c = record({ path: "a.md", status: "dismissed" });
		const d = record({ path: "a.md" });
		for (const r of [a, b, c, d]) log.add(r);
		expect(log.list({ status: "open" }).map((r) => r.id)).toEqual([d.id, a.id]);
		expect(log.list({ path: "a.md" }).map((r) => r.id)).toEqual([d.id, c.id, a.id]);
		expect(log.list({ path: "a.md", status: "dismissed" }).map((r) => r.id)).toEqual([c.id]);
		expect(log.list({ path: "none.md" })).toEqual([]);
		expect(log.list({})).toHaveLength(4);
	});

	it("counts open records", () => {
		const log = new ConflictLog();
		expect(log.openCount()).toBe(0);
		log.add(record());
		log.add(record({ status: "resolved" }));
		log.add(record());
		expect(log.openCount()).toBe(2);
	});

	it("setStatus resolves with a time and revision, and reopening clears them", () => {
		const log = new ConflictLog();
		const r = record();
		log.add(r);
		expect(log.setStatus(r.id, "resolved", "2026-11-22T00:00:00.000Z", { resolvedRevision: "rev-x" })).toMatchObject({
			status: "resolved",
			resolvedAt: "2026-11-22T00:00:00.000Z",
			resolvedRevision: "rev-x",
		});
		expect(log.openCount()).toBe(0);
		const reopened = log.setStatus(r.id, "open", "2026-11-23T00:00:00.000Z");
		expect(reopened?.status).toBe("open");
		expect(reopened).not.toHaveProperty("resolvedAt");
		expect(reopened).not.toHaveProperty("resolvedRevision");
		expect(log.openCount()).toBe(1);
	});

	it("dismissing without a revision keeps no resolved revision", () => {
		const log = new ConflictLog();
		const r = record();
		log.add(r);
		const dismissed = log.setStatus(r.id, "dismissed", "t");
		expect(dismissed).toMatchObject({ status: "dismissed", resolvedAt: "t" });
		expect(dismissed).not.toHaveProperty("resolvedRevision");
	});

	it("setStatus on an unknown id returns undefined and notifies nobody", () => {
		const log = new ConflictLog();
		const seen: string[] = [];
		log.onChange((r) => seen.push(r.id));
		expect(log.setStatus("nope", "resolved", "t")).toBeUndefined();
		expect(seen).toEqual([]);
	});

	it("notifies listeners on add and status change until they unsubscribe", () => {
		const log = new ConflictLog();
		const seen: string[] = [];
		const unsubscribe = log.onChange((r) => seen.push(`${r.id}:${r.status}`));
		const r = record();
		log.add(r);
		log.setStatus(r.id, "resolved", "t");
		unsubscribe();
		log.add(record());
		expect(seen).toEqual([`${r.id}:open`, `${r.id}:resolved`]);
	});

	it("rename moves a note's conflicts to its new path", () => {
		const log = new ConflictLog();
		const a = record({ path: "old.md" });
		const b = record({ path: "other.md" });
		log.add(a);
		log.add(b);
		log.rename("old.md", "new.md");
		expect(log.list({ path: "new.md" }).map((r) => r.id)).toEqual([a.id]);
		expect(log.list({ path: "old.md" })).toEqual([]);
		expect(log.get(b.id)?.path).toBe("other.md");
	});

	it("trims the oldest settled records first and keeps open ones", () => {
		const log = new ConflictLog(3);
		const open1 = record();
		const settled1 = record({ status: "resolved" });
		const open2 = record();
		const settled2 = record({ status: "dismissed" });
		for (const r of [open1, settled1, open2, settled2]) log.add(r);
		expect(log.list().map((r) => r.id)).toEqual([settled2.id, open2.id, open1.id]);
		const open3 = record();
		log.add(open3);
		expect(log.list().map((r) => r.id)).toEqual([open3.id, open2.id, open1.id]);
	});

	it("drops the oldest open records only when nothing settled is left", () => {
		const log = new ConflictLog(2);
		const [a, b, c] = [record(), record(), record()];
		for (const r of [a, b, c]) log.add(r);
		expect(log.list().map((r) => r.id)).toEqual([c.id, b.id]);
	});

	it("never holds more than the maximum, and never drops an open record while a settled one remains (property)", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 6 }),
				fc.array(fc.constantFrom<"open" | "resolved" | "dismissed">("open", "resolved", "dismissed"), {
					maxLength: 30,
				}),
				(max, statuses) => {
					const log = new ConflictLog(max);
					const added: ConflictRecord[] = [];
					for (const status of statuses) {
						const r = record({ status });
						log.add(r);
						added.push(r);
						const kept = new Set(log.list().map((k) => k.id));
						expect(kept.size).toBeLessThanOrEqual(max);
						// A new open record always survives its own add (settled ones may go first, even a new one).
						if (r.status === "open") expect(kept.has(r.id)).toBe(true);
						const droppedOpen = added.some((x) => x.status === "open" && !kept.has(x.id));
						const keptSettled = added.some((x) => x.status !== "open" && kept.has(x.id));
						if (droppedOpen) expect(keptSettled).toBe(false);
					}
				},
			),
		);
	});

	it("snapshot round-trips through JSON, keeping order", () => {
		const log = new ConflictLog();
		const a = record();
		const b = record({ status: "resolved", resolvedAt: "t", resolvedRevision: "r" });
		log.add(a);
		log.add(b);
		const restored = ConflictLog.fromSnapshot(JSON.parse(JSON.stringify(log.toSnapshot())));
		expect(restored.toSnapshot()).toEqual(log.toSnapshot());
		expect(restored.list().map((r) => r.id)).toEqual([b.id, a.id]);
		expect(restored.openCount()).toBe(1);
	});

	it("fromSnapshot ignores garbage and records without an id or path", () => {
		for (const garbage of [undefined, null, 1, "x", [], {}, { records: "x" }]) {
			expect(ConflictLog.fromSnapshot(garbage).list()).toEqual([]);
		}
		const ok = record();
		const restored = ConflictLog.fromSnapshot({
			version: 1,
			records: [null, 3, { id: 1, path: "a" }, { id: "x" }, { path: "p" }, ok],
		});
		expect(restored.list()).toEqual([ok]);
	});
});

describe("compactUtc", () => {
	it("formats yyyyMMdd-HHmmss in UTC", () => {
		expect(compactUtc(new Date("2026-11-21T10:15:00.000Z"))).toBe("20261121-101500");
		expect(compactUtc(new Date("2026-01-02T03:04:05.999Z"))).toBe("20260102-030405");
		expect(compactUtc(new Date("2026-11-21T23:59:59+05:00"))).toBe("20261121-185959");
	});

	it("always yields 15 characters that sort like the dates (property)", () => {
		const date = fc.date({
			min: new Date("1970-01-01T00:00:00Z"),
			max: new Date("9999-12-31T23:59:59Z"),
			noInvalidDate: true,
		});
		fc.assert(
			fc.property(date, date, (a, b) => {
				expect(compactUtc(a)).toMatch(/^\d{8}-\d{6}$/);
				const sa = Math.floor(a.getTime() / 1000);
				const sb = Math.floor(b.getTime() / 1000);
				expect(Math.sign(compactUtc(a).localeCompare(compactUtc(b)))).toBe(Math.sign(sa - sb));
			}),
		);
	});
});

describe("newConflictId", () => {
	it("combines the compact UTC time and the random part", () => {
		expect(newConflictId(new Date("2026-11-21T10:15:00Z"), "ab12")).toBe("c-20261121-101500-ab12");
	});
});

describe("backupPathFor", () => {
	const when = new Date("2026-11-21T10:15:00.000Z");

	it("puts the backup beside the note: notes/Plan.md → notes/Plan.20261121-101500.bak.md", () => {
		expect(backupPathFor("notes/Plan.md", when, "", 1)).toBe("notes/Plan.20261121-101500.bak.md");
	});

	it("handles a note at the vault root", () => {
		expect(backupPathFor("Plan.md", when, "", 1)).toBe("Plan.20261121-101500.bak.md");
	});

	it("adds -2, -3… for uniqueness from the second attempt on", () => {
		expect(backupPathFor("notes/Plan.md", when, "", 2)).toBe("notes/Plan.20261121-101500-2.bak.md");
		expect(backupPathFor("notes/Plan.md", when, "", 3)).toBe("notes/Plan.20261121-101500-3.bak.md");
		expect(backupPathFor("notes/Plan.md", when, "", 0)).toBe("notes/Plan.20261121-101500.bak.md");
	});

	it("mirrors the note's folders inside a backup folder", () => {
		expect(backupPathFor("notes/sub/Plan.md", when, "Backups", 1)).toBe(
			"Backups/notes/sub/Plan.20261121-101500.bak.md",
		);
		expect(backupPathFor("Plan.md", when, "Backups", 1)).toBe("Backups/Plan.20261121-101500.bak.md");
		expect(backupPathFor("a/Plan.md", when, "/Backups/", 1)).toBe("Backups/a/Plan.20261121-101500.bak.md");
		expect(backupPathFor("a/Plan.md", when, "Archive/Backups", 2)).toBe(
			"Archive/Backups/a/Plan.20261121-101500-2.bak.md",
		);
	});

	it("keeps same-named notes from different folders apart", () => {
		expect(backupPathFor("a/Plan.md", when, "Backups", 1)).not.toBe(backupPathFor("b/Plan.md", when, "Backups", 1));
	});

	it("strips only the last extension and keeps dotted names", () => {
		expect(backupPathFor("notes/v1.2 Plan.md", when, "", 1)).toBe("notes/v1.2 Plan.20261121-101500.bak.md");
		expect(backupPathFor("board.canvas", when, "", 1)).toBe("board.20261121-101500.bak.md");
		expect(backupPathFor("README", when, "", 1)).toBe("README.20261121-101500.bak.md");
	});

	it("always produces a .bak.md in the right folder, distinct per attempt (property)", () => {
		const segment = fc.string({ unit: fc.constantFrom(..."abc XYZ-_é😀"), minLength: 1, maxLength: 8 });
		fc.assert(
			fc.property(
				fc.array(segment, { maxLength: 3 }),
				segment,
				fc.constantFrom("", "Backups", "x/y"),
				fc.integer({ min: 1, max: 50 }),
				(folders, name, base, attempt) => {
					const note = [...folders, `${name}.md`].join("/");
					const backup = backupPathFor(note, when, base, attempt);
					expect(backup.endsWith(".bak.md")).toBe(true);
					const expectedDir = [base, ...folders].filter((p) => p !== "").join("/");
					const dir = backup.includes("/") ? backup.slice(0, backup.lastIndexOf("/")) : "";
					expect(dir).toBe(expectedDir);
					expect(backup).not.toBe(note);
					expect(backupPathFor(note, when, base, attempt + 1)).not.toBe(backup);
				},
			),
		);
	});
});
