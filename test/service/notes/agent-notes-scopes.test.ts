/**
 * Key scopes in the application service (service/scopes/scope-gate.ts through AgentNotes): a note outside a key's read list
 * does not exist for it, in every answer the service gives; a read-only note is never changed; a note the key may
 * only propose to goes to the proposal sink (the note untouched), or is refused without one. The surfaces are walked
 * in test/http/scope-walk.test.ts; this is the service's own promise, on the in-memory gateway.
 */
import { describe, expect, it, vi } from "vitest";
import { compileKeyScope, type KeyScope, type ScopeField } from "../../../src/core/key-scope";
import { revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { agentActor, PERSON, type AgentActor } from "../../../src/service/notes/actor";
import type { ProposalSink } from "../../../src/service/proposals/proposal-sink";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import type { WriteRequest } from "../../../src/service/write/write-request";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { ParsedNoteIndex } from "../../../src/service/search/parsed-note-index";
import { yieldVia } from "../../../src/core/steps";
import { writeRequest } from "../../helpers/write-request";

const VAULT = {
	"Projects/plan.md": "# Plan\n#work\n[[diary]]\n",
	"Projects/old.md": "# Old\n#work\n",
	"Drafts/idea.md": "# Idea\n",
	"Private/diary.md": "# Diary\n#secret\n[[plan]]\n",
	"Private/deep/more.md": "# More\n#secret\n",
	"Private/x.20260101-101500.bak.md": "a refused copy\n",
	"Projects/plan.20260101-101500.bak.md": "a refused copy of the plan\n",
};

function scopeOf(lists: Partial<Record<ScopeField, unknown>>, key = "reader"): KeyScope {
	const compiled = compileKeyScope(key, lists, { caseInsensitive: false });
	if (!compiled.ok) throw new Error(compiled.problem.message);
	return compiled.scope;
}

const LISTS = { read: ["Projects/**", "Drafts/**"], write: ["Projects/plan.md", "Drafts/**"], propose: ["Drafts/**"] };
const READER = agentActor("reader", "key:reader", undefined, scopeOf(LISTS));

class FakeSink implements ProposalSink {
	readonly received: WriteRequest[] = [];
	async propose(request: WriteRequest) {
		this.received.push(request);
		return {
			kind: "proposed" as const,
			id: `p-${this.received.length}`,
			path: request.path,
			backupPath: `${request.path}.proposal.bak.md`,
		};
	}
}

async function open(proposals?: ProposalSink | null, options: { rendersEmbeds?: boolean } = {}) {
	const gateway = new MemoryGateway({ ...VAULT });
	// The parsed index, as the headless host's; told to render embeds as Obsidian's does when a test asks.
	const noteIndex = Object.assign(new ParsedNoteIndex({ gateway, yieldToHost: yieldVia(nodeTimers) }), {
		rendersEmbeds: options.rendersEmbeds === true,
	});
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage: new MemoryStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		noteIndex,
		...(proposals !== undefined ? { proposals } : {}),
	});
	return { gateway, guard, notes: guard.notes };
}

const snapshot = (gateway: MemoryGateway) => new Map(gateway.notes);

