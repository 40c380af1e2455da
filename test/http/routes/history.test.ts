import { describe, expect, it } from "vitest";
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { eachHeadless, startHeadless, type Harness } from "../../helpers/headless-harness";
import { until } from "../../helpers/built-plugin";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { readVaultFile, sha256Token, visibleFiles, writeVaultFile } from "../../helpers/vault-files";
import { changeTagOf } from "../../../src/core/revision-tokens";
import { PERSON } from "../../../src/service/notes/actor";

/** History shows no content: it names each revision by its change tag (src/core/revision-tokens.ts). */
const tagOfText = (text: string) => changeTagOf(sha256Token(text));

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness), {}, { noServerErrors: true });

const LINES = (changes: Record<number, string> = {}) =>
	Array.from({ length: 12 }, (_, i) => changes[i] ?? `line ${i}`).join("\n") + "\n";

async function agentPut(path: string, body: string, headers: Record<string, string> = {}): Promise<string> {
	const etag = (await h.api(`/vault/${path}`)).headers.etag as string;
	const res = await h.api(`/vault/${path}`, { method: "PUT", body, headers: { "If-Match": etag, ...headers } });
	expect(res.status).toBe(204);
	return (res.headers.etag as string).slice(1, -1);
}

async function note(path: string): Promise<string> {
	return (await readVaultFile(h.dir, path)).toString("utf8");
}

interface HistoryBody {
	currentRevision: string | null;
	total: number;
	revisions: {
		revision: string;
		by: string;
		source: string;
		restorable: boolean;
		current: boolean;
		previous: string | null;
	}[];
}

describe("GET /history/{path}", () => {
	it("lists who made each revision, newest first, with the revision each replaced", async () => {
		await writeVaultFile(h.dir, "a.md", "mine\n");
		const agentRevision = await agentPut("a.md", "agent's\n");
		const res = await h.api("/history/a.md");
		expect(res.status).toBe(200);
		expect(res.headers.etag).toBe(`W/"${changeTagOf(agentRevision)}"`);
		const body = res.json<HistoryBody>();
		expect(body.currentRevision).toBe(changeTagOf(agentRevision));
		expect(body.revisions[0]).toMatchObject({
			revision: changeTagOf(agentRevision),
			by: "test-agent",
			source: "agent",
			current: true,
			restorable: true,
			previous: tagOfText("mine\n"),
		});
		expect(body.revisions[1]).toMatchObject({
			revision: tagOfText("mine\n"),
			by: "another program",
			restorable: true,
			current: false,
		});
		// A listing shows no text: no revision token anywhere in it.
		expect(res.text).not.toContain(agentRevision);
		expect(res.text).not.toContain(sha256Token("mine\n"));
	});

	it("shows one revision's text and the diff from the one before", async () => {
		await writeVaultFile(h.dir, "a.md", "one\ntwo\n");
		const revision = await agentPut("a.md", "one\n2\n");
		const body = (await h.api(`/history/a.md?revision=${revision}`)).json<{
			content: string;
			diff: string;
			by: string;
			revision: string;
		}>();
		expect(body.content).toBe("one\n2\n");
		// The answer shows this revision's text, so it names it as itself; asking by its change tag is the same.
		expect(body.revision).toBe(revision);
		expect((await h.api(`/history/a.md?revision=${changeTagOf(revision)}`)).json()).toMatchObject({
			content: "one\n2\n",
			revision,
		});
		expect(body.by).toBe("test-agent");
		expect(body.diff).toContain("-two\n+2\n");
	});

	it("answers problem details with the next step for an unknown note or revision and bad paging", async () => {
		expect((await h.api("/history/none.md")).json()).toMatchObject({ type: "/problems/note-not-found" });
		await writeVaultFile(h.dir, "a.md", "x\n");
		await h.api("/vault/a.md");
		const unknown = await h.api("/history/a.md?revision=nope");
		expect(unknown.status).toBe(404);
		expect(unknown.json()).toMatchObject({
			type: "/problems/revision-not-found",
			detail: expect.stringContaining("GET /history/a.md"),
		});
		expect((await h.api("/history/a.md?offset=-1")).status).toBe(400);
		expect((await h.api("/history/../x.md")).status).toBe(400);
	});
});

