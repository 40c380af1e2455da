import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RevisionSource } from "../../../src/core/revision-history";
import { RevisionHistory } from "../../../src/service/stores/revision-history";

const user: RevisionSource = { kind: "user" };
const agent: RevisionSource = { kind: "agent", agent: "claude" };
const external: RevisionSource = { kind: "external" };

describe("RevisionHistory.observe", () => {
	it("records the first revision of a note and reports it as new", () => {
		const history = new RevisionHistory();
		expect(history.observe("a.md", "r1", 10, user, 1000)).toBe(true);
		expect(history.latest("a.md")).toEqual({ revision: "r1", time: 1000, size: 10, source: user });
		expect(history.entries("a.md")).toHaveLength(1);
	});

	it("ignores a repeat of the latest revision (a no-op save)", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 10, user, 1000);
		expect(history.observe("a.md", "r1", 10, agent, 2000)).toBe(false);
		expect(history.entries("a.md")).toHaveLength(1);
		expect(history.latest("a.md")).toEqual({ revision: "r1", time: 1000, size: 10, source: user });
	});

	it("records A→B→A as three entries", () => {
		const history = new RevisionHistory();
		expect(history.observe("a.md", "A", 1, user, 1)).toBe(true);
		expect(history.observe("a.md", "B", 2, agent, 2)).toBe(true);
		expect(history.observe("a.md", "A", 1, external, 3)).toBe(true);
		expect(history.entries("a.md").map((e) => e.revision)).toEqual(["A", "B", "A"]);
		expect(history.latest("a.md")?.source).toEqual(external);
	});

	it("keeps notes apart", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 1, user, 1);
		history.observe("b.md", "r1", 1, user, 2);
		expect(history.entries("a.md")).toHaveLength(1);
		expect(history.entries("b.md")).toHaveLength(1);
		expect(history.size).toBe(2);
	});

	it("caps the entries per note, dropping the oldest", () => {
		const history = new RevisionHistory(3);
		for (let i = 1; i <= 5; i++) history.observe("a.md", `r${i}`, i, user, i);
		expect(history.entries("a.md").map((e) => e.revision)).toEqual(["r3", "r4", "r5"]);
		expect(history.find("a.md", "r1")).toBeUndefined();
		expect(history.find("a.md", "r3")?.time).toBe(3);
	});

	it("drops the oldest person and program revisions before agent writes, so an agent write stays undoable", () => {
		const history = new RevisionHistory(3);
		history.observe("a.md", "r0", 1, user, 1);
		history.observe("a.md", "agent", 1, agent, 2);
		for (let i = 1; i <= 5; i++) history.observe("a.md", `r${i}`, i, i % 2 ? user : external, 2 + i);
		expect(history.entries("a.md").map((e) => e.revision)).toEqual(["agent", "r4", "r5"]);
		for (let i = 0; i < 3; i++) history.observe("a.md", `agent${i}`, 1, agent, 10 + i);
		expect(history.entries("a.md").map((e) => e.revision)).toEqual(["agent0", "agent1", "agent2"]);
	});

	it("keeps an entry whose saved source is damaged as another program's, so views can label it", () => {
		const history = RevisionHistory.fromSnapshot({
			version: 1,
			notes: [
				{
					path: "a.md",
					entries: [
						{ revision: "x", time: 1 },
						{ revision: "y", time: 2, source: { kind: "agent" } },
						{ revision: "z", time: 3, source: agent },
					],
				},
			],
		});
		expect(history.entries("a.md").map((e) => e.source)).toEqual([external, external, agent]);
	});

	it("defaults to 20 entries per note", () => {
		const history = new RevisionHistory();
		for (let i = 0; i < 25; i++) history.observe("a.md", `r${i}`, i, user, i);
		expect(history.entries("a.md")).toHaveLength(20);
		expect(history.entries("a.md")[0]!.revision).toBe("r5");
	});

	it("never exceeds the cap and always ends with the last new revision (property)", () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 6 }),
				fc.array(fc.constantFrom("A", "B", "C"), { maxLength: 40 }),
				(cap, revisions) => {
					const history = new RevisionHistory(cap);
					let expectedLength = 0;
					let previous: string | undefined;
					revisions.forEach((revision, i) => {
						const isNew = history.observe("n.md", revision, 1, user, i);
						expect(isNew).toBe(revision !== previous);
						if (isNew) expectedLength = Math.min(cap, expectedLength + 1);
						previous = revision;
					});
					expect(history.entries("n.md")).toHaveLength(expectedLength);
					expect(history.latest("n.md")?.revision).toBe(revisions[revisions.length - 1]);
					const entries = history.entries("n.md");
					for (let i = 1; i < entries.length; i++) expect(entries[i]!.revision).not.toBe(entries[i - 1]!.revision);
				},
			),
		);
	});
});