describe("a note outside the key's read list does not exist for it", () => {
	it("reads, diffs, history and HEAD answer missing; the person and an unscoped key still read it", async () => {
		const { notes } = await open();
		expect(await notes.read(READER, "Private/diary.md")).toEqual({ kind: "missing" });
		expect(await notes.read(READER, "Private/diary.md", { head: true })).toEqual({ kind: "missing" });
		expect(
			await notes.changes(READER, "Private/diary.md", { since: revisionOf(VAULT["Private/diary.md"]), offset: 0 }),
		).toEqual({ kind: "missing" });
		expect(await notes.undo.history(READER, "Private/diary.md", 0, 10)).toBeNull();
		expect((await notes.read(PERSON as AgentActor, "Private/diary.md")).kind).toBe("read");
		expect((await notes.read(agentActor("other"), "Private/diary.md")).kind).toBe("read");
		expect((await notes.read(READER, "Projects/plan.md")).kind).toBe("read");
	});

	it("hides the .bak notes of hidden notes, and shows those of notes it may see", async () => {
		const { notes } = await open();
		expect(await notes.read(READER, "Private/x.20260101-101500.bak.md")).toEqual({ kind: "missing" });
		expect((await notes.read(READER, "Projects/plan.20260101-101500.bak.md")).kind).toBe("read");
	});

	it("holds a folder named like the backup folder in another case to the globs, where the disk tells case apart", async () => {
		const gateway = new MemoryGateway({ ...VAULT, "backups/Projects/mine.md": "a person's note\n" });
		const settings = { ...structuredClone(DEFAULT_SETTINGS), backupFolder: "Backups" };
		const guard = await openRevisionGuard({
			gateway,
			storage: new MemoryStorage(),
			settings: () => settings,
			configDir: ".obsidian",
			timers: nodeTimers,
		});
		expect(await guard.notes.read(READER, "backups/Projects/mine.md")).toEqual({ kind: "missing" });
		expect((await guard.notes.listFolder(READER, ""))!.map((entry) => entry.path)).not.toContain("backups/");
		expect(await guard.notes.listFolder(READER, "backups/Projects")).toBeNull();
	});

	it("leaves hidden notes and folders out of listings and note pages", async () => {
		const { notes } = await open();
		const root = (await notes.listFolder(READER, ""))!.map((entry) => entry.path);
		expect(root).toEqual(expect.arrayContaining(["Projects/", "Drafts/"]));
		expect(root).not.toContain("Private/");
		expect(await notes.listFolder(READER, "Private")).toBeNull();
		const page = await notes.notePage(READER, null, 100);
		expect(page.notes.map((note) => note.path).sort()).toEqual([
			"Drafts/idea.md",
			"Projects/old.md",
			"Projects/plan.20260101-101500.bak.md",
			"Projects/plan.md",
		]);
	});

	it("leaves hidden notes out of search, tags and links", async () => {
		const { notes } = await open();
		const page = { limit: 100, maxBytes: 1 << 20, includeBackups: true };
		const hits = await notes.search.simple(READER, "diary", 10, page);
		expect(hits.kind === "page" && hits.hits.map((hit) => hit.filename)).toEqual(["Projects/plan.md"]);
		const logic = await notes.search.logic(READER, { glob: ["*", { var: "path" }] }, page);
		expect(logic.kind === "page" && logic.hits.every((hit) => !hit.filename.startsWith("Private/"))).toBe(true);
		const tags = await notes.facts.tags(READER);
		expect(tags.map((tag) => tag.name)).toEqual(["work"]);
		expect((await notes.facts.tags(PERSON)).map((tag) => tag.name).sort()).toEqual(["secret", "work"]);
		const links = await notes.facts.links(READER, "Projects/plan.md", VAULT["Projects/plan.md"]);
		expect(links.links).toEqual([]);
		expect(links.backlinks).toEqual([]);
	});

	it("shows a link to a hidden note as leading nowhere, as a link to a note that is not there", async () => {
		const { notes } = await open();
		const links = await notes.facts.links(READER, "Projects/plan.md", "[[diary]] [[nowhere]] [[old]]\n");
		expect(links.links).toEqual(["Projects/old.md"]);
		expect([...links.unresolvedLinks].sort()).toEqual(["diary", "nowhere"]);
		const page = { limit: 100, maxBytes: 1 << 20, includeBackups: false };
		const hits = await notes.search.logic(READER, { in: ["diary", { var: "unresolvedLinks" }] }, page);
		expect(hits.kind === "page" && hits.hits.map((hit) => hit.filename)).toEqual(["Projects/plan.md"]);
		// A key without lists sees where it leads.
		expect((await notes.facts.links(PERSON, "Projects/plan.md", "[[diary]]\n")).links).toEqual(["Private/diary.md"]);
	});

	it("renders no note whose embeds, however nested, show or name a hidden note (a renderer fills each embed in)", async () => {
		const { gateway, notes } = await open(undefined, { rendersEmbeds: true });
		// Visible, and linking only to visible notes itself; the note it embeds links to the hidden diary.
		gateway.notes.set("Projects/outer.md", "# Outer\n![[middle]]\n");
		gateway.notes.set("Projects/middle.md", "# Middle\n![[inner]]\n");
		gateway.notes.set("Projects/inner.md", "# Inner\n[[diary]]\n");
		// Embeds that come round again, all of visible notes.
		gateway.notes.set("Projects/loop-a.md", "![[loop-b]]\n[[old]]\n");
		gateway.notes.set("Projects/loop-b.md", "![[loop-a]]\n");
		const render = (path: string, actor: AgentActor = READER) =>
			notes.facts.renderHtml(actor, path, gateway.notes.get(path)!);
		expect(await render("Projects/outer.md")).toEqual({ kind: "links-hidden" });
		expect(await render("Projects/middle.md")).toEqual({ kind: "links-hidden" });
		expect(await render("Projects/loop-a.md")).not.toEqual({ kind: "links-hidden" });
		// A key without lists has nothing hidden.
		expect(await render("Projects/outer.md", agentActor("other"))).not.toEqual({ kind: "links-hidden" });
		// Where embeds stay text (a plain folder's renderer), only the note's own links count, and no embed is read.
		const plain = await open();
		plain.gateway.notes.set("Projects/outer.md", "# Outer\n![[middle]]\n");
		plain.gateway.notes.set("Projects/middle.md", "# Middle\n[[diary]]\n");
		const read = vi.spyOn(plain.gateway, "read");
		const outer = plain.gateway.notes.get("Projects/outer.md")!;
		expect(await plain.notes.facts.renderHtml(READER, "Projects/outer.md", outer)).not.toEqual({
			kind: "links-hidden",
		});
		expect(read).not.toHaveBeenCalledWith("Projects/middle.md");
	});

	it("diffs a visible note only from and to its own revisions, never from a hidden note's text kept as a base", async () => {
		const { notes } = await open();
		// Someone else reads the hidden note, so its text is kept as a merge base (the store is shared by all notes).
		expect((await notes.read(agentActor("other"), "Private/diary.md")).kind).toBe("read");
		const hidden = revisionOf(VAULT["Private/diary.md"]);
		const query = { since: hidden, offset: 0 };
		// Answered as for a revision that is not kept: nothing confirms a guess of the hidden text.
		expect(await notes.changes(READER, "Projects/plan.md", query)).toEqual({ kind: "not-retained", revision: hidden });
		// The key's own read keeps the note's text as a base.
		expect((await notes.read(READER, "Projects/plan.md")).kind).toBe("read");
		const own = revisionOf(VAULT["Projects/plan.md"]);
		expect(await notes.changes(READER, "Projects/plan.md", { since: own, offset: 0, to: hidden })).toEqual({
			kind: "not-retained",
			revision: hidden,
		});
		// Its own revision it may diff from; a key without lists may diff from any kept revision.
		expect((await notes.changes(READER, "Projects/plan.md", { since: own, offset: 0 })).kind).toBe("diff");
		expect((await notes.changes(agentActor("other"), "Projects/plan.md", query)).kind).toBe("diff");
	});

	it("never merges, diffs or patches a key's stale write against a hidden note's text kept as a base", async () => {
		const { gateway, notes } = await open();
		expect((await notes.read(agentActor("other"), "Private/diary.md")).kind).toBe("read");
		const hidden = revisionOf(VAULT["Private/diary.md"]);
		const WRITER = agentActor("writer", "key:writer", undefined, scopeOf(LISTS, "writer"));
		// A merge from that base would tell the key the text was there (and write it into the note).
		const merged = await notes.write(
			writeRequest("Projects/plan.md", "# Diary\n#secret\n[[plan]]\nmore\n", {
				revision: hidden,
				merge: "auto",
				actor: WRITER,
			}),
		);
		expect(merged).toMatchObject({ kind: "refused", refusal: { reason: "stale" }, changes: null });
		expect(gateway.notes.get("Projects/plan.md")).toBe(VAULT["Projects/plan.md"]);
		// A stale patch is kept as it applies to the note now, never to the hidden text.
		const patched = await notes.write(
			writeRequest(
				"Projects/plan.md",
				{
					kind: "patch",
					apply: (text: string) =>
						text.startsWith("# Diary")
							? { ok: true, content: `${text}LEAK\n` }
							: { ok: false, reason: "target-not-found", detail: "" },
				} as never,
				{ revision: hidden, actor: WRITER },
			),
		);
		expect(patched).toMatchObject({ kind: "refused", changes: null });
		for (const [path, text] of gateway.notes) expect(`${path}: ${text}`).not.toContain("LEAK");
	});

	it("never tells a change feed about a hidden note", async () => {
		const { gateway, notes } = await open();
		const told: string[] = [];
		const stop = notes.onNoteChanged(
			() => READER,
			(change) => void told.push(change.path),
		);
		gateway.externalEdit("Private/diary.md", "changed\n");
		gateway.externalEdit("Projects/old.md", "changed\n");
		await new Promise((resolve) => setTimeout(resolve, 50));
		stop();
		expect(told).toContain("Projects/old.md");
		expect(told).not.toContain("Private/diary.md");
	});

	it("shows a note moved in from a hidden path only from its arrival: no hidden name, no text from before", async () => {
		const { notes } = await open();
		const writer = agentActor("writer", "key:writer");
		const diary = VAULT["Private/diary.md"];
		const hiddenEra = "# Diary\nPASSWORD 1234\n";
		await notes.write(writeRequest("Private/diary.md", hiddenEra, { basedOn: diary, actor: writer }));
		await notes.write(writeRequest("Private/diary.md", diary, { basedOn: hiddenEra, actor: writer }));
		const tag = (text: string) => ({ kind: "tags" as const, tags: [{ weak: false, opaque: revisionOf(text) }] });
		const moved = await notes.move({
			from: "Private/diary.md",
			to: "Projects/diary.md",
			actor: writer,
			ifMatch: tag(diary),
			overwrite: false,
			destinationIfMatch: { kind: "absent" },
		});
		expect(moved.kind).toBe("moved");
		expect((await notes.undo.history(writer, "Projects/diary.md", 0, 50))!.total).toBe(3);
		// A key that may read and change Projects/ (so restore and revert get past the write check).
		const READER = agentActor(
			"mover",
			"key:mover",
			undefined,
			scopeOf({ read: ["Projects/**"], write: ["Projects/**"] }),
		);
		const page = await notes.undo.history(READER, "Projects/diary.md", 0, 50);
		expect(JSON.stringify(page)).not.toContain("Private");
		for (const revision of [revisionOf(hiddenEra), revisionOf(VAULT["Private/diary.md"])]) {
			const detail = await notes.undo.historyRevision(READER, "Projects/diary.md", revision, 0);
			expect(JSON.stringify(detail)).not.toContain("PASSWORD");
		}
		expect(await notes.undo.historyRevision(READER, "Projects/diary.md", revisionOf(hiddenEra), 0)).toEqual({
			kind: "unknown",
		});
		const restored = await notes.undo.restore(READER, "Projects/diary.md", revisionOf(hiddenEra), tag(diary), {
			kind: "absent",
		});
		expect(restored).toEqual({ kind: "unknown" });
		// Undoing the move would name the hidden path: for this key there is no such write.
		const reverted = await notes.undo.revert(READER, "Projects/diary.md", undefined, tag(diary));
		expect(JSON.stringify(reverted)).not.toContain("Private");
		expect(reverted).toEqual({ kind: "unknown" });
	});

	it("lists no conflict or activity of a hidden note", async () => {
		const { notes } = await open();
		const writer = agentActor("writer", "key:writer");
		// Another key's stale write to the hidden note makes a conflict and a .bak; its write makes activity.
		await notes.write(
			writeRequest("Private/diary.md", "stale\n", { revision: revisionOf("not what it holds"), actor: writer }),
		);
		await notes.write(
			writeRequest("Private/deep/more.md", "new\n", { basedOn: VAULT["Private/deep/more.md"], actor: writer }),
		);
		expect(notes.listConflicts(writer).length).toBe(1);
		expect(notes.listConflicts(READER)).toEqual([]);
		const id = notes.listConflicts(writer)[0]!.id;
		expect(notes.conflict(READER, id)).toBeUndefined();
		expect(await notes.conflictMerge(READER, id, false)).toBeNull();
		expect(notes.undo.agentActivity(writer, 50).length).toBe(1);
		expect(notes.undo.agentActivity(READER, 50)).toEqual([]);
	});
});

