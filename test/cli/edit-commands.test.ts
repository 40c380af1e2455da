/** revision-guard:edit and :patch: computed inside the writer's atomic step, on the note as it is then. */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../src/core/revision";
import { partTokenOf } from "../../src/core/revision-tokens";
import { base64, eachCli, type CliHarness } from "./cli-harness";

const NOTE = "---\nstatus: draft\n---\n# Plan\n\n- first\n\n## Next\n\n- later\n";

let h: CliHarness;
const onDisk = (path: string) => readFile(join(h.dir, path), "utf8");

eachCli({ "Plan.md": NOTE }, (harness) => (h = harness));

describe("revision-guard:edit", () => {
	it("replaces an exact text without a revision, and keeps the person's change elsewhere in the note", async () => {
		await h.edit("Plan.md", NOTE.replace("- later", "- later, says the person"));
		const answer = await h.cli("edit", { path: "Plan.md", old: "- first", new: "- first, done", agent: "claude-code" });
		const expected = NOTE.replace("- first", "- first, done").replace("- later", "- later, says the person");
		// The caller never read the note: its answer names only the part it changed (a token that patches, not replaces).
		expect(answer).toEqual({ ok: true, path: "Plan.md", revision: partTokenOf(revisionOf(expected)), created: false });
		expect(await onDisk("Plan.md")).toBe(expected);
	});

	it("takes exact bytes from old64= and new64= (tabs and backslashes the plain form would turn into other characters)", async () => {
		await h.create("Math.md", "Area: $a \\times b$\n");
		const answer = await h.cli("edit", {
			path: "Math.md",
			old64: base64("$a \\times b$"),
			new64: base64("$a \\times b \\cdot\tc$"),
		});
		expect(answer).toMatchObject({ ok: true });
		expect(await onDisk("Math.md")).toBe("Area: $a \\times b \\cdot\tc$\n");
	});

	it("says when the old text is missing or not unique, and changes nothing", async () => {
		expect(await h.cli("edit", { path: "Plan.md", old: "- nowhere", new: "x" })).toMatchObject({
			ok: false,
			error: "edit-not-applied",
			reason: "target-not-found",
		});
		const twice = await h.cli("edit", { path: "Plan.md", old: "- ", new: "* " });
		expect(twice).toMatchObject({ ok: false, error: "edit-not-applied", reason: "ambiguous-target" });
		expect(await h.invoke("edit", "path=Plan.md", "old=- ", "new=* ", "all")).toMatchObject({ ok: true });
		expect(await onDisk("Plan.md")).toBe(NOTE.replace(/- /g, "* "));
	});

	it("removes the old text when new= is empty, and answers note-not-found for a missing note", async () => {
		expect(await h.cli("edit", { path: "Plan.md", old: "\n- first", new: "" })).toMatchObject({ ok: true });
		expect(await onDisk("Plan.md")).toBe(NOTE.replace("\n- first", ""));
		expect(await h.cli("edit", { path: "Gone.md", old: "a", new: "b" })).toMatchObject({
			ok: false,
			error: "note-not-found",
		});
	});
});

describe("revision-guard:edit with edits64=", () => {
	const edits64 = (edits: unknown) => base64(JSON.stringify(edits));

	it("applies several edits together, in order", async () => {
		const answer = await h.cli("edit", {
			path: "Plan.md",
			edits64: edits64([
				{ old: "- first", new: "- first\n- second" },
				{ old: "- ", new: "* ", replaceAll: true },
			]),
		});
		expect(answer).toMatchObject({ ok: true });
		expect(await onDisk("Plan.md")).toBe(NOTE.replace("- first", "- first\n- second").replace(/- /g, "* "));
	});

	it("changes nothing when one edit does not apply", async () => {
		const answer = await h.cli("edit", {
			path: "Plan.md",
			edits64: edits64([
				{ old: "- first", new: "- done" },
				{ old: "- nowhere", new: "x" },
			]),
		});
		expect(answer).toMatchObject({ ok: false, error: "edit-not-applied", reason: "target-not-found" });
		expect(await onDisk("Plan.md")).toBe(NOTE);
	});

	it("refuses a list that is not one, or edits given both ways", async () => {
		for (const bad of [{ old: "a", new: "b" }, [], [{ old: "a" }], [{ old: "a", new: "b", extra: 1 }]]) {
			expect(await h.cli("edit", { path: "Plan.md", edits64: edits64(bad) })).toMatchObject({
				ok: false,
				error: "bad-argument",
				argument: "edits64",
			});
		}
		expect(await h.cli("edit", { path: "Plan.md", edits64: base64("[{") })).toMatchObject({
			ok: false,
			error: "bad-argument",
			argument: "edits64",
		});
		expect(
			await h.cli("edit", { path: "Plan.md", old: "a", edits64: edits64([{ old: "a", new: "b" }]) }),
		).toMatchObject({ ok: false, error: "bad-argument", argument: "old" });
		expect(await onDisk("Plan.md")).toBe(NOTE);
	});
});

