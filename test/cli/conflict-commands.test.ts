/** revision-guard:changes, :conflicts and :resolve: what changed since a read, the refused writes, and their merges. */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../src/core/revision";
import { eachCli, type CliHarness } from "./cli-harness";

const NOTE = "# Plan\n\n- first\n\n## Notes\n\n- a note\n";

let h: CliHarness;
const onDisk = (path: string) => readFile(join(h.dir, path), "utf8");

eachCli({ "Plan.md": NOTE }, (harness) => (h = harness));

/** The agent reads, the person edits, the agent writes its stale copy: one open conflict. */
async function staleWrite(agentText: string, personText: string): Promise<Record<string, unknown>> {
	const { revision } = await h.cli("read", { path: "Plan.md" });
	await h.edit("Plan.md", personText);
	const refused = await h.cli("write", {
		path: "Plan.md",
		revision: revision as string,
		content: agentText,
		agent: "codex",
	});
	expect(refused).toMatchObject({ ok: false, error: "stale-revision" });
	return refused;
}

describe("revision-guard:changes", () => {
	it("shows the diff since a revision that was read", async () => {
		const { revision } = await h.cli("read", { path: "Plan.md" });
		await h.edit("Plan.md", NOTE + "- added\n");
		const answer = await h.cli("changes", { path: "Plan.md", since: revision as string });
		expect(answer).toMatchObject({
			ok: true,
			since: revision,
			changed: true,
			revision: revisionOf(NOTE + "- added\n"),
		});
		expect(answer.diff).toContain("+- added");
	});

	it("says when the revision is not retained", async () => {
		expect(await h.cli("changes", { path: "Plan.md", since: revisionOf("never served") })).toMatchObject({
			ok: false,
			error: "base-not-retained",
		});
	});
});

describe("revision-guard:conflicts", () => {
	it("lists refused writes newest first, filtered, and shows one by id", async () => {
		const refused = await staleWrite(NOTE.replace("- first", "- first (agent)"), NOTE + "person\n");
		const list = await h.cli("conflicts", { status: "open", path: "Plan.md" });
		expect(list).toMatchObject({
			ok: true,
			total: 1,
			conflicts: [{ id: refused.conflictId, agent: "codex", status: "open", backupPath: refused.backupPath }],
		});
		expect(await h.cli("conflicts", { status: "resolved" })).toMatchObject({ ok: true, total: 0, conflicts: [] });
		expect(await h.cli("conflicts", { id: refused.conflictId as string })).toMatchObject({
			ok: true,
			conflict: { id: refused.conflictId, path: "Plan.md" },
		});
		expect(await h.cli("conflicts", { id: "nope" })).toMatchObject({ ok: false, error: "conflict-not-found" });
	});

	it("bounds the list", async () => {
		for (let i = 0; i < 3; i++) await h.cli("write", { path: "Plan.md", content: `blind ${i}\n` });
		expect(await h.cli("conflicts", { limit: "2" })).toMatchObject({
			ok: true,
			total: 3,
			truncated: true,
			conflicts: [{}, {}],
		});
		expect(await h.cli("conflicts", { limit: "1000" })).toMatchObject({
			ok: false,
			error: "bad-argument",
			argument: "limit",
		});
	});
});

describe("revision-guard:resolve", () => {
	it("shows a clean merge, then applies it through the guard, which resolves the conflict", async () => {
		const person = NOTE.replace("- a note", "- a note, edited");
		const refused = await staleWrite(NOTE.replace("- first", "- first (agent)"), person);
		const preview = await h.cli("resolve", { id: refused.conflictId as string });
		const merged = person.replace("- first", "- first (agent)");
		expect(preview).toMatchObject({
			ok: true,
			clean: true,
			conflicts: 0,
			merge: merged,
			currentRevision: revisionOf(person),
		});
		expect(preview.next).toContain("apply");
		expect(await onDisk("Plan.md")).toBe(person);

		const applied = await h.invoke("resolve", `id=${refused.conflictId as string}`, "apply", "agent=codex");
		expect(applied).toMatchObject({ ok: true, applied: true, revision: revisionOf(merged), status: "resolved" });
		expect(await onDisk("Plan.md")).toBe(merged);
		expect(await h.cli("resolve", { id: refused.conflictId as string })).toMatchObject({
			ok: false,
			error: "conflict-not-open",
		});
	});

	it("will not apply a merge with conflicts, and shows it with markers", async () => {
		const refused = await staleWrite(
			NOTE.replace("- first", "- agent's first"),
			NOTE.replace("- first", "- person's first"),
		);
		const answer = await h.invoke("resolve", `id=${refused.conflictId as string}`, "apply");
		expect(answer).toMatchObject({ ok: false, error: "merge-has-conflicts", clean: false });
		expect(answer.merge).toContain("<<<<<<<");
		expect(answer.next).toContain("revision-guard:write");
		expect(await onDisk("Plan.md")).toBe(NOTE.replace("- first", "- person's first"));
	});

	it("refuses to apply a merge made on a note that moved on meanwhile", async () => {
		const refused = await staleWrite(NOTE.replace("- first", "- first (agent)"), NOTE + "one\n");
		// The person edits again between the preview and the apply: the apply's revision is then stale.
		const notes = h.guard.notes;
		const original = notes.conflictMerge.bind(notes);
		notes.conflictMerge = async (actor, id, diff3) => {
			const preview = await original(actor, id, diff3);
			await h.edit("Plan.md", NOTE + "one\ntwo\n");
			return preview;
		};
		const answer = await h.invoke("resolve", `id=${refused.conflictId as string}`, "apply");
		notes.conflictMerge = original;
		expect(answer).toMatchObject({ ok: false, error: "stale-revision" });
		expect(await onDisk("Plan.md")).toBe(NOTE + "one\ntwo\n");
	});
});