describe("a note the key may not change is never changed", () => {
	it.each([
		["a read-only note", "Projects/old.md", "read-only"],
		["a hidden note", "Private/diary.md", "outside-read"],
		["a new note in a hidden folder", "Private/new.md", "outside-read"],
	])("refuses any write to %s with scope-forbidden naming the rule, and writes nothing", async (_what, path, why) => {
		const { gateway, notes } = await open();
		const before = snapshot(gateway);
		for (const change of ["replace", "append", "delete"] as const) {
			const operation = change === "delete" ? ({ kind: "delete" } as const) : ({ kind: change, body: "x\n" } as const);
			const outcome = await notes.write(
				writeRequest(path, operation, {
					...(path in VAULT ? { basedOn: VAULT[path as keyof typeof VAULT] } : {}),
					actor: READER,
				}),
			);
			expect(outcome).toMatchObject({
				kind: "refused",
				refusal: { reason: "scope-forbidden", why, key: "reader", path },
			});
		}
		expect(snapshot(gateway)).toEqual(before);
		expect(notes.listConflicts(PERSON)).toEqual([]);
	});

	it("names the glob that made the note read-only", async () => {
		const { notes } = await open();
		const outcome = await notes.write(
			writeRequest("Projects/old.md", "x\n", { basedOn: VAULT["Projects/old.md"], actor: READER }),
		);
		expect(outcome).toMatchObject({
			refusal: { why: "read-only", field: "read", pattern: "Projects/**", access: "read" },
		});
	});

	it("writes a note inside the write list", async () => {
		const { gateway, notes } = await open();
		expect(
			(
				await notes.write(
					writeRequest("Projects/plan.md", "new plan\n", { basedOn: VAULT["Projects/plan.md"], actor: READER }),
				)
			).kind,
		).toBe("written");
		expect(gateway.notes.get("Projects/plan.md")).toBe("new plan\n");
	});

	it("refuses moves and copies touching a note it may not change, and moves out of sight look missing", async () => {
		const { gateway, notes } = await open();
		const before = snapshot(gateway);
		const ifMatch = (text: string) => ({ kind: "tags" as const, tags: [{ weak: false, opaque: revisionOf(text) }] });
		const move = (from: string, to: string) =>
			notes.move({
				from,
				to,
				actor: READER,
				ifMatch: ifMatch(gateway.notes.get(from) ?? ""),
				overwrite: false,
				destinationIfMatch: { kind: "absent" },
			});
		expect(await move("Private/diary.md", "Projects/diary.md")).toEqual({ kind: "missing" });
		expect(await move("Projects/plan.md", "Private/plan.md")).toMatchObject({
			kind: "refused",
			side: "destination",
			refusal: { reason: "scope-forbidden", why: "outside-read" },
		});
		expect(await move("Projects/old.md", "Projects/plan2.md")).toMatchObject({
			kind: "refused",
			side: "source",
			refusal: { why: "read-only" },
		});
		expect(await move("Projects/plan.md", "Drafts/plan.md")).toMatchObject({
			kind: "refused",
			side: "destination",
			refusal: { why: "not-proposable" },
		});
		expect(
			await notes.copy({
				from: "Private/diary.md",
				to: "Projects/plan.md",
				actor: READER,
				ifMatch: { kind: "absent" },
				overwrite: false,
				destinationIfMatch: { kind: "absent" },
			}),
		).toEqual({ kind: "missing" });
		expect(
			await notes.copy({
				from: "Projects/old.md",
				to: "Projects/new.md",
				actor: READER,
				ifMatch: { kind: "absent" },
				overwrite: false,
				destinationIfMatch: { kind: "absent" },
			}),
		).toMatchObject({ kind: "refused", side: "destination", refusal: { why: "read-only" } });
		expect(snapshot(gateway)).toEqual(before);
	});

	it("refuses undo and revert of a note it may not change", async () => {
		const { gateway, notes } = await open();
		const other = agentActor("other", "key:other");
		const written = await notes.write(
			writeRequest("Projects/old.md", "changed by other\n", { basedOn: VAULT["Projects/old.md"], actor: other }),
		);
		expect(written.kind).toBe("written");
		const now = revisionOf("changed by other\n");
		const ifMatch = { kind: "tags" as const, tags: [{ weak: false, opaque: now }] };
		expect(
			await notes.undo.restore(READER, "Projects/old.md", revisionOf(VAULT["Projects/old.md"]), ifMatch, {
				kind: "absent",
			}),
		).toMatchObject({ kind: "refused", refusal: { reason: "scope-forbidden", why: "read-only" } });
		expect(await notes.undo.revert(READER, "Projects/old.md", undefined, ifMatch)).toMatchObject({
			kind: "write",
			outcome: { kind: "refused", refusal: { reason: "scope-forbidden" } },
		});
		expect(gateway.notes.get("Projects/old.md")).toBe("changed by other\n");
	});
});

