import path from "path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeUrlPath, parentFolder, validateVaultPath, type PathPolicy, type PathResult } from "../../src/core/path";

const policy: PathPolicy = {
	configDir: ".obsidian",
	noteExtensions: ["md"],
	deniedFolders: [".revision-guard", "Private/State"],
};

const note = (p: string, pol: PathPolicy = policy) => validateVaultPath(p, pol, "note");
const folder = (p: string, pol: PathPolicy = policy) => validateVaultPath(p, pol, "folder");
const accepted = (result: PathResult) => (result.ok ? result.path : null);

/** What a route does with the raw URL tail. */
function route(raw: string, kind: "note" | "folder", pol: PathPolicy = policy): PathResult {
	const decoded = decodeUrlPath(raw);
	return decoded.ok ? validateVaultPath(decoded.path, pol, kind) : decoded;
}

describe("decodeUrlPath", () => {
	it("decodes percent-encoded characters in each segment", () => {
		expect(decodeUrlPath("notes/My%20Plan.md")).toEqual({ ok: true, path: "notes/My Plan.md" });
		expect(decodeUrlPath("caf%C3%A9/%F0%9F%98%80.md")).toEqual({ ok: true, path: "café/😀.md" });
	});

	it("leaves already-plain paths untouched", () => {
		expect(decodeUrlPath("a/b/c.md")).toEqual({ ok: true, path: "a/b/c.md" });
		expect(decodeUrlPath("")).toEqual({ ok: true, path: "" });
	});

	it("decodes exactly once: %252e%252e stays the literal text %2e%2e", () => {
		expect(decodeUrlPath("%252e%252e/x.md")).toEqual({ ok: true, path: "%2e%2e/x.md" });
		expect(decodeUrlPath("%25252F")).toEqual({ ok: true, path: "%252F" });
	});

	it("keeps a doubly-encoded dot-dot as a literal, odd folder name that never becomes ..", () => {
		const result = route("%252e%252e/x.md", "note");
		expect(result).toEqual({ ok: true, path: "%2e%2e/x.md" });
		if (result.ok) {
			expect(result.path.split("/")).not.toContain("..");
			expect(path.posix.resolve("/root/vault", result.path)).toBe("/root/vault/%2e%2e/x.md");
		}
	});

	it("decodes %2e%2e to .. which the validator then refuses", () => {
		expect(decodeUrlPath("%2e%2e/x.md")).toEqual({ ok: true, path: "../x.md" });
		expect(route("%2e%2e/x.md", "note").ok).toBe(false);
		expect(route("a/%2E%2E/%2e%2E/x.md", "note").ok).toBe(false);
		expect(route("a/%2e/x.md", "note").ok).toBe(false);
	});

	it("refuses an encoded slash inside a segment, in either case", () => {
		expect(decodeUrlPath("a%2Fb.md").ok).toBe(false);
		expect(decodeUrlPath("a%2fb.md").ok).toBe(false);
		expect(decodeUrlPath("..%2F..%2Fetc%2Fpasswd").ok).toBe(false);
		const result = decodeUrlPath("notes%2FPlan.md");
		expect(result.ok ? "" : result.reason).toMatch(/slash/i);
	});

	it("decodes an encoded backslash, which the validator refuses", () => {
		expect(decodeUrlPath("a%5Cb.md")).toEqual({ ok: true, path: "a\\b.md" });
		expect(route("..%5C..%5Cx.md", "note").ok).toBe(false);
	});

	it("refuses malformed percent-encoding", () => {
		for (const raw of ["%", "a%2", "%zz.md", "%E0%A4%A.md", "%C3.md", "%ED%A0%80.md", "%FF.md"]) {
			const result = decodeUrlPath(raw);
			expect(result.ok, raw).toBe(false);
			expect(result.ok ? "" : result.reason, raw).toMatch(/percent-encoding/);
		}
	});

	it("decodes %00 to NUL, which the validator refuses", () => {
		expect(decodeUrlPath("a%00.md")).toEqual({ ok: true, path: "a\u0000.md" });
		expect(route("a%00.md", "note").ok).toBe(false);
	});

	it("round-trips any path whose segments were encodeURIComponent-encoded", () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.string({ unit: "grapheme" }).filter((s) => !s.includes("/")),
					{ minLength: 1, maxLength: 5 },
				),
				(segments) => {
					const raw = segments.map(encodeURIComponent).join("/");
					expect(decodeUrlPath(raw)).toEqual({ ok: true, path: segments.join("/") });
				},
			),
		);
	});
});

