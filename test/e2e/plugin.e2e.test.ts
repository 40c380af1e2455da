// @vitest-environment happy-dom
/**
 * Loads the BUILT main.js (run `npm run build` first; `npm test` does) against the obsidian stub, enables the
 * plugin as Obsidian would, and walks the guarded-write scenario over real HTTP.
 */
import { mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { App, Modal, Notice } from "../obsidian-stub";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listeningPort, loadBuiltPlugin, until, type LoadedPlugin } from "../helpers/built-plugin";
import { call } from "../helpers/http-client";

const KEY = "e2e-key-0123456789abcdef0123456789abcdef";

let dir: string;
let app: App;
let plugin: LoadedPlugin;
let port: number;
const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
	call(port, path, { ...options, headers: { Authorization: `Bearer ${KEY}`, ...options.headers } });

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-e2e-"));
	await writeFile(join(dir, "Plan.md"), "# Plan\n\n- first\n");
	app = new App(dir);
	plugin = loadBuiltPlugin(app);
	plugin.data = { port: 0, keys: [{ name: "e2e-agent", key: KEY, created: "2026-11-21T00:00:00Z" }] };
	Notice.shown.length = 0;
	await plugin.onload();
	app.workspace.triggerLayoutReady();
	port = await listeningPort(plugin);
});

afterEach(async () => {
	plugin.unload();
	await plugin.whenSettled();
	await rm(dir, { recursive: true, force: true });
});