describe("a note the key may only propose to", () => {
	it("goes to the proposal sink with the request as sent, and the note is not touched", async () => {
		const sink = new FakeSink();
		const { gateway, notes } = await open(sink);
		const request = writeRequest("Drafts/idea.md", "# Idea, better\n", {
			basedOn: VAULT["Drafts/idea.md"],
			actor: READER,
		});
		expect(await notes.write(request)).toEqual({
			kind: "proposed",
			id: "p-1",
			path: "Drafts/idea.md",
			backupPath: "Drafts/idea.md.proposal.bak.md",
		});
		expect(sink.received).toEqual([request]);
		expect(gateway.notes.get("Drafts/idea.md")).toBe(VAULT["Drafts/idea.md"]);
		// Appends, edits and patches carry content too; a new note in a propose folder is a proposal as well.
		expect(
			(await notes.write(writeRequest("Drafts/idea.md", { kind: "append", body: "more\n" }, { actor: READER }))).kind,
		).toBe("proposed");
		expect((await notes.write(writeRequest("Drafts/new.md", "new\n", { actor: READER }))).kind).toBe("proposed");
		expect(gateway.notes.has("Drafts/new.md")).toBe(false);
	});

	it("is refused, not written, when the host takes no proposals", async () => {
		const { gateway, notes } = await open(null);
		const outcome = await notes.write(
			writeRequest("Drafts/idea.md", "# Idea, better\n", { basedOn: VAULT["Drafts/idea.md"], actor: READER }),
		);
		expect(outcome).toMatchObject({
			kind: "refused",
			refusal: { reason: "scope-forbidden", why: "no-proposals", field: "propose", pattern: "Drafts/**" },
		});
		expect(gateway.notes.get("Drafts/idea.md")).toBe(VAULT["Drafts/idea.md"]);
	});

	it("refuses a delete, which a proposal cannot carry, and never calls the sink for it", async () => {
		const sink = new FakeSink();
		const { gateway, notes } = await open(sink);
		const outcome = await notes.write(
			writeRequest("Drafts/idea.md", { kind: "delete" }, { basedOn: VAULT["Drafts/idea.md"], actor: READER }),
		);
		expect(outcome).toMatchObject({ kind: "refused", refusal: { reason: "scope-forbidden", why: "not-proposable" } });
		expect(sink.received).toEqual([]);
		expect(gateway.notes.has("Drafts/idea.md")).toBe(true);
	});

	it("never goes to the sink for the person or an unscoped key", async () => {
		const sink = new FakeSink();
		const { notes } = await open(sink);
		expect(
			(await notes.write(writeRequest("Drafts/idea.md", "mine\n", { basedOn: VAULT["Drafts/idea.md"], actor: PERSON })))
				.kind,
		).toBe("written");
		expect(
			(await notes.write(writeRequest("Drafts/idea.md", "theirs\n", { basedOn: "mine\n", actor: agentActor("other") })))
				.kind,
		).toBe("written");
		expect(sink.received).toEqual([]);
	});
});