describe("validateVaultPath: accepted paths", () => {
	it("accepts ordinary nested notes with spaces, unicode and emoji", () => {
		for (const p of [
			"Plan.md",
			"notes/Plan.md",
			"a/b/c/d/e.md",
			"My Notes/Weekly Plan 2026.md",
			"Café/naïve résumé.md",
			"日本語/メモ.md",
			"😀/🎉 party.md",
			"notes/v1.2.3.md",
			"a-b_c (1)/[draft] #1.md",
			"%2e%2e/x.md",
		]) {
			expect(note(p), p).toEqual({ ok: true, path: p });
		}
	});

	it("compares extensions case-insensitively", () => {
		expect(note("notes/Plan.MD").ok).toBe(true);
	});

	it("keeps the name exactly as given (NFD stays NFD, a no-break space stays one), so every listed name can be used", () => {
		expect(note("caf\u0065\u0301.md")).toEqual({ ok: true, path: "caf\u0065\u0301.md" });
		expect(note("caf\u00e9.md")).toEqual({ ok: true, path: "caf\u00e9.md" });
		expect(note("my\u00a0note.md")).toEqual({ ok: true, path: "my\u00a0note.md" });
	});

	it("still checks the folded form: a no-break space at the end of a segment, or a look-alike of a denied folder", () => {
		expect(note("notes\u00a0/a.md").ok).toBe(false);
		expect(folder(".obsidian").ok).toBe(false);
		expect(note("Conf\u0069\u0301g/a.md", { ...policy, configDir: "Conf\u00edg" }).ok).toBe(false);
	});

	it("accepts the root and a trailing slash for folders", () => {
		expect(folder("")).toEqual({ ok: true, path: "" });
		expect(folder("notes")).toEqual({ ok: true, path: "notes" });
		expect(folder("notes/")).toEqual({ ok: true, path: "notes" });
		expect(folder("notes/sub/")).toEqual({ ok: true, path: "notes/sub" });
		expect(folder("notes.v2")).toEqual({ ok: true, path: "notes.v2" });
	});

	it("does not let folders end in a double slash or notes end in a slash", () => {
		expect(folder("notes//").ok).toBe(false);
		expect(note("notes/Plan.md/").ok).toBe(false);
		expect(note("").ok).toBe(false);
	});

	it("honours custom note extensions", () => {
		const pol: PathPolicy = { configDir: ".obsidian", noteExtensions: ["md", "canvas"] };
		expect(note("board.canvas", pol).ok).toBe(true);
		expect(note("board.canvas").ok).toBe(false);
	});
});

