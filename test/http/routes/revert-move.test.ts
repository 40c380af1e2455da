/**
 * An agent's move in history and activity, and its undo (POST /history/{path}/revert on the note where the move left
 * it), over both gateways; inside Obsidian, the links the move rewrote in other notes are that key's writes, undone
 * with it.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../stacks";

forbidServerErrors();

const PLAN = "# Plan\n- one\n";
const INDEX = "See [[Plan]] and [it](Projects/Plan.md).\n";

interface Activity {
	writes: { path: string; agent: string; movedFrom: string | null; revertible: boolean; deleted: boolean }[];
}

function expectProblem(res: CallResult, status: number, name: string): void {
	expect(res.status, res.text).toBe(status);
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status });
}

let dir: string;
let s: Stack;
async function start(name: keyof typeof STACKS, files: Record<string, string>, settings = {}): Promise<void> {
	dir = await mkdtemp(join(tmpdir(), "rg-revert-move-"));
	for (const [path, content] of Object.entries(files)) await writeVaultFile(dir, path, content);
	s = await STACKS[name](dir, { settings });
}
afterEach(async () => {
	await s.close();
	await rm(dir, { recursive: true, force: true });
});

const etagOf = async (path: string) => (await s.api(`/vault/${path}`)).headers.etag as string;
const move = async (from: string, to: string, headers: Record<string, string> = {}) => {
	await etagOf(from);
	const res = await s.api(`/vault/${from}`, { method: "MOVE", headers: { Destination: to, ...headers } });
	expect(res.status, res.text).toBe(204);
};
const revert = async (path: string) =>
	s.api(`/history/${path}/revert`, { method: "POST", headers: { "If-Match": await etagOf(path) } });

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("undoing a move over %s", (name) => {
	beforeEach(() => start(name, { "Projects/Plan.md": PLAN, "Other.md": "other\n" }));

	it("lists the move in activity (movedFrom, revertible) and moves the note back on revert", async () => {
		await move("Projects/Plan.md", "Archive/Plan.md");
		const activity = (await s.api("/activity")).json<Activity>();
		expect(activity.writes[0]).toMatchObject({
			path: "Archive/Plan.md",
			agent: "test-agent",
			movedFrom: "Projects/Plan.md",
			revertible: true,
		});
		const res = await revert("Archive/Plan.md");
		expect(res.status, res.text).toBe(200);
		expect(res.json()).toMatchObject({
			path: "Projects/Plan.md",
			movedFrom: "Archive/Plan.md",
			links: [],
			replacedNote: null,
		});
		expect(res.headers["content-location"]).toBe("Projects/Plan.md");
		expect(await s.file("Projects/Plan.md")).toBe(PLAN);
		expect(await s.file("Archive/Plan.md")).toBeNull();
		// The undo is a move too, credited to who undid it, and the note kept its whole history.
		const entries = s.guard.history.entries("Projects/Plan.md");
		expect(entries.filter((entry) => entry.movedFrom !== undefined).map((entry) => entry.movedFrom)).toEqual([
			"Projects/Plan.md",
			"Archive/Plan.md",
		]);
	});

	it("never moves back over a note created at the old path since (409), and changes nothing", async () => {
		await move("Projects/Plan.md", "Archive/Plan.md");
		await s.edit("Projects/Plan.md", "a new note\n");
		await expect.poll(async () => (await s.api("/vault/Projects/Plan.md")).status).toBe(200);
		expectProblem(await revert("Archive/Plan.md"), 409, "destination-exists");
		expect(await s.file("Projects/Plan.md")).toBe("a new note\n");
		expect(await s.file("Archive/Plan.md")).toBe(PLAN);
	});

	it("refuses a revert whose If-Match is not the note now (412), and moves nothing", async () => {
		await move("Projects/Plan.md", "Archive/Plan.md");
		const stale = await etagOf("Archive/Plan.md");
		await s.edit("Archive/Plan.md", PLAN + "- two\n");
		await expect.poll(async () => await etagOf("Archive/Plan.md")).not.toBe(stale);
		expectProblem(
			await s.api("/history/Archive/Plan.md/revert", { method: "POST", headers: { "If-Match": stale } }),
			412,
			"history-stale",
		);
		expect(await s.file("Archive/Plan.md")).toBe(PLAN + "- two\n");
	});

	it("brings back the note a move replaced at its destination", async () => {
		await etagOf("Other.md");
		await move("Projects/Plan.md", "Other.md", { "Allow-Overwrite": "true" });
		expect(await s.file("Other.md")).toBe(PLAN);
		const res = await revert("Other.md");
		expect(res.status, res.text).toBe(200);
		expect(res.json()).toMatchObject({ replacedNote: "restored" });
		expect(await s.file("Other.md")).toBe("other\n");
		expect(await s.file("Projects/Plan.md")).toBe(PLAN);
	});
});

describe("links Obsidian rewrites for a move", () => {
	it("are the mover's writes, in history and activity as one change, and are put back by the undo", async () => {
		await start("obsidian", { "Projects/Plan.md": PLAN, "Index.md": INDEX });
		await move("Projects/Plan.md", "Projects/Roadmap.md");
		const rewritten = "See [[Roadmap]] and [it](Projects/Roadmap.md).\n";
		expect(await s.file("Index.md")).toBe(rewritten);
		const index = s.guard.history.latest("Index.md")!;
		const moved = s.guard.history.latest("Projects/Roadmap.md")!;
		expect(index).toMatchObject({
			revision: sha256Token(rewritten),
			replaced: sha256Token(INDEX),
			source: { kind: "agent", agent: "test-agent" },
		});
		expect(index.change).toBeDefined();
		expect(index.change).toBe(moved.change);
		const activity = (await s.api("/activity")).json<Activity>();
		expect(activity.writes.map((write) => write.path).sort()).toEqual(["Index.md", "Projects/Roadmap.md"]);

		const res = await revert("Projects/Roadmap.md");
		expect(res.status, res.text).toBe(200);
		expect(await s.file("Projects/Plan.md")).toBe(PLAN);
		expect(await s.file("Index.md")).toBe(INDEX);
		expect(res.json<{ links: { path: string; result: string }[] }>().links).toEqual([
			{ path: "Index.md", result: expect.stringMatching(/^(restored|already)$/) },
		]);
	});

	it("credits the rewrite to the mover even when Obsidian's own modify event reached history first", async () => {
		await start("obsidian", { "Projects/Plan.md": PLAN, "Index.md": INDEX });
		const renameFile = s.app!.fileManager.renameFile.bind(s.app!.fileManager);
		vi.spyOn(s.app!.fileManager, "renameFile").mockImplementation(async (file, path) => {
			await renameFile(file, path);
			// The tracker takes in Obsidian's modify events before the move is answered.
			await new Promise((resolve) => setTimeout(resolve, 60));
			await s.guard.tracker.flush();
			expect(s.guard.history.latest("Index.md")?.source.kind).toBe("user");
		});
		await move("Projects/Plan.md", "Projects/Roadmap.md");
		const index = s.guard.history.latest("Index.md")!;
		expect(index).toMatchObject({
			source: { kind: "agent", agent: "test-agent" },
			replaced: sha256Token(INDEX),
			change: s.guard.history.latest("Projects/Roadmap.md")!.change,
		});
	});

	it("leaves a rewritten note that changed since as it is, and says so", async () => {
		await start("obsidian", { "Projects/Plan.md": PLAN, "Index.md": INDEX });
		// Links are left alone on the move back, so only the recorded rewrite could put Index.md back.
		await move("Projects/Plan.md", "Projects/Roadmap.md");
		s.app!.vault.setConfig("alwaysUpdateLinks", false);
		await s.edit("Index.md", "See [[Roadmap]] and [it](Projects/Roadmap.md).\nThe person's line.\n");
		const res = await revert("Projects/Roadmap.md");
		expect(res.status, res.text).toBe(200);
		expect(res.json<{ links: unknown[]; detail: string }>()).toMatchObject({
			links: [{ path: "Index.md", result: "changed" }],
			detail: expect.stringContaining("Index.md"),
		});
		expect(await s.file("Index.md")).toBe("See [[Roadmap]] and [it](Projects/Roadmap.md).\nThe person's line.\n");
		expect(await s.file("Projects/Plan.md")).toBe(PLAN);
	});

	it("puts back a rewrite Obsidian does not redo itself (links not updated on the move back)", async () => {
		await start("obsidian", { "Projects/Plan.md": PLAN, "Index.md": INDEX });
		await move("Projects/Plan.md", "Projects/Roadmap.md");
		s.app!.vault.setConfig("alwaysUpdateLinks", false);
		const res = await revert("Projects/Roadmap.md");
		expect(res.json()).toMatchObject({ links: [{ path: "Index.md", result: "restored" }] });
		expect(await s.file("Index.md")).toBe(INDEX);
	});

	it("rewrites nothing when the person turned link updates off", async () => {
		await start("obsidian", { "Projects/Plan.md": PLAN, "Index.md": INDEX });
		s.app!.vault.setConfig("alwaysUpdateLinks", false);
		await move("Projects/Plan.md", "Projects/Roadmap.md");
		expect(await s.file("Index.md")).toBe(INDEX);
		expect(s.guard.history.latest("Index.md")?.source.kind).not.toBe("agent");
	});
});