describe("commands and key scopes", () => {
	it("refuses commands to a key that may not change every note, even when the person allowed the key", async () => {
		const { notes } = await open();
		notes.settings().commandKeys.push("reader");
		expect(notes.commands.allowed(READER)).toBe(false);
		expect(notes.commands.allowed(agentActor("reader"))).toBe(true);
	});
});

describe("scopes, the backup folder and the disk", () => {
	it("lists the backup folder's mirror of a folder the key may see, and nothing of one it may not", async () => {
		const gateway = new MemoryGateway({
			"Projects/plan.md": "plan\n",
			"Backups/Projects/plan.20260101-000000.bak.md": "kept\n",
			"Backups/Private/diary.20260101-000000.bak.md": "SECRET\n",
		});
		const settings = { ...structuredClone(DEFAULT_SETTINGS), backupFolder: "Backups" };
		const guard = await openRevisionGuard({
			gateway,
			storage: new MemoryStorage(),
			settings: () => settings,
			configDir: ".obsidian",
			timers: nodeTimers,
		});
		const reader = agentActor("reader", "key:reader", undefined, scopeOf({ read: ["Projects/**"], write: [] }));
		expect((await guard.notes.listFolder(reader, ""))!.map((entry) => entry.path).sort()).toEqual([
			"Backups/",
			"Projects/",
		]);
		expect((await guard.notes.listFolder(reader, "Backups"))!.map((entry) => entry.path)).toEqual([
			"Backups/Projects/",
		]);
		expect(await guard.notes.listFolder(reader, "Backups/Private")).toBeNull();
		expect((await guard.notes.read(reader, "Backups/Projects/plan.20260101-000000.bak.md")).kind).toBe("read");
		expect(await guard.notes.read(reader, "Backups/Private/diary.20260101-000000.bak.md")).toEqual({ kind: "missing" });
	});

	it("matches without regard to case when the vault's disk ignores case, and only then", async () => {
		class FoldingGateway extends MemoryGateway {
			async caseInsensitive(): Promise<boolean> {
				return true;
			}
		}
		for (const [gateway, folds] of [
			[new FoldingGateway({ "Private/x.md": "x\n" }), true],
			[new MemoryGateway({ "Private/x.md": "x\n" }), false],
		] as const) {
			const settings = structuredClone(DEFAULT_SETTINGS);
			const guard = await openRevisionGuard({
				gateway,
				storage: new MemoryStorage(),
				settings: () => settings,
				configDir: ".obsidian",
				timers: nodeTimers,
			});
			const key = { name: "k", key: "k".repeat(43), created: "", read: ["**"], write: ["**"], propose: ["private/**"] };
			const compiled = guard.notes.keyScope(key);
			if (!compiled.ok) throw new Error(compiled.problem.message);
			const actor = agentActor("k", "key:k", undefined, compiled.scope);
			const outcome = await guard.notes.write(writeRequest("Private/x.md", "y\n", { basedOn: "x\n", actor }));
			// Folded, private/** matches Private/x.md: the change becomes a proposal (the host's own store takes it).
			expect(outcome.kind, `folds: ${folds}`).toBe(folds ? "proposed" : "written");
		}
	});
});