describe("POST /history/{path}/restore", () => {
	it("writes an earlier revision back, guarded, and the restore is itself in history", async () => {
		await writeVaultFile(h.dir, "a.md", "first\n");
		const agentRevision = await agentPut("a.md", "second\n");
		// Named by its change tag, as the history listing shows it.
		const res = await h.api(`/history/a.md/restore?revision=${tagOfText("first\n")}`, {
			method: "POST",
			headers: { "If-Match": `"${agentRevision}"` },
		});
		expect(res.status).toBe(204);
		// The caller was not shown the text it restored: the answer hands a change tag, not a token to write over it with.
		expect(res.headers.etag).toBe(`W/"${tagOfText("first\n")}"`);
		expect(await note("a.md")).toBe("first\n");
		const body = (await h.api("/history/a.md")).json<HistoryBody>();
		expect(body.revisions[0]).toMatchObject({
			revision: tagOfText("first\n"),
			by: "test-agent",
			previous: changeTagOf(agentRevision),
			current: true,
		});
		expect(body.revisions.some((entry) => entry.revision === changeTagOf(agentRevision) && entry.restorable)).toBe(
			true,
		);
	});

	it("refuses a stale If-Match (412, nothing written, no .bak) and a missing one (428)", async () => {
		await writeVaultFile(h.dir, "a.md", "first\n");
		const agentRevision = await agentPut("a.md", "second\n");
		await writeVaultFile(h.dir, "a.md", "third\n");
		const stale = await h.api(`/history/a.md/restore?revision=${sha256Token("first\n")}`, {
			method: "POST",
			headers: { "If-Match": `"${agentRevision}"` },
		});
		expect(stale.status).toBe(412);
		expect(stale.json()).toMatchObject({ type: "/problems/history-stale", changeTag: tagOfText("third\n") });
		expect(stale.json()).not.toHaveProperty("currentRevision");
		const missing = await h.api(`/history/a.md/restore?revision=${sha256Token("first\n")}`, { method: "POST" });
		expect(missing.status).toBe(428);
		expect(await note("a.md")).toBe("third\n");
		expect(await visibleFiles(h.dir)).toEqual(["a.md"]);
	});

	it("restores a note an agent wiped with an empty body it allowed", async () => {
		await writeVaultFile(h.dir, "a.md", "a long note the person wrote\n");
		const wiped = await agentPut("a.md", "", { "Allow-Empty": "true" });
		expect(await note("a.md")).toBe("");
		const res = await h.api(`/history/a.md/restore?revision=${sha256Token("a long note the person wrote\n")}`, {
			method: "POST",
			headers: { "If-Match": `"${wiped}"` },
		});
		expect(res.status).toBe(204);
		expect(await note("a.md")).toBe("a long note the person wrote\n");
	});
});

describe("POST /history/{path}/restore with a tiny base store", () => {
	eachHeadless((harness) => (h = harness), { baseStoreCapMB: 0.00001 }, { noServerErrors: true });

	it("says so (410) when the history lists a revision whose text is no longer kept", async () => {
		await writeVaultFile(h.dir, "a.md", "first text\n");
		await agentPut("a.md", "second text\n");
		const revision = await agentPut("a.md", "third text\n");
		const listed = (await h.api("/history/a.md")).json<HistoryBody>().revisions;
		expect(listed.find((entry) => entry.revision === tagOfText("first text\n"))?.restorable).toBe(false);
		const res = await h.api(`/history/a.md/restore?revision=${sha256Token("first text\n")}`, {
			method: "POST",
			headers: { "If-Match": `"${revision}"` },
		});
		expect(res.status).toBe(410);
		expect(res.json()).toMatchObject({
			type: "/problems/revision-not-retained",
			detail: expect.stringContaining("no longer kept"),
		});
		expect(await note("a.md")).toBe("third text\n");
	});
});

