import { describe, expect, it } from "vitest";
import { notesOfBackup } from "../../src/core/backup-note";
import { backupPathFor } from "../../src/core/conflicts";

describe("notesOfBackup", () => {
	it("reads the note back from every name backupPathFor gives, beside the note or in a backup folder", () => {
		const date = new Date("2026-11-21T10:15:00Z");
		for (const folder of ["", "Agent backups", "/Backups/"]) {
			for (const attempt of [1, 2, 13]) {
				for (const note of ["Plan.md", "notes/deep/Plan.md", "a.b/c.d.md"]) {
					expect(notesOfBackup(backupPathFor(note, date, folder, attempt), folder, ["md"])).toEqual([note]);
				}
			}
		}
	});

	it("offers one path per note extension, since the name keeps only the stem", () => {
		expect(notesOfBackup("x/Plan.20261121-101500.bak.md", "", ["md", "txt"])).toEqual(["x/Plan.md", "x/Plan.txt"]);
	});

	it("takes a file in the backup folder that is not named like a .bak for the note it mirrors", () => {
		expect(notesOfBackup("Agent backups/Private/own.md", "Agent backups", ["md"])).toEqual(["Private/own.md"]);
		expect(notesOfBackup("Private/copy.bak.md", "", ["md"])).toEqual(["Private/copy.md"]);
	});
});
