import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backupPathFor, compactUtc, newConflictId } from "../../src/core/conflicts";

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