describe("POST /history/{path}/revert and GET /activity", () => {
	it("lists agent writes per key, and reverts one the note still holds", async () => {
		await writeVaultFile(h.dir, "a.md", "before\n");
		const revision = await agentPut("a.md", "after\n");
		const activity = (await h.api("/activity?agent=test-agent")).json<{
			writes: { path: string; revision: string; replaced: string; revertible: boolean; current: boolean }[];
		}>();
		expect(activity.writes).toEqual([
			expect.objectContaining({
				path: "a.md",
				revision: changeTagOf(revision),
				replaced: tagOfText("before\n"),
				revertible: true,
				current: true,
			}),
		]);
		expect((await h.api("/activity?agent=someone-else")).json<{ writes: unknown[] }>().writes).toEqual([]);
		const res = await h.api(`/history/a.md/revert?revision=${revision}`, {
			method: "POST",
			headers: { "If-Match": `"${revision}"` },
		});
		expect(res.status).toBe(204);
		expect(await note("a.md")).toBe("before\n");
	});

	it("credits the revert to the key that asked for it, in history and to change listeners", async () => {
		await writeVaultFile(h.dir, "a.md", "before\n");
		const revision = await agentPut("a.md", "after\n");
		const changes: (string | null)[] = [];
		const stop = h.guard.notes.onNoteChanged(
			() => PERSON,
			(change) => changes.push(change.by?.kind === "agent" ? change.by.name : null),
		);
		expect(
			(await h.api("/history/a.md/revert", { method: "POST", headers: { "If-Match": `"${revision}"` } })).status,
		).toBe(204);
		await until(() => changes.length > 0, "the change to be reported");
		stop();
		expect(changes[0]).toBe("test-agent");
		expect((await h.api("/history/a.md")).json<HistoryBody>().revisions[0]).toMatchObject({
			by: "test-agent",
			revision: tagOfText("before\n"),
		});
	});

	it("takes out only the agent's change when the note changed since (a clean three-way revert)", async () => {
		await writeVaultFile(h.dir, "a.md", LINES());
		const revision = await agentPut("a.md", LINES({ 1: "agent's line" }));
		await writeVaultFile(h.dir, "a.md", LINES({ 1: "agent's line", 10: "person's line" }));
		const now = sha256Token(LINES({ 1: "agent's line", 10: "person's line" }));
		const res = await h.api(`/history/a.md/revert?revision=${revision}`, {
			method: "POST",
			headers: { "If-Match": `"${now}"` },
		});
		expect(res.status).toBe(204);
		expect(await note("a.md")).toBe(LINES({ 10: "person's line" }));
	});

	it("answers 409 with the merge preview when the revert conflicts, and writes nothing", async () => {
		await writeVaultFile(h.dir, "a.md", LINES());
		await agentPut("a.md", LINES({ 1: "agent's line" }));
		await writeVaultFile(h.dir, "a.md", LINES({ 1: "person's edit of the agent's line" }));
		const now = sha256Token(LINES({ 1: "person's edit of the agent's line" }));
		const res = await h.api("/history/a.md/revert", { method: "POST", headers: { "If-Match": `"${now}"` } });
		expect(res.status).toBe(409);
		expect(res.json()).toMatchObject({
			type: "/problems/revert-needs-merge",
			currentRevision: now,
			conflicts: 1,
			mergePreview: expect.stringContaining("line 1"),
		});
		expect(await note("a.md")).toBe(LINES({ 1: "person's edit of the agent's line" }));
	});

	it("refuses a stale or missing If-Match, and a write that created the note", async () => {
		await writeVaultFile(h.dir, "a.md", "before\n");
		const revision = await agentPut("a.md", "after\n");
		expect((await h.api("/history/a.md/revert", { method: "POST" })).status).toBe(428);
		const stale = await h.api("/history/a.md/revert", { method: "POST", headers: { "If-Match": '"old"' } });
		expect(stale.json()).toMatchObject({
			status: 412,
			type: "/problems/history-stale",
			changeTag: changeTagOf(revision),
		});
		expect(await note("a.md")).toBe("after\n");
	});
});

