import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	accessOf,
	compileKeyScope,
	folderVisible,
	globProblem,
	ruleOf,
	wholeVaultScope,
	type KeyScope,
	type ScopeField,
} from "../../src/core/key-scope";

function scope(lists: Partial<Record<ScopeField, unknown>>, caseInsensitive = false): KeyScope {
	const compiled = compileKeyScope("reader", lists, { caseInsensitive });
	if (!compiled.ok) throw new Error(compiled.problem.message);
	return compiled.scope;
}

/**
 * The reference: a plain recursive matcher over segments and characters, exponential in the worst case, which is why
 * the real one is not written this way. Only run on small inputs.
 */
function referenceMatch(glob: string, path: string): boolean {
	const segmentMatch = (pattern: string, text: string): boolean => {
		if (pattern === "") return text === "";
		if (pattern[0] === "*")
			return segmentMatch(pattern.slice(1), text) || (text !== "" && segmentMatch(pattern, text.slice(1)));
		return text !== "" && pattern[0] === text[0] && segmentMatch(pattern.slice(1), text.slice(1));
	};
	const match = (patterns: string[], segments: string[]): boolean => {
		if (patterns.length === 0) return segments.length === 0;
		if (patterns[0] === "**")
			return match(patterns.slice(1), segments) || (segments.length > 0 && match(patterns, segments.slice(1)));
		return (
			segments.length > 0 && segmentMatch(patterns[0]!, segments[0]!) && match(patterns.slice(1), segments.slice(1))
		);
	};
	return match(glob.split("/"), path.split("/"));
}

describe("compileKeyScope", () => {
	it("gives a key with no lists every note to read and write, and nothing to propose (keys from before scopes)", () => {
		const whole = scope({});
		expect(whole.lists).toEqual({ read: ["**"], write: ["**"], propose: [] });
		expect(whole.whole).toBe(true);
		expect(accessOf(whole, "a.md")).toBe("write");
		expect(accessOf(whole, "deep/down/x.md")).toBe("write");
		expect(wholeVaultScope("x").whole).toBe(true);
	});

	it("refuses a list that is not a list, naming the key and the field", () => {
		const compiled = compileKeyScope("nightly-job", { write: "Projects/**" }, { caseInsensitive: false });
		expect(compiled.ok).toBe(false);
		if (compiled.ok) return;
		expect(compiled.problem.key).toBe("nightly-job");
		expect(compiled.problem.field).toBe("write");
		expect(compiled.problem.message).toContain('The write list of the key "nightly-job"');
		expect(compiled.problem.message).toContain('not the text "Projects/**"');
	});

	it.each([
		[{ read: null }, "read", "not null"],
		[{ propose: {} }, "propose", "not a object"],
		[{ read: ["ok/**", 3] }, "read", "position 2"],
		[{ write: [""] }, "write", "is empty"],
		[{ write: ["/abs/**"] }, "write", "starts with /"],
		[{ read: ["a//b"] }, "read", "empty segment"],
		[{ read: ["a/"] }, "read", "empty segment"],
		[{ read: ["../x"] }, "read", ". or .. segment"],
		[{ read: ["a**/b"] }, "read", "** inside the segment"],
		[{ propose: ["*.{md,txt}"] }, "propose", "not wildcards here"],
		[{ read: ["notes/?.md"] }, "read", "not wildcards here"],
		[{ read: ["!Private/**"] }, "read", "not wildcards here"],
	])("refuses %j in the %s list (%s)", (lists, field, words) => {
		const compiled = compileKeyScope("k", lists, { caseInsensitive: false });
		expect(compiled.ok).toBe(false);
		if (compiled.ok) return;
		expect(compiled.problem.field).toBe(field);
		expect(compiled.problem.message).toContain(words);
	});

	it("refuses globs too long or too many, so one path never costs without bound", () => {
		expect(globProblem("a".repeat(1025))).toContain("longer than");
		expect(compileKeyScope("k", { read: Array.from({ length: 257 }, () => "**") }, { caseInsensitive: false }).ok).toBe(
			false,
		);
	});

	it("keeps the lists as written, so settings can show them back", () => {
		expect(scope({ read: ["Projects/**"], write: [], propose: ["Drafts/*.md"] }).lists).toEqual({
			read: ["Projects/**"],
			write: [],
			propose: ["Drafts/*.md"],
		});
	});
});

