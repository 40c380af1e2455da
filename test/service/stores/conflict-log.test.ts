import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConflictRecord } from "../../../src/core/conflicts";
import { ConflictLog } from "../../../src/service/stores/conflict-log";

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