describe("undoing an agent's delete or create", () => {
	async function agentDelete(path: string, content: string): Promise<void> {
		// No read first: the token is the content's hash, so the deleted text was never served and kept before.
		expect(
			(await h.api(`/vault/${path}`, { method: "DELETE", headers: { "If-Match": `"${sha256Token(content)}"` } }))
				.status,
		).toBe(204);
	}

	it("lists an agent's delete in history and activity, and Revert brings the note back (If-None-Match: *)", async () => {
		await writeVaultFile(h.dir, "a.md", "the person's text\n");
		await agentDelete("a.md", "the person's text\n");
		const deleted = sha256Token("the person's text\n");
		const history = (await h.api("/history/a.md")).json<HistoryBody & { revisions: { deleted: boolean }[] }>();
		expect(history.currentRevision).toBeNull();
		expect(history.revisions[0]).toMatchObject({
			revision: changeTagOf(deleted),
			by: "test-agent",
			source: "agent",
			deleted: true,
			current: false,
			restorable: true,
		});
		const activity = (await h.api("/activity")).json<{ writes: unknown[] }>();
		expect(activity.writes[0]).toMatchObject({
			path: "a.md",
			agent: "test-agent",
			deleted: true,
			revision: changeTagOf(deleted),
			replaced: changeTagOf(deleted),
			current: true,
			revertible: true,
		});
		expect((await h.api("/history/a.md/revert", { method: "POST" })).status).toBe(428);
		const res = await h.api("/history/a.md/revert", { method: "POST", headers: { "If-None-Match": "*" } });
		expect(res.status).toBe(201);
		expect(res.headers.etag).toBe(`W/"${changeTagOf(deleted)}"`);
		expect(await note("a.md")).toBe("the person's text\n");
		const after = (await h.api("/history/a.md")).json<HistoryBody>();
		expect(after.revisions[0]).toMatchObject({ revision: changeTagOf(deleted), by: "test-agent", current: true });
	});

	it("never overwrites a note created again since the delete: 409 with the next step, nothing written, no .bak", async () => {
		await writeVaultFile(h.dir, "a.md", "old text\n");
		await agentDelete("a.md", "old text\n");
		await writeVaultFile(h.dir, "a.md", "a new note by the person\n");
		await until(
			async () => (await h.api("/history/a.md")).json<HistoryBody>().currentRevision !== null,
			"the new note to be seen",
		);
		const filesBefore = await visibleFiles(h.dir);
		const res = await h.api(`/history/a.md/revert?revision=${sha256Token("old text\n")}`, {
			method: "POST",
			headers: { "If-None-Match": "*" },
		});
		expect(res.json()).toMatchObject({
			status: 409,
			type: "/problems/revert-note-exists",
			changeTag: tagOfText("a new note by the person\n"),
			detail: expect.stringContaining("/restore?revision="),
		});
		expect(await note("a.md")).toBe("a new note by the person\n");
		expect(await visibleFiles(h.dir)).toEqual(filesBefore);
	});

	it("moves a note the agent created to the trash when it is still what the agent wrote", async () => {
		const created = await h.api("/vault/new.md", { method: "PUT", body: "new\n", headers: { "If-None-Match": "*" } });
		const createdRevision = (created.headers.etag as string).slice(1, -1);
		const res = await h.api("/history/new.md/revert", {
			method: "POST",
			headers: { "If-Match": `"${createdRevision}"` },
		});
		expect(res.status).toBe(204);
		expect(await visibleFiles(h.dir)).not.toContain("new.md");
		const history = (await h.api("/history/new.md")).json<HistoryBody>();
		expect(history.revisions[0]).toMatchObject({
			revision: changeTagOf(createdRevision),
			deleted: true,
			by: "test-agent",
		});
	});

	it("does not trash a note when history does not say the agent's write created it (history from an older version)", async () => {
		const created = await h.api("/vault/new.md", { method: "PUT", body: "new\n", headers: { "If-None-Match": "*" } });
		const createdRevision = (created.headers.etag as string).slice(1, -1);
		delete h.guard.history.find("new.md", createdRevision)!.created;
		expect((await h.api("/activity")).json<{ writes: unknown[] }>().writes[0]).toMatchObject({
			path: "new.md",
			revertible: false,
		});
		const res = await h.api("/history/new.md/revert", {
			method: "POST",
			headers: { "If-Match": `"${createdRevision}"` },
		});
		expect(res.json()).toMatchObject({ status: 409, type: "/problems/nothing-to-revert" });
		expect(await note("new.md")).toBe("new\n");
	});

	it("keeps a note the agent created once someone changed it (409 nothing-to-revert)", async () => {
		const created = await h.api("/vault/new.md", { method: "PUT", body: "new\n", headers: { "If-None-Match": "*" } });
		const createdRevision = (created.headers.etag as string).slice(1, -1);
		await writeVaultFile(h.dir, "new.md", "new\nand the person's line\n");
		const now = sha256Token("new\nand the person's line\n");
		const res = await h.api(`/history/new.md/revert?revision=${createdRevision}`, {
			method: "POST",
			headers: { "If-Match": `"${now}"` },
		});
		expect(res.json()).toMatchObject({ status: 409, type: "/problems/nothing-to-revert" });
		expect(await note("new.md")).toBe("new\nand the person's line\n");
	});
});

