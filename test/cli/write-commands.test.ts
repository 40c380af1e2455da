/**
 * revision-guard:read, :write, :append, :delete on the Obsidian simulation: every write goes through the one guarded
 * writer, a replacement needs the revision, and a stale one is refused with the text kept byte for byte as a .bak.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../src/core/revision";
import { changeTagOf } from "../../src/core/revision-tokens";
import { base64, eachCli, type CliHarness } from "./cli-harness";

let h: CliHarness;
const onDisk = (path: string) => readFile(join(h.dir, path), "utf8");

eachCli({ "Plan.md": "# Plan\n\n- first\n" }, (harness) => (h = harness));

describe("revision-guard:read", () => {
	it("answers the content and its revision as one JSON object", async () => {
		const answer = await h.cli("read", { path: "Plan.md" });
		expect(answer).toMatchObject({
			ok: true,
			path: "Plan.md",
			content: "# Plan\n\n- first\n",
			revision: revisionOf("# Plan\n\n- first\n"),
			size: 16,
		});
	});

	it("says when there is no note, and how to create one", async () => {
		const answer = await h.cli("read", { path: "Missing.md" });
		expect(answer).toMatchObject({ ok: false, error: "note-not-found", path: "Missing.md" });
		expect(answer.next).toContain("revision-guard:write");
	});

	it("does not send a note bigger than the answer limit", async () => {
		h.settings.maxBodyMB = 0.001;
		await h.create("Big.md", "x".repeat(2000));
		const answer = await h.cli("read", { path: "Big.md" });
		// No content, so no revision: only the change tag.
		expect(answer).toMatchObject({
			ok: false,
			error: "note-too-large",
			changeTag: changeTagOf(revisionOf("x".repeat(2000))),
		});
		expect(answer).not.toHaveProperty("revision");
		expect(JSON.stringify(answer).length).toBeLessThan(1000);
	});
});

describe("revision-guard:write", () => {
	it("replaces a note with the revision that was read, and credits the agent", async () => {
		const { revision } = await h.cli("read", { path: "Plan.md" });
		const answer = await h.cli("write", {
			path: "Plan.md",
			revision: revision as string,
			content: "# Plan\n\n- second\n",
			agent: "claude-code",
		});
		expect(answer).toEqual({ ok: true, path: "Plan.md", revision: revisionOf("# Plan\n\n- second\n"), created: false });
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- second\n");
		await h.guard.tracker.flush();
		expect(h.guard.history.entries("Plan.md").at(-1)?.source).toEqual({ kind: "agent", agent: "claude-code" });
	});

	it("creates a missing note without a revision", async () => {
		const answer = await h.cli("write", { path: "New/Idea.md", content: "idea\n" });
		expect(answer).toMatchObject({ ok: true, created: true, revision: revisionOf("idea\n") });
		expect(await onDisk("New/Idea.md")).toBe("idea\n");
	});

	it("never replaces an existing note without a revision: refused, the text kept as a .bak", async () => {
		const answer = await h.cli("write", { path: "Plan.md", content: "blind overwrite\n" });
		expect(answer).toMatchObject({
			ok: false,
			error: "note-exists",
			path: "Plan.md",
			changeTag: changeTagOf(revisionOf("# Plan\n\n- first\n")),
		});
		expect(answer).not.toHaveProperty("currentRevision");
		expect(answer.next).toContain("revision-guard:read");
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- first\n");
		expect(await onDisk(answer.backupPath as string)).toBe("blind overwrite\n");
	});

	it("refuses a stale write, keeps it byte for byte as .bak, and says what changed and what to do", async () => {
		const { revision } = await h.cli("read", { path: "Plan.md" });
		await h.edit("Plan.md", "# Plan\n\n- first\n- added by the person\n");
		const agentText = "# Plan\n\n- first\n- the agent's idea 🤖 $\\times$\r\n";
		const answer = await h.cli("write", {
			path: "Plan.md",
			revision: revision as string,
			content64: base64(agentText),
			agent: "codex",
		});
		expect(answer).toMatchObject({
			ok: false,
			error: "stale-revision",
			path: "Plan.md",
			sentRevision: revision,
			currentRevision: revisionOf("# Plan\n\n- first\n- added by the person\n"),
		});
		expect(answer.changes).toContain("+- added by the person");
		expect(answer.next).toContain(`revision=${answer.currentRevision as string}`);
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- first\n- added by the person\n");
		expect(await readFile(join(h.dir, answer.backupPath as string))).toEqual(Buffer.from(agentText, "utf8"));
		expect(h.guard.conflicts.get(answer.conflictId as string)).toMatchObject({
			agent: "codex",
			reason: "stale",
			path: "Plan.md",
		});
	});

	it("with merge=auto, writes the clean merge of a stale change and the person's", async () => {
		await h.create("List.md", "a\nb\nc\nd\ne\n");
		const { revision } = await h.cli("read", { path: "List.md" });
		await h.edit("List.md", "a\nb\nc\nd\ne, by the person\n");
		const answer = await h.cli("write", {
			path: "List.md",
			revision: revision as string,
			content: "a, by the agent\nb\nc\nd\ne\n",
			merge: "auto",
		});
		expect(answer).toMatchObject({ ok: true, merged: true });
		expect(await onDisk("List.md")).toBe("a, by the agent\nb\nc\nd\ne, by the person\n");
	});

	it("with merge=auto, refuses an overlapping stale change with the merge preview and the markdown rules that merged part of it", async () => {
		const base = "# Plan\n\nintro\n\n- [ ] one\n- [ ] two\n\nend\n";
		await h.create("Tasks.md", base);
		const { revision } = await h.cli("read", { path: "Tasks.md" });
		await h.edit("Tasks.md", base.replace("intro", "intro, by the person").replace("- [ ] one", "- [x] one"));
		const content = base.replace("intro", "intro, by the agent").replace("- [ ] two", "- [ ] two, sooner");
		const answer = await h.cli("write", { path: "Tasks.md", revision: revision as string, content, merge: "auto" });
		expect(answer).toMatchObject({ ok: false, error: "stale-revision", sentRevision: revision, mergeRules: ["list"] });
		expect(answer.mergePreview).toContain("- [x] one\n- [ ] two, sooner\n");
	});

	it("keeps a stale answer within the diff cap, with the command for the next page", async () => {
		h.settings.maxDiffKB = 1;
		const lines = Array.from({ length: 400 }, (_, i) => `line ${i}\n`).join("");
		await h.create("Long.md", lines);
		const { revision } = await h.cli("read", { path: "Long.md" });
		await h.edit("Long.md", lines.replace(/line (\d+)/g, "changed $1"));
		const text = await h.app.cli.run("revision-guard:write", {
			path: "Long.md",
			revision: revision as string,
			content: "short\n",
		});
		expect(text.length).toBeLessThan(3000);
		const answer = JSON.parse(text) as Record<string, unknown>;
		expect(answer).toMatchObject({ ok: false, error: "stale-revision", changesTruncated: true });
		expect(answer.changesNext).toMatch(/^obsidian revision-guard:changes path=Long\.md since=\S+ to=\S+ offset=\d+$/);
	});

	it("refuses an empty text unless the empty flag says it is meant", async () => {
		const { revision } = await h.cli("read", { path: "Plan.md" });
		expect(await h.cli("write", { path: "Plan.md", revision: revision as string, content64: "" })).toMatchObject({
			ok: false,
			error: "empty-body",
		});
		expect(
			await h.invoke("write", "path=Plan.md", `revision=${revision as string}`, "content64=", "empty"),
		).toMatchObject({ ok: true, revision: revisionOf("") });
		expect(await onDisk("Plan.md")).toBe("");
	});
});

describe("revision-guard:append and :delete", () => {
	it("appends without a revision, and checks one when given", async () => {
		expect(await h.cli("append", { path: "Plan.md", content: "- appended\n" })).toMatchObject({ ok: true });
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- first\n- appended\n");
		const stale = await h.cli("append", {
			path: "Plan.md",
			content: "- again\n",
			revision: revisionOf("# Plan\n\n- first\n"),
		});
		expect(stale).toMatchObject({ ok: false, error: "stale-revision" });
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- first\n- appended\n");
	});

	it("deletes only with the revision that was read", async () => {
		expect(await h.cli("delete", { path: "Plan.md" })).toMatchObject({
			ok: false,
			error: "precondition-required",
			argument: "revision",
		});
		expect(await h.cli("delete", { path: "Plan.md", revision: revisionOf("old") })).toMatchObject({
			ok: false,
			error: "stale-revision",
		});
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- first\n");
		const { revision } = await h.cli("read", { path: "Plan.md" });
		expect(await h.cli("delete", { path: "Plan.md", revision: revision as string })).toEqual({
			ok: true,
			path: "Plan.md",
			deleted: true,
		});
		expect(h.app.vault.getFileByPath("Plan.md")).toBeNull();
	});

	it("never lets an agent change a .bak", async () => {
		const refused = await h.cli("write", { path: "Plan.md", content: "mine\n" });
		const backupPath = refused.backupPath as string;
		const answer = await h.cli("append", { path: backupPath, content: "more\n" });
		expect(answer).toMatchObject({ ok: false, error: "backup-read-only" });
	});
});