describe("RevisionHistory deletion and rename", () => {
	it("markDeleted hides the latest revision and the tracked path, but keeps the entries", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 1, user, 1);
		history.markDeleted("a.md", 5);
		expect(history.latest("a.md")).toBeUndefined();
		expect(history.trackedPaths()).toEqual([]);
		expect(history.entries("a.md")).toHaveLength(1);
		expect(history.find("a.md", "r1")?.revision).toBe("r1");
	});

	it("a note recreated with its old content after deletion gets a new entry and is live again", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 1, user, 1);
		history.markDeleted("a.md", 5);
		expect(history.observe("a.md", "r1", 1, agent, 9)).toBe(true);
		expect(history.latest("a.md")).toEqual({ revision: "r1", time: 9, size: 1, source: agent });
		expect(history.entries("a.md")).toHaveLength(2);
		expect(history.trackedPaths()).toEqual(["a.md"]);
		expect(history.toSnapshot().notes[0]).not.toHaveProperty("deletedAt");
	});

	it("recordDeletion keeps who deleted which revision, once, whichever of it and the delete event comes first", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 1, user, 1);
		history.markDeleted("a.md", 4);
		history.recordDeletion("a.md", "r1", agent, 5);
		history.markDeleted("a.md", 6);
		expect(history.entries("a.md").at(-1)).toEqual({
			revision: "r1",
			time: 5,
			size: 0,
			source: agent,
			replaced: "r1",
			deleted: true,
		});
		expect(history.latest("a.md")).toBeUndefined();
		expect(history.trackedPaths()).toEqual([]);
		// The delete is not the revision: lookups of r1 find the entry that produced it.
		expect(history.find("a.md", "r1")).toMatchObject({ source: user, time: 1 });
		expect(history.observe("a.md", "r1", 1, user, 9)).toBe(true);
		expect(history.entries("a.md")).toHaveLength(3);
	});

	it("markDeleted on an unknown path does nothing", () => {
		const history = new RevisionHistory();
		history.markDeleted("nope.md", 1);
		expect(history.size).toBe(0);
	});

	it("rename keeps the history under the new path", () => {
		const history = new RevisionHistory();
		history.observe("old.md", "r1", 1, user, 1);
		history.observe("old.md", "r2", 2, agent, 2);
		history.rename("old.md", "new.md");
		expect(history.entries("old.md")).toEqual([]);
		expect(history.latest("old.md")).toBeUndefined();
		expect(history.entries("new.md").map((e) => e.revision)).toEqual(["r1", "r2"]);
		expect(history.trackedPaths()).toEqual(["new.md"]);
		expect(history.toSnapshot().notes[0]!.path).toBe("new.md");
		// Observing the same content at the new path is not a new revision.
		expect(history.observe("new.md", "r2", 2, user, 3)).toBe(false);
	});

	it("rename onto a path with a deleted note's history keeps that history first, and the note is live there", () => {
		// Renaming used to replace what the path held: a note deleted there lost its history (and Revert of that delete).
		const history = new RevisionHistory();
		history.observe("b.md", "old", 1, user, 1);
		history.recordDeletion("b.md", "old", agent, 2);
		history.observe("a.md", "r1", 1, user, 3);
		history.rename("a.md", "b.md");
		expect(history.entries("b.md").map((e) => [e.revision, e.deleted === true])).toEqual([
			["old", false],
			["old", true],
			["r1", false],
		]);
		expect(history.latest("b.md")?.revision).toBe("r1");
		expect(history.trackedPaths()).toEqual(["b.md"]);
		// The deleted count went down with it: a thousand deletes later, b.md is still there.
		for (let n = 0; n < 1100; n++) {
			history.observe(`d${n}.md`, "x", 1, user, 10);
			history.markDeleted(`d${n}.md`, 11 + n);
		}
		expect(history.latest("b.md")?.revision).toBe("r1");
	});

	it("rename of an unknown path does nothing", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 1, user, 1);
		history.rename("missing.md", "b.md");
		expect(history.trackedPaths()).toEqual(["a.md"]);
	});
});