describe("retention: what recent agent writes replaced outlives other bases", () => {
	const PERSON_TEXT = "the person's note, which an agent wiped\n".padEnd(120, "x");

	async function wipeThenReadOthers(): Promise<HistoryBody> {
		await writeVaultFile(h.dir, "a.md", PERSON_TEXT);
		await agentPut("a.md", "", { "Allow-Empty": "true" });
		for (let n = 0; n < 10; n++) {
			await writeVaultFile(h.dir, `b${n}.md`, `other note ${n}\n`.padEnd(120, "y"));
			expect((await h.api(`/vault/b${n}.md`)).status).toBe(200);
		}
		return (await h.api("/history/a.md")).json<HistoryBody>();
	}

	describe("with the default pinning", () => {
		eachHeadless((harness) => (h = harness), { baseStoreCapMB: 600 / (1024 * 1024) }, { noServerErrors: true });

		it("keeps the wiped text restorable while reads of other notes fill the base store", async () => {
			const body = await wipeThenReadOthers();
			expect(body.revisions.find((entry) => entry.revision === tagOfText(PERSON_TEXT))?.restorable).toBe(true);
			const res = await h.api(`/history/a.md/revert`, {
				method: "POST",
				headers: { "If-Match": `"${sha256Token("")}"` },
			});
			expect(res.status).toBe(204);
			expect(await note("a.md")).toBe(PERSON_TEXT);
		});
		it("keeps a deleted note's text restorable too, and Revert recreates it", async () => {
			await writeVaultFile(h.dir, "a.md", PERSON_TEXT);
			const readOthers = async (from: number) => {
				for (let n = from; n < from + 8; n++) {
					await writeVaultFile(h.dir, `b${n}.md`, `other note ${n}\n`.padEnd(120, "y"));
					expect((await h.api(`/vault/b${n}.md`)).status).toBe(200);
				}
			};
			// The store is full (and its pins worked out) before the delete, and fills again after it.
			await readOthers(0);
			expect(
				(await h.api("/vault/a.md", { method: "DELETE", headers: { "If-Match": `"${sha256Token(PERSON_TEXT)}"` } }))
					.status,
			).toBe(204);
			await readOthers(8);
			expect((await h.api("/history/a.md/revert", { method: "POST", headers: { "If-None-Match": "*" } })).status).toBe(
				201,
			);
			expect(await note("a.md")).toBe(PERSON_TEXT);
		});
	});

	describe("with a full store and many notes in history", () => {
		eachHeadless((harness) => (h = harness), { baseStoreCapMB: 600 / (1024 * 1024) }, { noServerErrors: true });

		it("evicts without going through the whole history on every write", async () => {
			// Every write evicts once the store is full. Working out the pins from the whole history each time made a
			// write cost as much as the history is long; the latest agent writes are kept as they arrive instead.
			await wipeThenReadOthers();
			let scans = 0;
			const history = h.guard.history;
			const allNotes = history.allNotes.bind(history);
			history.allNotes = () => {
				scans++;
				return allNotes();
			};
			let etag = (await h.api("/vault/b0.md")).headers.etag as string;
			// Two writes: the store still holds every pinned text then (the cap is kept even over pins).
			for (let n = 0; n < 2; n++) {
				const res = await h.api("/vault/b0.md", {
					method: "PUT",
					body: `agent write ${n}\n`.padEnd(120, "z"),
					headers: { "If-Match": etag },
				});
				expect(res.status).toBe(204);
				etag = res.headers.etag as string;
			}
			expect(scans).toBe(0);
			// And what the pins protect is still protected: the wiped text is restorable.
			const body = (await h.api("/history/a.md")).json<HistoryBody>();
			expect(body.revisions.find((entry) => entry.revision === tagOfText(PERSON_TEXT))?.restorable).toBe(true);
		});
	});

	describe("with pinning turned off (undoAgentWrites: 0)", () => {
		eachHeadless(
			(harness) => (h = harness),
			{ baseStoreCapMB: 600 / (1024 * 1024), undoAgentWrites: 0 },
			{ noServerErrors: true },
		);

		it("lets the wiped text go like any other base", async () => {
			const body = await wipeThenReadOthers();
			expect(body.revisions.find((entry) => entry.revision === tagOfText(PERSON_TEXT))?.restorable).toBe(false);
		});
	});
});

describe("after a restart", () => {
	it("still lists the agent's write with what it replaced, and reverts it", async () => {
		const dir = await mkdtemp(join(tmpdir(), "rg-history-restart-"));
		const first = await startHeadless({}, dir);
		const outer = h;
		try {
			h = first;
			await writeVaultFile(dir, "a.md", "the person's text\n");
			const wiped = await agentPut("a.md", "", { "Allow-Empty": "true" });
			await first.close();
			h = await startHeadless({}, dir);
			const activity = (await h.api("/activity")).json<{
				writes: { revision: string; replaced: string; revertible: boolean }[];
			}>();
			expect(activity.writes).toEqual([
				expect.objectContaining({
					revision: changeTagOf(wiped),
					replaced: tagOfText("the person's text\n"),
					revertible: true,
				}),
			]);
			expect(
				(await h.api("/history/a.md/revert", { method: "POST", headers: { "If-Match": `"${wiped}"` } })).status,
			).toBe(204);
			expect(await note("a.md")).toBe("the person's text\n");
			await h.close();
		} finally {
			h = outer;
			await rm(dir, { recursive: true, force: true });
		}
	});
});
