/**
 * The guarded-write contract, run against the real HTTP server over BOTH gateways: the Node folder (headless)
 * and the Obsidian gateway on the obsidian stub. Whatever differs between them must not change these outcomes.
 */
import { readFile, rename, writeFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { revisionOf } from "../../src/core/revision";
import type { RevisionGuard } from "../../src/host/revision-guard";
import { startHeadless } from "../helpers/headless-harness";
import { startObsidian } from "../helpers/obsidian-harness";
import type { call, CallOptions } from "../helpers/http-client";

/** Resolves once every note's latest recorded revision is the hash of its content on disk. */
async function caughtUp(guard: RevisionGuard, dir: string): Promise<void> {
	await vi.waitFor(
		async () => {
			await guard.tracker.flush();
			for (const path of guard.history.trackedPaths()) {
				const content = await readFile(join(dir, path), "utf8").catch(() => null);
				if (content !== null) expect(guard.history.latest(path)?.revision).toBe(revisionOf(content));
			}
		},
		{ timeout: 5000, interval: 30 },
	);
}

interface Subject {
	dir: string;
	api(path: string, options?: CallOptions): ReturnType<typeof call>;
	/** A person's (or another program's) edit, the way it arrives with this gateway. */
	edit(path: string, content: string): Promise<void>;
	move(from: string, to: string): Promise<void>;
	history(path: string): readonly { revision: string; source: { kind: string; agent?: string } }[];
	settle(): Promise<void>;
	close(): Promise<void>;
}

const subjects: Record<string, (files: Record<string, string>) => Promise<Subject>> = {
	"node filesystem": async (files) => {
		const h = await startHeadless();
		for (const [path, content] of Object.entries(files)) await writeFile(join(h.dir, path), content);
		return {
			dir: h.dir,
			api: h.api,
			edit: (path, content) => writeFile(join(h.dir, path), content),
			move: (from, to) => rename(join(h.dir, from), join(h.dir, to)),
			history: (path) => h.guard.history.entries(path),
			// A folder watcher reports edits some time after they land; wait until history has caught up with the files.
			settle: () => caughtUp(h.guard, h.dir),
			close: h.close,
		};
	},
	obsidian: async (files) => {
		const h = await startObsidian();
		for (const [path, content] of Object.entries(files)) await h.app.vault.create(path, content);
		return {
			dir: h.dir,
			api: h.api,
			edit: (path, content) => h.app.vault.modify(h.app.vault.getFileByPath(path)!, content),
			move: (from, to) => h.app.vault.rename(h.app.vault.getFileByPath(from)!, to),
			history: (path) => h.guard.history.entries(path),
			settle: () => caughtUp(h.guard, h.dir),
			close: h.close,
		};
	},
};

describe.each(Object.keys(subjects))("over the %s gateway", (name) => {
	let s: Subject;
	beforeEach(async () => {
		s = await subjects[name]!({ "Note.md": "line one\n" });
	});
	afterEach(async () => {
		await s.close();
	});

	it("walks read → outside edit → stale write refused with .bak → fresh write accepted", async () => {
		const read = await s.api("/vault/Note.md");
		await s.edit("Note.md", "line one\nline two from the person\n");
		const stale = await s.api("/vault/Note.md", {
			method: "PUT",
			body: "agent copy\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(stale.status).toBe(412);
		const problem = stale.json<{ backupPath: string; currentRevision: string; changes: string }>();
		expect(await readFile(join(s.dir, problem.backupPath), "utf8")).toBe("agent copy\n");
		expect(problem.changes).toContain("+line two from the person");
		const fresh = await s.api("/vault/Note.md", {
			method: "PUT",
			body: "merged\n",
			headers: { "If-Match": `"${problem.currentRevision}"` },
		});
		expect(fresh.status).toBe(204);
		expect(await readFile(join(s.dir, "Note.md"), "utf8")).toBe("merged\n");
	});

	it("credits the agent for its own write and records no spurious revision for it", async () => {
		const read = await s.api("/vault/Note.md");
		const put = await s.api("/vault/Note.md", {
			method: "PUT",
			body: "by the agent\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(put.status).toBe(204);
		await s.settle();
		const history = s.history("Note.md");
		const written = history.filter((entry) => `"${entry.revision}"` === put.headers.etag);
		expect(written).toHaveLength(1);
		expect(written[0]!.source).toEqual({ kind: "agent", agent: "test-agent" });
		expect(history[history.length - 1]!.revision).toBe(written[0]!.revision);
	});

	it("records a burst of outside edits as revisions without losing the last one", async () => {
		await s.api("/vault/Note.md");
		for (let i = 0; i < 10; i++) await s.edit("Note.md", `edit ${i}\n`);
		await s.settle();
		const history = s.history("Note.md");
		const last = history[history.length - 1]!;
		const current = await s.api("/vault/Note.md");
		expect(`"${last.revision}"`).toBe(current.headers.etag);
		// Coalescing means far fewer than one revision per event.
		expect(history.length).toBeLessThan(10);
	});

	it("treats a retried write whose response was lost as a success", async () => {
		const read = await s.api("/vault/Note.md");
		const first = await s.api("/vault/Note.md", {
			method: "PUT",
			body: "v2\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		const retry = await s.api("/vault/Note.md", {
			method: "PUT",
			body: "v2\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(retry.status).toBe(204);
		expect(retry.headers.etag).toBe(first.headers.etag);
	});

	it("trashes a note on DELETE with a fresh token and refuses a stale one", async () => {
		const read = await s.api("/vault/Note.md");
		await s.edit("Note.md", "changed\n");
		const stale = await s.api("/vault/Note.md", {
			method: "DELETE",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(stale.status).toBe(412);
		const fresh = await s.api("/vault/Note.md");
		const deleted = await s.api("/vault/Note.md", {
			method: "DELETE",
			headers: { "If-Match": fresh.headers.etag as string },
		});
		expect(deleted.status).toBe(204);
		expect((await s.api("/vault/Note.md")).status).toBe(404);
	});
});

// A plain folder reports a move as delete + create; only Obsidian says it was a rename, so only it keeps history.
describe("over the obsidian gateway only", () => {
	let s: Subject;
	beforeEach(async () => {
		s = await subjects.obsidian!({ "Note.md": "line one\n" });
	});
	afterEach(async () => {
		await s.close();
	});

	it("keeps a note's history when it is renamed inside the vault", async () => {
		await s.api("/vault/Note.md");
		await s.settle();
		const before = s.history("Note.md").length;
		expect(before).toBeGreaterThan(0);
		await s.move("Note.md", "Moved.md");
		await s.settle();
		expect(s.history("Moved.md").length).toBeGreaterThanOrEqual(before);
		expect(s.history("Note.md")).toHaveLength(0);
	});
});