describe("RevisionHistory.find / markServed", () => {
	it("find returns the most recent entry with that revision", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "A", 1, user, 1);
		history.observe("a.md", "B", 1, user, 2);
		history.observe("a.md", "A", 1, agent, 3);
		expect(history.find("a.md", "A")?.time).toBe(3);
		expect(history.find("a.md", "B")?.time).toBe(2);
		expect(history.find("a.md", "C")).toBeUndefined();
		expect(history.find("other.md", "A")).toBeUndefined();
	});

	it("markServed stamps the most recent entry with that revision only", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "A", 1, user, 1);
		history.observe("a.md", "B", 1, user, 2);
		history.observe("a.md", "A", 1, user, 3);
		history.markServed("a.md", "A", 100);
		expect(history.entries("a.md").map((e) => e.servedAt)).toEqual([undefined, undefined, 100]);
		history.markServed("a.md", "A", 200);
		expect(history.find("a.md", "A")?.servedAt).toBe(200);
	});

	it("markServed for an unknown revision or path does nothing", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "A", 1, user, 1);
		history.markServed("a.md", "Z", 100);
		history.markServed("b.md", "A", 100);
		expect(history.find("a.md", "A")?.servedAt).toBeUndefined();
		expect(history.size).toBe(1);
	});
});

