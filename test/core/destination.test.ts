import { describe, expect, it } from "vitest";
import { resolveDestination } from "../../src/core/destination";
import type { PathPolicy } from "../../src/core/path";

const policy: PathPolicy = { configDir: ".obsidian", noteExtensions: ["md"] };
const resolve = (raw: string | undefined, encoded = true) =>
	resolveDestination(raw, "Projects/Plan.md", policy, encoded);

describe("resolveDestination", () => {
	it("resolves a path relative to the vault, as the Local REST API does", () => {
		expect(resolve("Archive/Plan.md")).toEqual({ ok: true, path: "Archive/Plan.md" });
		expect(resolve("  Archive//2026\\\\Plan.md ")).toEqual({ ok: true, path: "Archive/2026/Plan.md" });
		expect(resolve("Projects/../Other.md")).toEqual({ ok: true, path: "Other.md" });
		expect(resolve("./a/./b.md")).toEqual({ ok: true, path: "a/b.md" });
	});

	it("keeps the note's name for a folder: a trailing slash, the root, or a path ending in . or ..", () => {
		expect(resolve("Archive/")).toEqual({ ok: true, path: "Archive/Plan.md" });
		expect(resolve("./")).toEqual({ ok: true, path: "Plan.md" });
		expect(resolve("Archive/..")).toEqual({ ok: true, path: "Plan.md" });
	});

	it("decodes percent-encoding once for a header, and not at all for a plain string", () => {
		expect(resolve("R%C3%A9sum%C3%A9.md")).toEqual({ ok: true, path: "Résumé.md" });
		expect(resolve("100%25.md", false)).toMatchObject({ ok: true, path: "100%25.md" });
		expect(resolve("%E0%A4%A.md")).toMatchObject({ ok: false, problem: "malformed" });
	});

	it("refuses what is missing, absolute or past the vault's root", () => {
		expect(resolve(undefined)).toMatchObject({ ok: false, problem: "missing" });
		expect(resolve("  ")).toMatchObject({ ok: false, problem: "missing" });
		expect(resolve("/Archive/Plan.md")).toMatchObject({ ok: false, problem: "outside-vault" });
		expect(resolve("\\\\server\\share.md")).toMatchObject({ ok: false, problem: "outside-vault" });
		expect(resolve("../Plan.md")).toMatchObject({ ok: false, problem: "outside-vault" });
		expect(resolve("a/../../Plan.md")).toMatchObject({ ok: false, problem: "outside-vault" });
	});

	it("holds the result to every path rule: no hidden or config folder, a note extension, no look-alikes", () => {
		for (const raw of [".obsidian/x.md", ".hidden/x.md", "notes.txt", "a/.b.md", "C:/x.md", "a\u2215b.md", "a:b.md"]) {
			expect(resolve(raw), raw).toMatchObject({ ok: false, problem: "not-allowed" });
		}
	});
});
