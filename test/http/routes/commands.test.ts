/**
 * GET /commands/, POST /commands/{id}/ and POST /open/{path}: Obsidian's commands and panes. Commands are off for
 * every key until the person allows it; an allowed command's changes are credited to the key (history, activity,
 * undo), and the person's unsaved typing is saved first and never lost. Headless: 501 obsidian-only.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changeTagOf } from "../../../src/core/revision-tokens";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, visibleFiles, writeVaultFile } from "../../helpers/vault-files";
import type { App } from "../../obsidian-stub";
import { OTHER_KEY, STACKS, type Stack } from "../stacks";

forbidServerErrors(["obsidian-only"]);

function expectProblem(res: CallResult, status: number, name: string): { detail: string } {
	expect(res.status, res.text).toBe(status);
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status });
	return res.json();
}

/** A command as a plugin would add one: it changes notes through Obsidian's vault, not through the guarded writer. */
function addCommand(
	app: App,
	id: string,
	callback: () => unknown,
	checkCallback?: (checking: boolean) => boolean,
): void {
	app.commands.addCommand({
		id,
		name: `Test: ${id.slice(id.indexOf(":") + 1)}`,
		callback,
		...(checkCallback ? { checkCallback } : {}),
	});
}

let dir: string;
let s: Stack;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-commands-"));
	await writeVaultFile(dir, "Notes/Plan.md", "# Plan\n- one\n");
	await writeVaultFile(dir, "Notes/Other.md", "other\n");
});
afterEach(async () => {
	await s.close();
	await rm(dir, { recursive: true, force: true });
});

describe("commands and panes headless", () => {
	beforeEach(async () => {
		s = await STACKS["node filesystem"](dir, { settings: { commandKeys: ["test-agent"] } });
	});

	it("answers 501 obsidian-only to listing, running and opening, and changes nothing", async () => {
		const listed = expectProblem(await s.api("/commands/"), 501, "obsidian-only");
		expect(listed.detail).toContain("plugin inside Obsidian");
		// LRA clients show `message` (title, the first step, the detail): it says "plain folder" once.
		expect(String((listed as { message?: unknown }).message).split("plain folder")).toHaveLength(2);
		expectProblem(await s.api("/commands"), 501, "obsidian-only");
		expectProblem(await s.api("/commands/editor:save-file/", { method: "POST" }), 501, "obsidian-only");
		expectProblem(await s.api("/open/Notes/Plan.md", { method: "POST" }), 501, "obsidian-only");
		expect(await visibleFiles(dir)).toEqual(["Notes/Other.md", "Notes/Plan.md"]);
	});
});