describe("RevisionHistory snapshots", () => {
	it("round-trips through JSON", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "A", 1, user, 1);
		history.observe("a.md", "B", 2, agent, 2);
		history.markServed("a.md", "B", 50);
		history.observe("b.md", "C", 3, external, 3);
		history.markDeleted("b.md", 4);
		const json = JSON.parse(JSON.stringify(history.toSnapshot())) as unknown;
		const restored = RevisionHistory.fromSnapshot(json);
		expect(restored.toSnapshot()).toEqual(history.toSnapshot());
		expect(restored.latest("a.md")).toEqual({ revision: "B", time: 2, size: 2, source: agent, servedAt: 50 });
		expect(restored.latest("b.md")).toBeUndefined();
		expect(restored.trackedPaths()).toEqual(["a.md"]);
		expect(restored.toSnapshot().version).toBe(1);
	});

	it("takes a sound snapshot over as it is (no note's entries copied), and checks a damaged note's entries", () => {
		const sound = [{ revision: "A", time: 1, size: 1, source: { kind: "external" } }];
		const damaged = [{ revision: "B", time: 2, size: 1, source: { kind: "user" } }, null];
		const restored = RevisionHistory.fromSnapshot({
			version: 1,
			notes: [
				{ path: "a.md", entries: sound },
				{ path: "b.md", entries: damaged },
			],
		});
		expect(restored.entries("a.md")).toBe(sound);
		expect(restored.entries("a.md")[0]!.source).toEqual(external);
		expect(restored.entries("b.md")).not.toBe(damaged);
		expect(restored.entries("b.md").map((entry) => entry.revision)).toEqual(["B"]);
	});

	it("applies the entry cap to a restored history on the next observation", () => {
		const history = new RevisionHistory(10);
		for (let i = 0; i < 10; i++) history.observe("a.md", `r${i}`, 1, user, i);
		const restored = RevisionHistory.fromSnapshot(JSON.parse(JSON.stringify(history.toSnapshot())), 3);
		restored.observe("a.md", "new", 1, user, 99);
		expect(restored.entries("a.md").map((e) => e.revision)).toEqual(["r8", "r9", "new"]);
	});

	it("starts empty from garbage snapshots without throwing", () => {
		const garbage: unknown[] = [
			undefined,
			null,
			42,
			"text",
			[],
			{},
			{ version: 2, notes: [] },
			{ version: 1 },
			{ version: 1, notes: "nope" },
			{ version: 1, notes: [null] },
			{ version: 1, notes: [{ path: 1, entries: [] }] },
			{ version: 1, notes: [{ path: "a.md", entries: "x" }] },
			{ version: 1, notes: [{ path: "a.md" }] },
		];
		for (const snapshot of garbage) {
			const history = RevisionHistory.fromSnapshot(snapshot);
			expect(history.size, JSON.stringify(snapshot)).toBe(0);
			expect(history.trackedPaths()).toEqual([]);
			expect(history.observe("a.md", "r", 1, user, 1)).toBe(true);
		}
	});

	it("tolerates garbage entries inside an otherwise valid snapshot", () => {
		const snapshot = {
			version: 1,
			notes: [
				{
					path: "a.md",
					entries: [null, 7, "x", { revision: 5 }, { revision: "A", time: 1, size: 1, source: { kind: "user" } }, {}],
				},
			],
		};
		const history = RevisionHistory.fromSnapshot(snapshot);
		expect(() => history.find("a.md", "A")).not.toThrow();
		expect(history.find("a.md", "A")?.time).toBe(1);
		expect(() => history.markServed("a.md", "Z", 1)).not.toThrow();
		expect(() => history.latest("a.md")).not.toThrow();
		expect(() => history.observe("a.md", "B", 1, user, 2)).not.toThrow();
		expect(history.latest("a.md")?.revision).toBe("B");
		expect(history.entries("a.md").every((e) => typeof e.revision === "string")).toBe(true);
	});

	it("survives snapshot-shaped values with arbitrary entries (property)", () => {
		const entry = fc.oneof(
			fc.jsonValue(),
			fc.record(
				{ revision: fc.constantFrom("x", "y"), time: fc.integer(), size: fc.integer(), source: fc.jsonValue() },
				{ requiredKeys: [] },
			),
		);
		const snapshot = fc.record({
			version: fc.constant(1),
			notes: fc.array(
				fc.record({
					path: fc.constantFrom("a.md", "b.md"),
					entries: fc.array(entry, { maxLength: 5 }),
					deletedAt: fc.option(fc.integer(), { nil: undefined }),
				}),
			),
		});
		fc.assert(
			fc.property(snapshot, (value) => {
				const history = RevisionHistory.fromSnapshot(JSON.parse(JSON.stringify(value)), 3);
				for (const path of ["a.md", "b.md"]) {
					history.latest(path);
					history.find(path, "x");
					history.markServed(path, "y", 1);
					history.observe(path, "z", 1, user, 1);
					expect(history.latest(path)?.revision).toBe("z");
					expect(history.entries(path).length).toBeLessThanOrEqual(3);
				}
				expect(RevisionHistory.fromSnapshot(JSON.parse(JSON.stringify(history.toSnapshot())), 3).toSnapshot()).toEqual(
					history.toSnapshot(),
				);
			}),
		);
	});

	it("survives any JSON value as a snapshot (property)", () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				const history = RevisionHistory.fromSnapshot(value);
				expect(() => {
					for (const path of history.trackedPaths()) {
						history.latest(path);
						history.find(path, "x");
						history.markServed(path, "x", 1);
						history.observe(path, "y", 1, user, 1);
					}
				}).not.toThrow();
			}),
		);
	});
});

describe("deleted notes", () => {
	it("keeps the histories of at most MAX_DELETED_NOTES deleted notes, forgetting the longest deleted first", async () => {
		const { MAX_DELETED_NOTES } = await import("../../../src/core/revision-history");
		const history = new RevisionHistory();
		history.observe("live.md", "r", 1, { kind: "external" }, 0);
		for (let i = 0; i <= MAX_DELETED_NOTES; i++) {
			history.observe(`gone-${i}.md`, "r", 1, { kind: "external" }, i);
			history.markDeleted(`gone-${i}.md`, 1000 + i);
		}
		expect(history.size).toBeLessThanOrEqual(MAX_DELETED_NOTES + 1);
		expect(history.size).toBeGreaterThan(MAX_DELETED_NOTES * 0.8);
		expect(history.entries("gone-0.md")).toHaveLength(0);
		expect(history.entries(`gone-${MAX_DELETED_NOTES}.md`)).toHaveLength(1);
		expect(history.latest("live.md")?.revision).toBe("r");
	});
});

