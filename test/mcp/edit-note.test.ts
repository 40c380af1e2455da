/**
 * edit_note over both gateways: exact, literal old → new replacements applied to the note as it is, all or nothing,
 * with no revision needed (a sent one is checked), and errors that say what to call next.
 */
import { changeTagOf, partTokenOf } from "../../src/core/revision-tokens";
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { sha256Token, visibleFiles } from "../helpers/vault-files";
import type { Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

const PLAN = "# Plan\n\n- one\n- two\n- three\n- two again\n";

describe.each(SUBJECT_NAMES)("edit_note over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, { "Plan.md": PLAN }, (subject, client) => {
		s = subject;
		mcp = client;
	});

	const onDisk = async (path: string) => (await readFile(join(s.dir, path))).toString("utf8");
	const edit = (edits: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
		mcp.tool("edit_note", { path: "Plan.md", edits, ...extra });

	it("replaces one exact text without a revision, in a note this session never read, and returns a part token", async () => {
		const result = await edit([{ old_string: "- one\n", new_string: "- one, done\n" }]);
		const expected = PLAN.replace("- one\n", "- one, done\n");
		expect(result.isError).toBe(false);
		// The agent saw only the text it edited: its revision can patch, never replace, the note.
		expect(result.structured).toEqual({ path: "Plan.md", revision: partTokenOf(sha256Token(expected)) });
		expect(await onDisk("Plan.md")).toBe(expected);
		const replace = await mcp.tool("write_note", {
			path: "Plan.md",
			content: "wiped\n",
			revision: result.structured!.revision,
		});
		expect(replace.isError).toBe(true);
		expect(replace.details).toMatchObject({ error: "precondition-required", sentToken: "part-token" });
		expect(await onDisk("Plan.md")).toBe(expected);
	});

	it("returns the whole revision when the session had read the note it edited", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		const result = await edit([{ old_string: "- one\n", new_string: "- one, done\n" }]);
		expect(result.structured).toEqual({
			path: "Plan.md",
			revision: sha256Token(PLAN.replace("- one\n", "- one, done\n")),
		});
	});

	it("applies several edits in order, each on the result of the one before", async () => {
		const result = await edit([
			{ old_string: "- three", new_string: "- 3" },
			{ old_string: "- 3\n", new_string: "- 3\n- four\n" },
			{ old_string: "# Plan", new_string: "# The plan" },
		]);
		expect(result.isError).toBe(false);
		expect(await onDisk("Plan.md")).toBe("# The plan\n\n- one\n- two\n- 3\n- four\n- two again\n");
	});

	it("refuses an old text that is not in the note, saying what to call next, and changes nothing", async () => {
		const result = await edit([
			{ old_string: "- one\n", new_string: "- 1\n" },
			{ old_string: "- five", new_string: "- 5" },
		]);
		expect(result.isError).toBe(true);
		expect(result.prose).toContain("Not edited: Edit 2's old text was not found in the note");
		expect(result.prose).toContain(`call read_note {"path":"Plan.md"}`);
		expect(result.prose).toContain("old_string copied exactly");
		// The session never read the note: it is told only the note's change tag.
		expect(result.details).toEqual({
			error: "edit-not-applied",
			reason: "target-not-found",
			path: "Plan.md",
			changeTag: changeTagOf(sha256Token(PLAN)),
		});
		// All or nothing: the first edit, which did apply, was not written either. Nothing is kept: nothing was lost.
		expect(await onDisk("Plan.md")).toBe(PLAN);
		expect(await visibleFiles(s.dir)).toEqual(["Plan.md"]);
	});

	it("refuses an old text that occurs more than once unless replace_all is set", async () => {
		const ambiguous = await edit([{ old_string: "- two", new_string: "- 2" }]);
		expect(ambiguous.isError).toBe(true);
		expect(ambiguous.prose).toContain("occurs 2 times");
		expect(ambiguous.prose).toContain("set replace_all: true on that edit");
		expect(ambiguous.details).toMatchObject({ error: "edit-not-applied", reason: "ambiguous-target" });
		expect(await onDisk("Plan.md")).toBe(PLAN);

		const all = await edit([{ old_string: "- two", new_string: "- 2", replace_all: true }]);
		expect(all.isError).toBe(false);
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- one\n- 2\n- three\n- 2 again\n");
	});

	it("takes the replacement text literally: $& and $$ are not patterns", async () => {
		const result = await edit([
			{ old_string: "- one", new_string: "- $& costs $$5 ($1)" },
			{ old_string: "- three", new_string: "$`$'", replace_all: true },
		]);
		expect(result.isError).toBe(false);
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- $& costs $$5 ($1)\n- two\n$`$'\n- two again\n");
	});

	it("lands on a note the person changed elsewhere since the agent read it, keeping the person's change", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		await s.edit("Plan.md", PLAN.replace("# Plan", "# Plan (the person's title)"));
		const result = await edit([{ old_string: "- three", new_string: "- three (agent)" }]);
		expect(result.isError).toBe(false);
		expect(await onDisk("Plan.md")).toBe("# Plan (the person's title)\n\n- one\n- two\n- three (agent)\n- two again\n");
	});

	it("checks a revision when one is sent: a stale one is refused, the edited note kept as .bak; a current one applies", async () => {
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		const changed = PLAN.replace("# Plan", "# Plan!");
		await s.edit("Plan.md", changed);
		const stale = await edit([{ old_string: "- one", new_string: "- 1" }], { revision: read.structured!.revision });
		expect(stale.isError).toBe(true);
		expect(stale.details).toMatchObject({
			error: "stale-revision",
			sentRevision: sha256Token(PLAN),
			currentRevision: sha256Token(changed),
		});
		expect(stale.prose).toContain("call edit_note again with revision=");
		expect(await onDisk(stale.details!.backupPath as string)).toBe(changed.replace("- one", "- 1"));
		expect(await onDisk("Plan.md")).toBe(changed);

		const fresh = await edit([{ old_string: "- one", new_string: "- 1" }], { revision: sha256Token(changed) });
		expect(fresh.structured).toEqual({ path: "Plan.md", revision: sha256Token(changed.replace("- one", "- 1")) });
	});

	it("answers a missing note, an empty old text and a no-op edit with what to do instead", async () => {
		const missing = await mcp.tool("edit_note", { path: "Nope.md", edits: [{ old_string: "a", new_string: "b" }] });
		expect(missing.isError).toBe(true);
		expect(missing.prose).toContain('There is no note at "Nope.md"; edit_note changes an existing note');
		expect(missing.prose).toContain("call write_note without a revision");
		const empty = await edit([{ old_string: "", new_string: "x" }]);
		expect(empty.prose).toContain("empty old text");
		expect(empty.details).toMatchObject({ error: "edit-not-applied", reason: "invalid-target" });
		const same = await edit([{ old_string: "- one", new_string: "- one" }]);
		expect(same.prose).toContain("replaces a text with itself");
		expect((await mcp.tool("edit_note", { path: "Plan.md", edits: [] })).isError).toBe(true);
		expect(await onDisk("Plan.md")).toBe(PLAN);
		expect(await visibleFiles(s.dir)).toEqual(["Plan.md"]);
	});
});