describe("accessOf", () => {
	const scoped = scope({
		read: ["Projects/**", "Inbox/*.md", "Drafts/**"],
		write: ["Projects/Active/**", "Drafts/**"],
		propose: ["Projects/Active/Plans/**", "Drafts/**"],
	});

	it("hides what no read glob matches", () => {
		expect(accessOf(scoped, "Private/diary.md")).toBe("hidden");
		expect(accessOf(scoped, "Inbox/sub/x.md")).toBe("hidden");
		expect(accessOf(scoped, "projects.md")).toBe("hidden");
		expect(ruleOf(scoped, "Private/diary.md")).toEqual({ access: "hidden", field: "read", pattern: null });
	});

	it("makes readable notes outside write and propose read-only, naming the read glob", () => {
		expect(ruleOf(scoped, "Projects/old.md")).toEqual({ access: "read", field: "read", pattern: "Projects/**" });
		expect(ruleOf(scoped, "Inbox/today.md")).toEqual({ access: "read", field: "read", pattern: "Inbox/*.md" });
	});

	it("lets propose win over write when both match", () => {
		expect(ruleOf(scoped, "Projects/Active/todo.md")).toEqual({
			access: "write",
			field: "write",
			pattern: "Projects/Active/**",
		});
		expect(ruleOf(scoped, "Projects/Active/Plans/q3.md")).toEqual({
			access: "propose",
			field: "propose",
			pattern: "Projects/Active/Plans/**",
		});
		expect(accessOf(scoped, "Drafts/a/b.md")).toBe("propose");
	});

	it("never lets write or propose reach a note outside read", () => {
		const odd = scope({ read: ["A/**"], write: ["**"], propose: ["B/**"] });
		expect(accessOf(odd, "B/x.md")).toBe("hidden");
		expect(accessOf(odd, "A/x.md")).toBe("write");
	});

	it("matches ** at any depth, zero folders included, and * inside one segment only", () => {
		const s = scope({ write: [], read: ["**/notes/*.md", "a/**/z.md", "x*y*z/**"] });
		expect(accessOf(s, "notes/n.md")).toBe("read");
		expect(accessOf(s, "p/q/notes/n.md")).toBe("read");
		expect(accessOf(s, "notes/deep/n.md")).toBe("hidden");
		expect(accessOf(s, "a/z.md")).toBe("read");
		expect(accessOf(s, "a/b/c/z.md")).toBe("read");
		expect(accessOf(s, "xay/b.md")).toBe("hidden");
		expect(accessOf(s, "xaybz/b.md")).toBe("read");
		expect(accessOf(s, "xyz/b.md")).toBe("read");
	});

	it("matches NFC and NFD spellings alike", () => {
		const nfc = scope({ write: [], read: ["Caf\u00e9/**"] });
		expect(accessOf(nfc, "Cafe\u0301/menu.md")).toBe("read");
		const nfd = scope({ write: [], read: ["Cafe\u0301/**"] });
		expect(accessOf(nfd, "Caf\u00e9/menu.md")).toBe("read");
	});

	it("ignores case only when the disk does", () => {
		const sensitive = scope({ read: ["**"], write: ["**"], propose: ["Private/**"] });
		expect(accessOf(sensitive, "private/x.md")).toBe("write");
		const insensitive = scope({ read: ["**"], write: ["**"], propose: ["Private/**"] }, true);
		expect(accessOf(insensitive, "private/x.md")).toBe("propose");
		expect(accessOf(insensitive, "PRIVATE/X.md")).toBe("propose");
		expect(accessOf(scope({ write: [], read: ["Public/**"] }, true), "public/x.md")).toBe("read");
		expect(accessOf(scope({ write: [], read: ["Public/**"] }, false), "public/x.md")).toBe("hidden");
	});

	it("agrees with a plain recursive matcher on every small glob and path", () => {
		const segment = fc.stringMatching(/^[ab*]{1,4}$/).filter((text) => !text.includes("**"));
		const globSegment = fc.oneof(segment, fc.constant("**"));
		const glob = fc.array(globSegment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"));
		const path = fc
			.array(fc.stringMatching(/^[ab]{1,3}$/), { minLength: 1, maxLength: 5 })
			.map((parts) => parts.join("/"));
		fc.assert(
			fc.property(glob, path, (g, p) => {
				expect(accessOf(scope({ read: [g] }), p) !== "hidden").toBe(referenceMatch(g, p));
			}),
			{ numRuns: 3000 },
		);
	});

	it("decides access by the precedence rule whatever the lists hold", () => {
		const list = fc.array(fc.constantFrom("**", "a/**", "b/**", "*/x.md", "a/*.md", "**/y.md"), { maxLength: 3 });
		const path = fc.constantFrom("a/x.md", "b/x.md", "a/b/y.md", "c/y.md", "x.md");
		fc.assert(
			fc.property(list, list, list, path, (read, write, propose, p) => {
				const matches = (globs: string[]) => globs.some((g) => referenceMatch(g, p));
				const expected = !matches(read) ? "hidden" : matches(propose) ? "propose" : matches(write) ? "write" : "read";
				expect(accessOf(scope({ read, write, propose }), p)).toBe(expected);
			}),
		);
	});

	it("stays fast on patterns built to make a backtracking matcher explode", () => {
		const hostile = scope({
			read: [
				"**/" +
					Array.from({ length: 60 }, () => "*a").join("") +
					"*b/**/" +
					Array.from({ length: 30 }, () => "**/a").join("/") +
					"/c.md",
			],
		});
		const path = Array.from({ length: 40 }, () => "a".repeat(25)).join("/") + "/d.md";
		// No timing assertion (speed lives in the bench): this finishes at once, where backtracking would not in a lifetime.
		expect(accessOf(hostile, path)).toBe("hidden");
	});
});

describe("folderVisible", () => {
	it("shows a folder only when some read glob could reach inside it", () => {
		const s = scope({ read: ["Projects/**", "Inbox/*.md", "*/shared/**"] });
		expect(folderVisible(s, "")).toBe(true);
		expect(folderVisible(s, "Projects")).toBe(true);
		expect(folderVisible(s, "Projects/deep/er/")).toBe(true);
		expect(folderVisible(s, "Inbox")).toBe(true);
		expect(folderVisible(s, "Inbox/sub")).toBe(false);
		expect(folderVisible(s, "Private")).toBe(true);
		expect(folderVisible(s, "Private/shared")).toBe(true);
		expect(folderVisible(s, "Private/diary")).toBe(false);
		expect(folderVisible(scope({ read: ["Projects/**"] }), "Private")).toBe(false);
		expect(folderVisible(scope({ read: ["**/x.md"] }), "any/where")).toBe(true);
	});

	it("never hides a folder that holds a readable note", () => {
		const segment = fc.stringMatching(/^[ab*]{1,3}$/).filter((text) => !text.includes("**"));
		const glob = fc
			.array(fc.oneof(segment, fc.constant("**")), { minLength: 1, maxLength: 4 })
			.map((parts) => parts.join("/"));
		const path = fc.array(fc.stringMatching(/^[ab]{1,2}$/), { minLength: 2, maxLength: 5 });
		fc.assert(
			fc.property(glob, path, (g, segments) => {
				const s = scope({ read: [g] });
				if (accessOf(s, segments.join("/")) === "hidden") return;
				for (let depth = 1; depth < segments.length; depth++)
					expect(folderVisible(s, segments.slice(0, depth).join("/"))).toBe(true);
			}),
			{ numRuns: 2000 },
		);
	});
});