describe("RevisionHistory.recordMove / markChange", () => {
	it("moves the note's history and adds the move, credited and naming where it came from, its read window going on", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 4, user, 1);
		history.markServed("a.md", "r1", 5);
		history.recordMove("a.md", "x/b.md", { revision: "r1", size: 4, source: agent, time: 9, change: "c1" });
		expect(history.entries("a.md")).toEqual([]);
		expect(history.entries("x/b.md").at(-1)).toEqual({
			revision: "r1",
			time: 9,
			size: 4,
			source: agent,
			replaced: "r1",
			movedFrom: "a.md",
			change: "c1",
			servedAt: 5,
		});
		expect(history.find("x/b.md", "r1")?.servedAt).toBe(5);
		expect(history.observe("x/b.md", "r1", 4, user, 10)).toBe(false);
	});

	it("adds the move when the rename event already took the history there, and makes the note live after a delete event", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 1, user, 1);
		history.rename("a.md", "b.md");
		history.markDeleted("b.md", 2);
		history.recordMove("a.md", "b.md", { revision: "r1", size: 1, source: agent, time: 3 });
		expect(history.entries("b.md").map((e) => e.movedFrom)).toEqual([undefined, "a.md"]);
		expect(history.latest("b.md")?.revision).toBe("r1");
		expect(history.trackedPaths()).toEqual(["b.md"]);
	});

	it("marks the entry that produced a revision, and a delete, as part of one change; a damaged mark is dropped on load", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 1, agent, 1);
		history.markChange("a.md", "r1", "c1");
		history.recordDeletion("b.md", "r2", agent, 2, "c1");
		expect(history.latest("a.md")?.change).toBe("c1");
		expect(history.entries("b.md")[0]?.change).toBe("c1");
		const damaged = {
			version: 1,
			notes: [
				{
					path: "a.md",
					entries: [{ revision: "r1", time: 1, size: 1, source: agent, movedFrom: 7, change: { x: 1 } }],
				},
			],
		};
		const loaded = RevisionHistory.fromSnapshot(damaged).entries("a.md")[0]!;
		expect(loaded).not.toHaveProperty("movedFrom");
		expect(loaded).not.toHaveProperty("change");
		expect(RevisionHistory.fromSnapshot(history.toSnapshot()).latest("a.md")?.change).toBe("c1");
	});
});

describe("RevisionHistory.takeChanges", () => {
	it("names each note changed since the last call once, as its JSON, and the notes no longer held", () => {
		const history = new RevisionHistory();
		history.observe("a.md", "r1", 1, user, 1);
		history.observe("b.md", "r2", 1, user, 1);
		history.observe("a.md", "r3", 1, agent, 2);
		expect(history.takeChanges()).toEqual({
			notes: [JSON.stringify(history.allNotes().next().value), expect.stringContaining('"path":"b.md"')],
			gone: [],
		});
		expect(history.takeChanges()).toEqual({ notes: [], gone: [] });
		// Reads change nothing; an entry served, or a move, does.
		history.latest("a.md");
		history.find("b.md", "r2");
		expect(history.takeChanges()).toEqual({ notes: [], gone: [] });
		history.markServed("a.md", "r3", 5);
		history.rename("b.md", "c.md");
		const changes = history.takeChanges();
		expect(changes.gone).toEqual(["b.md"]);
		expect(changes.notes.map((json) => (JSON.parse(json) as { path: string }).path)).toEqual(["a.md", "c.md"]);
		expect(JSON.parse(changes.notes[0]!)).toMatchObject({ entries: [{}, { servedAt: 5 }] });
	});

	it("keeps a note read from the saved state as that text", () => {
		const json = JSON.stringify({ path: "a.md", entries: [{ revision: "r1", time: 1, size: 1, source: user }] });
		const history = RevisionHistory.fromSnapshot({ version: 1, notes: [JSON.parse(json)] });
		history.setIdentity("a.md", "r1", "id");
		expect(history.takeChanges().notes).toEqual([JSON.stringify({ ...JSON.parse(json), identity: "id" })]);
	});
});