describe("the built plugin", () => {
	it("refuses an agent's stale write, keeps it as .bak, and accepts the fresh one", async () => {
		// 1. The agent reads.
		const read = await api("/vault/Plan.md");
		expect(read.status).toBe(200);
		const staleTag = read.headers.etag as string;

		// 2. The person edits the note in Obsidian.
		const file = app.vault.getFileByPath("Plan.md")!;
		await app.vault.modify(file, "# Plan\n\n- first\n- added by the person\n");

		// 3. The agent writes its stale copy.
		const agentText = "# Plan\n\n- first\n- the agent's idea 🤖\r\n";
		const stale = await api("/vault/Plan.md", { method: "PUT", body: agentText, headers: { "If-Match": staleTag } });
		expect(stale.status).toBe(412);
		expect(stale.headers["content-type"]).toContain("application/problem+json");
		const problem = stale.json<{ backupPath: string; currentRevision: string; conflictId: string }>();
		expect(problem.backupPath).toMatch(/^Plan\.\d{8}-\d{6}\.bak\.md$/);

		// 4. The .bak holds exactly what was sent, and the person's edit survived.
		expect(await readFile(join(dir, problem.backupPath))).toEqual(Buffer.from(agentText, "utf8"));
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe("# Plan\n\n- first\n- added by the person\n");
		expect(
			Notice.shown.some((notice) => notice.message.includes("Plan.md") && notice.message.includes("e2e-agent")),
		).toBe(true);
		expect(plugin.statusBarItems[0]!.textContent).toBe("1 conflict");

		// 5. A fresh write with the current ETag succeeds.
		const fresh = await api("/vault/Plan.md", {
			method: "PUT",
			body: "# Plan\n\n- merged\n",
			headers: { "If-Match": `"${problem.currentRevision}"` },
		});
		expect(fresh.status).toBe(204);
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe("# Plan\n\n- merged\n");
	});

	it("counts unsaved editor text as the current note", async () => {
		const read = await api("/vault/Plan.md");
		const editor = app.openEditor("Plan.md");
		editor.editor.setValue("# Plan\n\n- typed but not saved yet\n");
		const put = await api("/vault/Plan.md", {
			method: "PUT",
			body: "agent\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(put.status).toBe(412);
		// The typing stays in the editor (nothing saved it early, nothing overwrote it), and its autosave keeps it.
		expect(editor.editor.getValue()).toBe("# Plan\n\n- typed but not saved yet\n");
		await app.clock.advance(2_000);
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe("# Plan\n\n- typed but not saved yet\n");
	});

	it("opens the merge modal for a stale write; resolving it saves the note and tells the agent", async () => {
		plugin.settings.conflictAction = "open";
		await app.vault.create("Tasks.md", "# Tasks\n\n- [ ] write\n- [ ] review\n- [ ] ship\n");

		// 1. A stale PUT opens the modal.
		const read = await api("/vault/Tasks.md");
		await app.vault.modify(
			app.vault.getFileByPath("Tasks.md")!,
			"# Tasks\n\n- [x] write\n- [ ] review\n- [ ] ship (you)\n",
		);
		Modal.opened.length = 0;
		const stale = await api("/vault/Tasks.md", {
			method: "PUT",
			body: "# Tasks\n\n- [ ] write\n- [ ] review (agent)\n- [ ] ship (agent)\n- [ ] celebrate\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(stale.status).toBe(412);
		const { conflictId } = stale.json<{ conflictId: string }>();
		const modal = await until(
			() => Modal.opened.find((candidate) => candidate.modalEl.classList.contains("revision-guard-merge-modal")),
			"the merge modal",
		);

		// 2. Resolve it: the toggle and the review line merge by themselves; the one conflict (ship) goes to the agent.
		// By accessible name: Save shows its shortcut on the button, named by its word alone.
		const button = (label: string) =>
			[...modal.contentEl.querySelectorAll("button")].find(
				(candidate) => (candidate.getAttribute("aria-label") ?? candidate.textContent) === label,
			);
		const takeAgents = await until(() => button("Take the agent's"), "the conflict's buttons");
		takeAgents.click();
		button("Save")!.click();
		await until(() => !modal.isOpen, "the modal to close after saving");

		// 3. The note holds the resolved text: the person's checkbox, the agent's lines and its new item.
		expect(await readFile(join(dir, "Tasks.md"), "utf8")).toBe(
			"# Tasks\n\n- [x] write\n- [ ] review (agent)\n- [ ] ship (agent)\n- [ ] celebrate\n",
		);

		// 4. The agent learns the outcome.
		const record = (await api(`/conflicts/${conflictId}`)).json();
		expect(record).toMatchObject({ status: "resolved", agentTaken: "whole", resolvedBy: "you" });
	});

	it("lets an agent and the person edit one open note: typing is never overwritten, acknowledged writes stay", async () => {
		const view = app.openEditor("Plan.md");
		view.type("- typed first\n", view.editor.getValue().length);
		// The agent reads what the person sees (the typing included) and adds a line.
		const read = await api("/vault/Plan.md");
		expect(read.text).toBe("# Plan\n\n- first\n- typed first\n");
		const put = await api("/vault/Plan.md", {
			method: "PUT",
			body: `${read.text}- by the agent\n`,
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(put.status).toBe(204);
		// The person types again; an agent write based on the older read is refused and kept.
		view.type("- typed second\n", view.editor.getValue().length);
		const stale = await api("/vault/Plan.md", {
			method: "PUT",
			body: "# Plan\n\nthe agent's old copy\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(stale.status).toBe(412);
		await app.clock.advance(2_000);
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe(
			"# Plan\n\n- first\n- typed first\n- by the agent\n- typed second\n",
		);
	});

	it("folds another program's save into a note with unsaved typing, and keeps one that overlaps the typing as .bak with a notice", async () => {
		const view = app.openEditor("Plan.md");
		view.type("typed ", "# Plan\n\n- ".length);
		// Another program (an agent's own file tool) saves the note while the autosave is pending.
		app.outside.write("Plan.md", "# Plan for the week\n\n- first\n");
		await app.clock.advance(500);
		await until(
			() => view.editor.getValue() === "# Plan for the week\n\n- typed first\n",
			"the save folded into the editor",
		);
		await app.clock.advance(2_000);
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe("# Plan for the week\n\n- typed first\n");

		// Now it saves over the line the person is typing in: its text is kept, and the person is told.
		view.type("more ");
		app.outside.write("Plan.md", "# Plan for the week\n\n- first, by the program\n");
		await app.clock.advance(500);
		const notice = await until(
			() => Notice.shown.find((shown) => shown.fragment?.textContent?.includes("Another program saved")),
			"the notice",
		);
		const backupPath = /kept in "([^"]+)"/.exec(notice.fragment!.textContent)![1]!;
		expect(await readFile(join(dir, backupPath), "utf8")).toBe("# Plan for the week\n\n- first, by the program\n");
		await app.clock.advance(2_000);
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe("# Plan for the week\n\n- typed more first\n");
		const conflicts = (await api("/conflicts")).json<{
			conflicts: { reason: string; source?: string; agent: string }[];
		}>();
		expect(conflicts.conflicts).toEqual([
			expect.objectContaining({ reason: "outside-over-typing", source: "outside", agent: "another program" }),
		]);
	});

	it("generates a key on first run and answers GET / without one", async () => {
		const fresh = new App(await mkdtemp(join(tmpdir(), "rg-e2e-key-")));
		const other = loadBuiltPlugin(fresh);
		other.data = { port: 0 };
		await other.onload();
		fresh.workspace.triggerLayoutReady();
		const status = await until(() => /127\.0\.0\.1:(\d+)/.exec(other.serverStatus()), "second server");
		// The key itself is in Obsidian's secret storage; data.json names it.
		const saved = other.data as { keys: { secretId: string }[] };
		expect(fresh.secretStorage!.getSecret(saved.keys[0]!.secretId)).toMatch(/^[A-Za-z0-9_-]{43}$/);
		const root = await call(Number(status[1]), "/");
		expect(root.json()).toMatchObject({ service: "Revision Guard", authenticated: false });
		other.unload();
		await other.whenSettled();
	});
});