describe("revision-guard:patch", () => {
	it("appends under a heading with the revision that was read", async () => {
		const { revision } = await h.cli("read", { path: "Plan.md" });
		const answer = await h.cli("patch", {
			path: "Plan.md",
			revision: revision as string,
			type: "heading",
			target: "Plan::Next",
			operation: "append",
			content: "- also\n",
		});
		expect(answer).toMatchObject({ ok: true });
		expect(await onDisk("Plan.md")).toContain("- later\n- also\n");
	});

	it("sets a frontmatter key from JSON", async () => {
		const { revision } = await h.cli("read", { path: "Plan.md" });
		const answer = await h.invoke(
			"patch",
			"path=Plan.md",
			`revision=${revision as string}`,
			"type=frontmatter",
			"target=status",
			"operation=replace",
			'content="done"',
			"json",
		);
		expect(answer).toMatchObject({ ok: true });
		expect(await onDisk("Plan.md")).toContain("status: done\n");
	});

	it("needs the revision, refuses a stale one with a .bak, and names a missing target", async () => {
		expect(
			await h.cli("patch", { path: "Plan.md", type: "heading", target: "Plan", operation: "append", content: "x\n" }),
		).toMatchObject({ ok: false, error: "precondition-required" });
		const { revision } = await h.cli("read", { path: "Plan.md" });
		const missing = await h.cli("patch", {
			path: "Plan.md",
			revision: revision as string,
			type: "heading",
			target: "Nowhere",
			operation: "append",
			content: "x\n",
		});
		expect(missing).toMatchObject({ ok: false, error: "target-not-found", currentRevision: revision });
		await h.edit("Plan.md", NOTE + "\nperson\n");
		const stale = await h.cli("patch", {
			path: "Plan.md",
			revision: revision as string,
			type: "heading",
			target: "Plan::Next",
			operation: "append",
			content: "- agent\n",
		});
		expect(stale).toMatchObject({ ok: false, error: "stale-revision" });
		expect(await onDisk(stale.backupPath as string)).toContain("- agent\n");
		expect(await onDisk("Plan.md")).toBe(NOTE + "\nperson\n");
	});

	it("renames a heading (scope=marker), splices into one block (within=-1) and refuses a duplicate append (reject)", async () => {
		let { revision } = await h.cli("read", { path: "Plan.md" });
		const renamed = await h.cli("patch", {
			path: "Plan.md",
			revision: revision as string,
			type: "heading",
			target: "Plan::Next",
			operation: "replace",
			scope: "marker",
			content: "Later",
		});
		expect(renamed).toMatchObject({ ok: true });
		expect(await onDisk("Plan.md")).toContain("## Later\n");
		revision = renamed.revision;
		const spliced = await h.cli("patch", {
			path: "Plan.md",
			revision: revision as string,
			type: "heading",
			target: "Plan::Later",
			operation: "append",
			within: "-1",
			content: " too",
		});
		expect(spliced).toMatchObject({ ok: true });
		expect(await onDisk("Plan.md")).toContain("- later too\n");
		const before = await onDisk("Plan.md");
		const again = await h.invoke(
			"patch",
			"path=Plan.md",
			`revision=${spliced.revision as string}`,
			"type=heading",
			"target=Plan::Later",
			"operation=append",
			"content=- later too",
			"reject",
		);
		expect(again).toMatchObject({ ok: false, error: "invalid-patch", reason: "content-preexists" });
		expect(
			await h.cli("patch", {
				path: "Plan.md",
				revision: spliced.revision as string,
				type: "heading",
				target: "Plan::Later",
				operation: "append",
				scope: "marker",
				content: "x",
			}),
		).toMatchObject({ ok: false, error: "invalid-patch" });
		expect(await onDisk("Plan.md")).toBe(before);
	});

	it("refuses unknown operations and target types by name", async () => {
		const { revision } = await h.cli("read", { path: "Plan.md" });
		const answer = await h.cli("patch", {
			path: "Plan.md",
			revision: revision as string,
			type: "line",
			target: "3",
			operation: "append",
			content: "x",
		});
		expect(answer).toMatchObject({ ok: false, error: "bad-argument", argument: "type" });
		expect(answer.detail).toContain("heading, frontmatter, block");
	});
});