describe("commands in Obsidian", () => {
	const start = async (commandKeys: string[] = []) => {
		s = await STACKS.obsidian(dir, { settings: { commandKeys } });
	};
	const modifyPlan = (app: App, text: string) => () =>
		app.vault.modify(app.vault.getFileByPath("Notes/Plan.md")!, text);

	it("lists Obsidian's commands for any key, saying whether this key may run them", async () => {
		await start(["other-agent"]);
		addCommand(s.app!, "test:tidy", () => undefined);
		const res = await s.api("/commands/");
		expect(res.status).toBe(200);
		expect(res.json()).toEqual({ commands: [{ id: "test:tidy", name: "Test: tidy" }], allowed: false });
		expect((await s.api("/commands", { headers: { Authorization: `Bearer ${OTHER_KEY}` } })).json()).toMatchObject({
			allowed: true,
		});
	});

	it("refuses to run a command for a key the person has not allowed (the default), running nothing", async () => {
		await start();
		addCommand(s.app!, "test:rewrite", modifyPlan(s.app!, "rewritten\n"));
		const problem = expectProblem(
			await s.api("/commands/test:rewrite/", { method: "POST" }),
			403,
			"commands-not-allowed",
		);
		expect(problem.detail).toContain("Settings → Revision Guard → Obsidian commands");
		expect(s.app!.commands.executed).toEqual([]);
		expect(await s.file("Notes/Plan.md")).toBe("# Plan\n- one\n");
	});

	it("answers an unknown id 404, and one Obsidian will not run now 409", async () => {
		await start(["test-agent"]);
		addCommand(
			s.app!,
			"test:needs-editor",
			() => undefined,
			() => false,
		);
		expectProblem(await s.api("/commands/no-such-command/", { method: "POST" }), 404, "command-not-found");
		expectProblem(await s.api("/commands/test:needs-editor", { method: "POST" }), 409, "command-not-run");
	});

	it("runs an allowed key's command (204) and credits what it changed to the key, undoable", async () => {
		await start(["test-agent"]);
		addCommand(s.app!, "test:rewrite", modifyPlan(s.app!, "# Plan\n- rewritten\n"));
		// The revision before the command is known to history (another program's change, its text kept by a read).
		await s.api("/vault/Notes/Plan.md");
		const res = await s.api("/commands/test:rewrite/", { method: "POST" });
		expect(res.status, res.text).toBe(204);
		expect(await s.file("Notes/Plan.md")).toBe("# Plan\n- rewritten\n");
		const history = (await s.api("/history/Notes/Plan.md")).json<{ revisions: { by: string; revision: string }[] }>();
		expect(history.revisions[0]).toMatchObject({
			by: "test-agent",
			revision: changeTagOf(sha256Token("# Plan\n- rewritten\n")),
		});
		const activity = (await s.api("/activity")).json<{
			writes: { path: string; agent: string; revertible: boolean }[];
		}>();
		expect(activity.writes[0]).toMatchObject({ path: "Notes/Plan.md", agent: "test-agent", revertible: true });
		const now = await s.api("/vault/Notes/Plan.md");
		const reverted = await s.api("/history/Notes/Plan.md/revert", {
			method: "POST",
			headers: { "If-Match": now.headers.etag as string },
		});
		expect(reverted.status, reverted.text).toBe(204);
		expect(await s.file("Notes/Plan.md")).toBe("# Plan\n- one\n");
	});

	it("lists the changed notes with Prefer: return=representation, with change tags and never a revision", async () => {
		await start(["test-agent"]);
		const app = s.app!;
		addCommand(app, "test:shuffle", async () => {
			await app.vault.create("Notes/New.md", "made by a command\n");
			await app.vault.modify(app.vault.getFileByPath("Notes/Other.md")!, "other, changed\n");
			await app.fileManager.trashFile(app.vault.getFileByPath("Notes/Plan.md")!);
		});
		await s.api("/vault/Notes/Plan.md");
		const res = await s.api("/commands/test:shuffle/", {
			method: "POST",
			headers: { Prefer: "return=representation" },
		});
		expect(res.status, res.text).toBe(200);
		const changed = res.json<{
			id: string;
			changed: { path: string; change: string; undoable: boolean; changeTag?: string }[];
		}>();
		expect(changed.id).toBe("test:shuffle");
		expect(changed.changed.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
			{
				path: "Notes/New.md",
				change: "created",
				undoable: true,
				changeTag: changeTagOf(sha256Token("made by a command\n")),
			},
			// Never read by anyone, and not open: its text before is not known, so the change is credited but not undoable.
			{
				path: "Notes/Other.md",
				change: "modified",
				undoable: false,
				changeTag: changeTagOf(sha256Token("other, changed\n")),
			},
			{ path: "Notes/Plan.md", change: "deleted", undoable: true },
		]);
		expect(res.text).not.toContain(sha256Token("made by a command\n"));
		const activity = (await s.api("/activity")).json<{ writes: { path: string; agent: string; deleted: boolean }[] }>();
		expect(
			activity.writes.map((write) => `${write.path} ${write.agent}${write.deleted ? " deleted" : ""}`).sort(),
		).toEqual(["Notes/New.md test-agent", "Notes/Other.md test-agent", "Notes/Plan.md test-agent deleted"]);
	});

	it("saves the person's unsaved typing first, as theirs, and credits only the command's change to the key", async () => {
		await start(["test-agent"]);
		const app = s.app!;
		const view = app.openEditor("Notes/Plan.md");
		view.type("- typed\n", "# Plan\n- one\n".length);
		// A command that edits the active editor's text, as editor commands do.
		addCommand(app, "test:shout", () => view.editor.setValue(view.editor.getValue().toUpperCase()));
		const res = await s.api("/commands/test:shout/", { method: "POST" });
		expect(res.status, res.text).toBe(204);
		expect(await s.file("Notes/Plan.md")).toBe("# PLAN\n- ONE\n- TYPED\n");
		const history = (await s.api("/history/Notes/Plan.md")).json<{ revisions: { by: string; revision: string }[] }>();
		expect(history.revisions.slice(0, 2)).toMatchObject([
			{ by: "test-agent", revision: changeTagOf(sha256Token("# PLAN\n- ONE\n- TYPED\n")) },
			{ by: "you", revision: changeTagOf(sha256Token("# Plan\n- one\n- typed\n")) },
		]);
		// Undo takes the command's change back to what the person had typed.
		const now = await s.api("/vault/Notes/Plan.md");
		expect(
			(
				await s.api("/history/Notes/Plan.md/revert", {
					method: "POST",
					headers: { "If-Match": now.headers.etag as string },
				})
			).status,
		).toBe(204);
		expect(view.editor.getValue()).toBe("# Plan\n- one\n- typed\n");
	});

	it("keeps the person's typing when a command rewrites the note's file while they type", async () => {
		await start(["test-agent"]);
		const app = s.app!;
		const view = app.openEditor("Notes/Plan.md");
		view.type("- typed\n", "# Plan\n- one\n".length);
		addCommand(app, "test:rewrite", () =>
			app.vault.process(app.vault.getFileByPath("Notes/Plan.md")!, (text) => `${text}- by command\n`),
		);
		expect((await s.api("/commands/test:rewrite/", { method: "POST" })).status).toBe(204);
		await app.clock.runAll();
		expect(view.editor.getValue()).toBe("# Plan\n- one\n- typed\n- by command\n");
		expect(await s.file("Notes/Plan.md")).toBe("# Plan\n- one\n- typed\n- by command\n");
	});
});