describe("validateVaultPath: refused paths", () => {
	const refuses = (p: string, kind: "note" | "folder" = "note", pol: PathPolicy = policy) => {
		const result = validateVaultPath(p, pol, kind);
		expect(result.ok, JSON.stringify(p)).toBe(false);
		return result.ok ? "" : result.reason;
	};

	it("refuses NUL and control characters", () => {
		for (const c of ["\u0000", "\u0001", "\t", "\n", "\r", "\u001b", "\u001f", "\u007f", "\u0085", "\u009f"]) {
			expect(refuses(`a${c}b.md`)).toMatch(/control/i);
		}
	});

	it("refuses backslashes", () => {
		expect(refuses("notes\\Plan.md")).toMatch(/backslash/i);
		expect(refuses("..\\..\\Windows\\win.ini.md")).not.toBe("");
	});

	it("refuses absolute paths and drive letters", () => {
		expect(refuses("/etc/passwd.md")).toMatch(/leading/);
		expect(refuses("//server/share/x.md")).toMatch(/leading/);
		expect(refuses("C:/Windows/x.md")).toMatch(/drive/i);
		expect(refuses("c:x.md")).toMatch(/drive/i);
		expect(refuses("C:", "folder")).toMatch(/drive/i);
	});

	it('refuses : * ? " < > | anywhere', () => {
		for (const c of [":", "*", "?", '"', "<", ">", "|"]) {
			expect(refuses(`notes/a${c}b.md`)).toMatch(/not allowed/);
		}
		expect(refuses("Plan.md:Zone.Identifier")).not.toBe("");
		expect(refuses("Plan.md::$DATA")).not.toBe("");
	});

	it("refuses empty, . and .. segments", () => {
		expect(refuses("a//b.md")).toMatch(/empty/);
		expect(refuses("./a.md")).toMatch(/`\.`/);
		expect(refuses("a/./b.md")).toMatch(/`\.`/);
		expect(refuses("../a.md")).toMatch(/`\.\.`/);
		expect(refuses("a/../../b.md")).toMatch(/`\.\.`/);
		expect(refuses("..", "folder")).not.toBe("");
		expect(refuses(".", "folder")).not.toBe("");
		expect(refuses("a/..", "folder")).not.toBe("");
		expect(refuses("a/../", "folder")).not.toBe("");
	});

	it("refuses segments ending in a dot or a space (Windows strips them)", () => {
		expect(refuses("notes./Plan.md")).toMatch(/dot or a space/);
		expect(refuses("notes /Plan.md")).toMatch(/dot or a space/);
		expect(refuses("Plan.md.")).not.toBe("");
		expect(refuses("Plan.md ")).not.toBe("");
		expect(refuses("...", "folder")).not.toBe("");
		expect(refuses(".. ", "folder")).not.toBe("");
		expect(refuses("notes\u00a0/Plan.md")).toMatch(/dot or a space/);
	});

	it("refuses Windows reserved device names, with or without an extension, in any case", () => {
		for (const name of [
			"CON",
			"con",
			"PRN",
			"AUX",
			"NUL",
			"nul",
			"COM1",
			"com9",
			"COM0",
			"LPT1",
			"lpt9",
			"COM¹",
			"LPT³",
		]) {
			expect(refuses(`${name}.md`)).toMatch(/reserved/);
			expect(refuses(`${name}/x.md`)).toMatch(/reserved/);
			expect(refuses(`notes/${name}.tar.md`)).toMatch(/reserved/);
		}
		expect(refuses("nul.md")).toMatch(/reserved/);
	});

	it("refuses a reserved device name followed by spaces before its extension (Windows ignores them)", () => {
		expect(refuses("nul .md")).toMatch(/reserved/);
		expect(refuses("notes/CON  .md")).toMatch(/reserved/);
		expect(refuses("CONIN$.md")).toMatch(/reserved/);
		expect(refuses("conout$/x.md")).toMatch(/reserved/);
	});

	it("still accepts names that merely start like a device name", () => {
		for (const p of [
			"console.md",
			"CONTRIBUTING.md",
			"nullable.md",
			"com10.md",
			"lpt.md",
			"auxiliary/x.md",
			"prn-notes.md",
		]) {
			expect(note(p), p).toEqual({ ok: true, path: p });
		}
	});

	it("refuses hidden files and folders anywhere in the path", () => {
		expect(refuses(".hidden.md")).toMatch(/Hidden/);
		expect(refuses("notes/.git/x.md")).toMatch(/Hidden/);
		expect(refuses(".github", "folder")).toMatch(/Hidden/);
		expect(refuses("a/.b/", "folder")).toMatch(/Hidden/);
	});

	it("refuses the config folder and anything in it", () => {
		expect(refuses(".obsidian", "folder")).not.toBe("");
		expect(refuses(".obsidian/", "folder")).not.toBe("");
		expect(refuses(".obsidian/plugins/x/notes.md")).not.toBe("");
	});

	it("refuses a config folder that is not a dot-folder, but not folders that only share its prefix", () => {
		const pol: PathPolicy = { configDir: "config", noteExtensions: ["md"] };
		expect(refuses("config", "folder", pol)).toMatch(/not served/);
		expect(refuses("config/", "folder", pol)).toMatch(/not served/);
		expect(refuses("config/snippets/a.md", "note", pol)).toMatch(/not served/);
		expect(note("configuration/a.md", pol).ok).toBe(true);
		expect(note("notes/config/a.md", pol).ok).toBe(true);
		expect(folder("config2", pol).ok).toBe(true);
	});

	it("refuses the config folder whatever its letter case (case-insensitive file systems)", () => {
		const pol: PathPolicy = { configDir: "config", noteExtensions: ["md"] };
		expect(refuses("Config/a.md", "note", pol)).toMatch(/not served/);
		expect(refuses("CONFIG", "folder", pol)).toMatch(/not served/);
		expect(refuses("Private/state/x.md")).toMatch(/not served/);
	});

	it("tolerates a config folder given with a trailing slash", () => {
		const pol: PathPolicy = { configDir: "config/", noteExtensions: ["md"] };
		expect(refuses("config/a.md", "note", pol)).toMatch(/not served/);
	});

	it("refuses .trash", () => {
		expect(refuses(".trash/old.md")).not.toBe("");
		expect(refuses(".trash", "folder")).not.toBe("");
	});

	it("refuses every denied folder, including nested ones, but not their siblings", () => {
		expect(refuses(".revision-guard/state.md")).not.toBe("");
		expect(refuses("Private/State/x.md")).toMatch(/not served/);
		expect(refuses("Private/State", "folder")).toMatch(/not served/);
		expect(note("Private/Stateless/x.md").ok).toBe(true);
		expect(note("Private/x.md").ok).toBe(true);
		const pol: PathPolicy = { configDir: ".obsidian", noteExtensions: ["md"], deniedFolders: ["Archive/"] };
		expect(refuses("Archive/x.md", "note", pol)).toMatch(/not served/);
	});

	it("refuses look-alike slashes and dots", () => {
		for (const c of [
			"\u2215",
			"\u2044",
			"\u29f8",
			"\uff0f",
			"\uff3c",
			"\u2216",
			"\ufe68",
			"\u2024",
			"\uff0e",
			"\u3002",
			"\ufe52",
		]) {
			expect(refuses(`a${c}b.md`)).toMatch(/Look-alike/);
		}
		expect(refuses("\uff0e\uff0e/x.md")).not.toBe("");
		expect(refuses("\u2024\u2024/x.md")).not.toBe("");
	});

	it("refuses every character whose compatibility form is a slash, a backslash or only dots", () => {
		const dangerous: string[] = [];
		for (let cp = 0x80; cp <= 0x10ffff; cp++) {
			if (cp >= 0xd800 && cp <= 0xdfff) continue;
			const c = String.fromCodePoint(cp);
			const folded = c.normalize("NFKC");
			if (folded !== c && (/[/\\]/.test(folded) || /^\.+$/.test(folded))) dangerous.push(c);
		}
		expect(dangerous.length).toBeGreaterThan(5);
		for (const c of dangerous) {
			expect(note(`a${c}b.md`).ok, `U+${c.codePointAt(0)!.toString(16)}`).toBe(false);
			expect(folder(`${c}`).ok, `U+${c.codePointAt(0)!.toString(16)}`).toBe(false);
		}
	});

	it("refuses non-note extensions and extensionless names for notes", () => {
		for (const p of [
			"image.png",
			"script.js",
			"notes/data.json",
			"README",
			"notes/Plan",
			"Plan.md.exe",
			".md",
			"archive.tar.gz",
			"md",
		]) {
			expect(refuses(p)).not.toBe("");
		}
		expect(refuses("Plan.exe")).toMatch(/Only notes \(\.md\)/);
	});

	it("refuses overlong paths and segments", () => {
		expect(refuses("a/".repeat(600) + "b.md")).toMatch(/too long/);
		expect(refuses("x".repeat(256) + ".md")).toMatch(/too long/);
		expect(refuses("é".repeat(130) + ".md")).toMatch(/too long/);
		expect(note("x".repeat(252) + ".md").ok).toBe(true);
	});
});

