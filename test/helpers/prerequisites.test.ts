/**
 * When a suite that needs something a fresh clone may lack skips, and when it must run and fail instead: a contributor's
 * clone skips, saying why; CI never skips unless told the thing is absent on purpose.
 */
import { join } from "path";
import { describe, expect, it } from "vitest";
import { chromiumMissing } from "../browser/harness";
import { CORPUS_FILE, corpusSkipNote } from "./merge-corpus";
import { inCi, skipNote } from "./prerequisites";

describe("inCi", () => {
	it("is true when CI is set, as CI services and .ci/run set it", () => {
		for (const value of ["true", "1", "TRUE", "yes"]) expect(inCi({ CI: value }), value).toBe(true);
	});

	it("is false when CI is unset, empty, 0 or false", () => {
		expect(inCi({})).toBe(false);
		for (const value of ["", "0", "false", "False"]) expect(inCi({ CI: value }), value).toBe(false);
	});
});

describe("skipNote", () => {
	it("runs the suite when nothing is missing", () => {
		expect(skipNote(null, {})).toBeNull();
		expect(skipNote(null, { CI: "true" })).toBeNull();
	});

	it("skips outside CI, naming what is missing", () => {
		expect(skipNote("no Chromium at /x", {})).toBe("no Chromium at /x; skipped outside CI (under CI=true this fails)");
	});

	it("runs the suite under CI, so that it fails on what is missing instead of passing as skipped", () => {
		expect(skipNote("no Chromium at /x", { CI: "true" })).toBeNull();
	});
});

describe("corpusSkipNote", () => {
	it("runs the corpus tests when the corpus is there, whatever the environment says", () => {
		for (const env of [{}, { CI: "true" }, { REVISION_GUARD_CORPUS: "absent" }])
			expect(corpusSkipNote(env, true)).toBeNull();
	});

	it("skips them in a fresh clone with no ../shared, saying where the corpus was looked for", () => {
		expect(corpusSkipNote({}, false)).toContain(`no merge corpus at ${CORPUS_FILE}`);
	});

	it("runs them under CI without the corpus, so they fail (loadCorpus says what is missing)", () => {
		expect(corpusSkipNote({ CI: "true" }, false)).toBeNull();
	});

	it("skips them, also under CI, where REVISION_GUARD_CORPUS=absent says the corpus is absent on purpose", () => {
		for (const env of [{ REVISION_GUARD_CORPUS: "absent" }, { REVISION_GUARD_CORPUS: "absent", CI: "true" }]) {
			expect(corpusSkipNote(env, false)).toMatch(/REVISION_GUARD_CORPUS=absent/);
		}
	});
});

describe("chromiumMissing", () => {
	it("finds an executable there", () => {
		expect(chromiumMissing(process.execPath)).toBeNull();
	});

	it("says what to do when nothing runs there: no file, or a file that is not executable", () => {
		for (const path of ["/nonexistent/chromium", join(__dirname, "prerequisites.ts")]) {
			expect(chromiumMissing(path)).toBe(
				`no Chromium at ${path} (apt-get install chromium, or set REVISION_GUARD_CHROMIUM to its path)`,
			);
		}
	});
});