describe("commands in Obsidian with a clock that stands still", () => {
	it("still ends a run once the vault is quiet (the wait is counted in timer turns, not read from the clock)", async () => {
		s = await STACKS.obsidian(dir, { settings: { commandKeys: ["test-agent"] }, now: () => Date.UTC(2026, 2, 5) });
		const app = s.app!;
		addCommand(app, "test:rewrite", () => app.vault.modify(app.vault.getFileByPath("Notes/Plan.md")!, "rewritten\n"));
		expect((await s.api("/commands/test:rewrite/", { method: "POST" })).status).toBe(204);
		expect(await s.file("Notes/Plan.md")).toBe("rewritten\n");
	});

	it("answers a command that throws part way as run, crediting what it changed before failing", async () => {
		s = await STACKS.obsidian(dir, { settings: { commandKeys: ["test-agent"] } });
		const app = s.app!;
		addCommand(app, "test:fails", () => {
			void app.vault.modify(app.vault.getFileByPath("Notes/Plan.md")!, "half done\n");
			throw new Error("the command's own bug");
		});
		const res = await s.api("/commands/test:fails/", { method: "POST", headers: { Prefer: "return=representation" } });
		expect(res.status, res.text).toBe(200);
		expect(res.json()).toMatchObject({ changed: [{ path: "Notes/Plan.md", change: "modified" }] });
		expect((await s.api("/history/Notes/Plan.md")).json<{ revisions: { by: string }[] }>().revisions[0]!.by).toBe(
			"test-agent",
		);
	});
});

describe("POST /open/{path} in Obsidian", () => {
	beforeEach(async () => {
		s = await STACKS.obsidian(dir);
	});

	it("opens an existing note (a new tab with newLeaf=true) for any key; it is not a write", async () => {
		const res = await s.api("/open/Notes/Plan.md", { method: "POST" });
		expect(res.status, res.text).toBe(200);
		expect(res.json()).toEqual({ path: "Notes/Plan.md", opened: true });
		expect((await s.api("/open/Notes/Other.md?newLeaf=true", { method: "POST" })).status).toBe(200);
		expect(s.app!.workspace.opened).toEqual(["Notes/Plan.md", "Notes/Other.md"]);
		expect(s.app!.workspace.openedIn).toEqual(["current", "new"]);
	});

	it("never creates a note: a missing one is 404, and paths it does not serve are refused", async () => {
		expectProblem(await s.api("/open/Notes/Missing.md", { method: "POST" }), 404, "note-not-found");
		expectProblem(await s.api("/open/.obsidian/app.json", { method: "POST" }), 400, "invalid-path");
		expect(s.app!.workspace.opened).toEqual([]);
		expect(await visibleFiles(dir)).toEqual(["Notes/Other.md", "Notes/Plan.md"]);
	});
});