describe("parentFolder", () => {
	it("returns the folder part, or the root for top-level notes", () => {
		expect(parentFolder("Plan.md")).toBe("");
		expect(parentFolder("notes/Plan.md")).toBe("notes");
		expect(parentFolder("a/b/c.md")).toBe("a/b");
	});
});

describe("path containment (property)", () => {
	const dangerous = fc.constantFrom(
		".",
		"..",
		"/",
		"\\",
		"%",
		"%2e",
		"%2E",
		"%2f",
		"%2F",
		"%5c",
		"%5C",
		"%25",
		"%00",
		":",
		"C:",
		"c:",
		"~",
		" ",
		"\u00a0",
		"\u2215",
		"\uff0f",
		"\uff0e",
		"\u2024",
		"\u2025",
		"\u3002",
		"\ufe52",
		"\u0000",
		"\t",
		"con",
		"md",
		".md",
		"a",
		"é",
		"e\u0301",
		"😀",
		"\ud800",
		"%C3%A9",
		"%e2%88%95",
		"%ef%bc%8f",
		"//",
		"./",
		"../",
		"..\\",
		"\\\\",
		"?",
		"#",
		"*",
	);
	const arbitraryRaw = fc.oneof(
		fc.array(dangerous, { maxLength: 12 }).map((parts) => parts.join("")),
		fc.array(dangerous, { maxLength: 8 }).map((parts) => parts.join("") + ".md"),
		fc.string({ unit: "binary", maxLength: 40 }),
		fc.string({ unit: "binary", maxLength: 40 }).map((s) => s + ".md"),
		fc.string({
			unit: fc.constantFrom(".", "/", "\\", "%", "2", "e", "E", "f", "F", "5", "c", "C", ":", "a", "m", "d"),
			maxLength: 30,
		}),
	);

	const underPosix = (p: string) => {
		const root = "/root/vault";
		const resolved = path.posix.resolve(root, p);
		return resolved === root || resolved.startsWith(root + "/");
	};
	const underWindows = (p: string) => {
		const root = "C:\\vault";
		const resolved = path.win32.resolve(root, p);
		return (
			resolved.toLowerCase() === root.toLowerCase() || resolved.toLowerCase().startsWith(root.toLowerCase() + "\\")
		);
	};

	it("anything a route accepts stays under the vault root on POSIX and on Windows, with no .. and no backslash", () => {
		let acceptedCount = 0;
		fc.assert(
			fc.property(arbitraryRaw, fc.constantFrom<"note" | "folder">("note", "folder"), (raw, kind) => {
				for (const result of [route(raw, kind), validateVaultPath(raw, policy, kind)]) {
					const p = accepted(result);
					if (p === null) continue;
					acceptedCount++;
					expect(underPosix(p), p).toBe(true);
					expect(underWindows(p), p).toBe(true);
					expect(p.split("/")).not.toContain("..");
					expect(p.split("/")).not.toContain(".");
					expect(p).not.toContain("\\");
					expect(p.startsWith("/")).toBe(false);
					expect(p.includes(":") || p.includes("\u0000")).toBe(false);
					// The resolved path names the same file as the accepted one (no collapsing happened).
					if (p !== "") expect(path.posix.resolve("/root/vault", p)).toBe(`/root/vault/${p}`);
				}
			}),
			{ numRuns: 3000 },
		);
		// The generator must actually exercise the accepting side, or the property says nothing.
		expect(acceptedCount).toBeGreaterThan(100);
	});

	it("validation is idempotent: an accepted path validates to itself", () => {
		fc.assert(
			fc.property(arbitraryRaw, fc.constantFrom<"note" | "folder">("note", "folder"), (raw, kind) => {
				const p = accepted(route(raw, kind));
				if (p === null) return;
				expect(validateVaultPath(p, policy, kind)).toEqual({ ok: true, path: p });
			}),
			{ numRuns: 1000 },
		);
	});

	it("accepted note paths never fall inside a denied or hidden folder", () => {
		fc.assert(
			fc.property(
				fc.constantFrom(".obsidian", ".trash", ".revision-guard", "Private/State", "private/state", ".OBSIDIAN"),
				fc.array(dangerous, { maxLength: 6 }).map((parts) => parts.join("")),
				(prefix, rest) => {
					for (const raw of [
						`${prefix}/${rest}.md`,
						`${prefix}/x/${rest}.md`,
						`${encodeURIComponent(prefix)}/${rest}.md`,
					]) {
						expect(accepted(route(raw, "note")), raw).toBeNull();
					}
				},
			),
		);
	});
});
