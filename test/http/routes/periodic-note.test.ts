/**
 * /periodic/{period}/ and its dated form, as the Local REST API served them until 5.0.2 (and mcp-obsidian still
 * calls them), over both gateways: the note a period names for a day, read and written through the same guarded
 * handlers as /vault/{path}; a GET never creates; POST and PATCH create a missing note from its template as the
 * agent's own write; PUT creates it with its body.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changeTagOf } from "../../../src/core/revision-tokens";
import { DEFAULT_SETTINGS, type RevisionGuardSettings } from "../../../src/settings";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, visibleFiles, writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../stacks";

forbidServerErrors(["periodic-format-unsupported"]);

/** Thursday 5 March 2026, noon local time: "today" for every test. */
const NOW = new Date(2026, 2, 5, 12, 0, 0).getTime();
const TEMPLATE = "# {{title}}\n\nDay: {{date:dddd}}\n\n## Tasks\n";

function expectProblem(
	res: CallResult,
	status: number,
	name: string,
): { detail: string; backupPath?: string; path?: string } {
	expect(res.status, res.text).toBe(status);
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status });
	return res.json();
}

function periodicSettings(
	daily: Partial<RevisionGuardSettings["periodicNotes"]["daily"]>,
): Partial<RevisionGuardSettings> {
	const periodicNotes = structuredClone(DEFAULT_SETTINGS.periodicNotes);
	periodicNotes.daily = { ...periodicNotes.daily, ...daily };
	return { periodicNotes };
}

let dir: string;
let s: Stack;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-periodic-"));
});
afterEach(async () => {
	await s?.close();
	await rm(dir, { recursive: true, force: true });
});

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("/periodic/ over the %s gateway", (name) => {
	const start = (settings: Partial<RevisionGuardSettings> = {}) =>
		STACKS[name](dir, { settings, now: () => NOW }).then((stack) => (s = stack));

	it("answers GET of a missing note 404 periodic-note-missing and creates nothing", async () => {
		await start();
		const problem = expectProblem(await s.api("/periodic/daily/"), 404, "periodic-note-missing");
		expect(problem.path).toBe("2026-03-05.md");
		expectProblem(await s.api("/periodic/daily/", { method: "DELETE" }), 404, "periodic-note-missing");
		expect((await s.api("/periodic/daily/2026/3/4/", { method: "HEAD" })).status).toBe(404);
		expect(await visibleFiles(dir)).toEqual([]);
	});

	it("names each period's note with the default formats, at the vault root", async () => {
		await start();
		for (const [period, note] of [
			["daily", "2026-03-05.md"],
			["weekly", "2026-W10.md"],
			["monthly", "2026-03.md"],
			["quarterly", "2026-Q1.md"],
			["yearly", "2026.md"],
		]) {
			const res = await s.api(`/periodic/${period}/`, { method: "POST", body: `${period}\n` });
			// Created first (empty, without a template), then appended to: the append's answer.
			expect(res.status, `${period}: ${res.text}`).toBe(204);
			expect(res.headers["content-location"]).toBe(note);
			expect(await s.file(note!)).toBe(`${period}\n`);
		}
		// Another day's: the week, month, quarter and year that hold it.
		expect(
			(await s.api("/periodic/weekly/2026/1/1/", { method: "POST", body: "w\n" })).headers["content-location"],
		).toBe("2026-W01.md");
		expect(
			(await s.api("/periodic/quarterly/2025/11/30", { method: "POST", body: "q\n" })).headers["content-location"],
		).toBe("2025-Q4.md");
	});

	it("creates a missing note from its template (filled in for the day) on POST, then appends, as the agent's write", async () => {
		await writeVaultFile(dir, "Templates/Daily.md", TEMPLATE);
		await start(periodicSettings({ folder: "Journal/", template: "Templates/Daily" }));
		const res = await s.api("/periodic/daily/", { method: "POST", body: "- agent\n" });
		expect(res.status, res.text).toBe(204);
		expect(res.headers["content-location"]).toBe("Journal/2026-03-05.md");
		expect(await s.file("Journal/2026-03-05.md")).toBe("# 2026-03-05\n\nDay: Thursday\n\n## Tasks\n- agent\n");
		// The agent never saw the template's text: the append's ETag is a part token, never the revision.
		expect(res.headers.etag).toMatch(/^"part\./);
		const activity = (await s.api("/activity")).json<{ writes: { path: string; agent: string }[] }>();
		expect(
			activity.writes.filter((write) => write.path === "Journal/2026-03-05.md").map((write) => write.agent),
		).toEqual(["test-agent", "test-agent"]);
	});

	it("creates from the template on PATCH too, and the patch stands on that creation (a part read)", async () => {
		await writeVaultFile(dir, "Templates/Daily.md", TEMPLATE);
		await start(periodicSettings({ template: "Templates/Daily.md" }));
		const res = await s.api("/periodic/daily/", {
			method: "PATCH",
			body: "- first\n",
			headers: {
				"Markdown-Patch-Version": "1",
				Operation: "append",
				"Target-Type": "heading",
				Target: "2026-03-05::Tasks",
			},
		});
		// Answered as Local REST API 5.1 answers a header PATCH: 200 with the whole patched note.
		expect(res.status, res.text).toBe(200);
		expect(res.text).toBe("# 2026-03-05\n\nDay: Thursday\n\n## Tasks\n- first\n");
		expect(await s.file("2026-03-05.md")).toBe(res.text);
		// That answer is the agent's read of the whole note: a tokenless PUT is held to it, so a person's edit since refuses it.
		await s.edit("2026-03-05.md", res.text + "the person's line\n");
		expectProblem(await s.api("/periodic/daily/", { method: "PUT", body: "blind\n" }), 412, "stale-revision");
		expect(await s.file("2026-03-05.md")).toContain("the person's line");
	});

	it("reads and replaces the note exactly as /vault/{path} does: a tokenless PUT needs a read, a stale one is kept as .bak", async () => {
		await writeVaultFile(dir, "2026-03-05.md", "# Today\n");
		await start();
		expectProblem(await s.api("/periodic/daily/", { method: "PUT", body: "blind\n" }), 428, "precondition-required");
		const read = await s.api("/periodic/daily/");
		expect(read.status).toBe(200);
		expect(read.text).toBe("# Today\n");
		expect(read.headers.etag).toBe(`"${sha256Token("# Today\n")}"`);
		expect(read.headers["content-location"]).toBe("2026-03-05.md");
		const json = await s.api("/periodic/daily/", { headers: { Accept: "application/vnd.olrapi.note+json" } });
		expect(json.json()).toMatchObject({ path: "2026-03-05.md", content: "# Today\n" });
		expect((await s.api("/periodic/daily/", { method: "PUT", body: "# Today\n- agent\n" })).status).toBe(204);
		await s.edit("2026-03-05.md", "# Today\n- person\n");
		const stale = expectProblem(
			await s.api("/periodic/daily/", {
				method: "PUT",
				body: "stale\n",
				headers: { "If-Match": read.headers.etag as string },
			}),
			412,
			"stale-revision",
		);
		expect(await s.file(stale.backupPath!)).toBe("stale\n");
		expect(await s.file("2026-03-05.md")).toBe("# Today\n- person\n");
		// Through /vault/ it is the same note: that read counts here too.
		await s.api("/vault/2026-03-05.md");
		expect((await s.api("/periodic/daily/2026/03/05/", { method: "PUT", body: "via dated\n" })).status).toBe(204);
		expect(await s.file("2026-03-05.md")).toBe("via dated\n");
	});

	it("PUT creates a missing note with its body (no template), and DELETE trashes it only with a current revision", async () => {
		await writeVaultFile(dir, "Templates/Daily.md", TEMPLATE);
		await start(periodicSettings({ template: "Templates/Daily" }));
		const created = await s.api("/periodic/daily/2026/3/4/", { method: "PUT", body: "yesterday\n" });
		expect(created.status, created.text).toBe(204);
		expect(await s.file("2026-03-04.md")).toBe("yesterday\n");
		expectProblem(
			await s.api("/periodic/daily/2026/3/4/", {
				method: "DELETE",
				headers: { "If-Match": `"${sha256Token("other")}"` },
			}),
			412,
			"stale-revision",
		);
		expect(
			(
				await s.api("/periodic/daily/2026/3/4/", {
					method: "DELETE",
					headers: { "If-Match": created.headers.etag as string },
				})
			).status,
		).toBe(204);
		expect(await s.file("2026-03-04.md")).toBeNull();
	});

	it("serves URL targets after the note, and refuses DELETE of a part", async () => {
		await writeVaultFile(dir, "2026-03-05.md", "# Day\n## Tasks\n- one\n");
		await start();
		const part = await s.api("/periodic/daily/heading/Day/Tasks");
		expect(part.status, part.text).toBe(200);
		expect(part.text).toBe("- one\n");
		expect(part.headers["content-location"]).toBe("2026-03-05.md");
		expect(
			(await s.api("/periodic/daily/2026/3/5/heading/Day/Tasks", { method: "POST", body: "- two\n" })).status,
		).toBe(200);
		expect(await s.file("2026-03-05.md")).toBe("# Day\n## Tasks\n- one\n- two\n");
		expectProblem(await s.api("/periodic/daily/heading/Day/Tasks", { method: "DELETE" }), 405, "method-not-allowed");
	});

	it("refuses unknown periods, days that do not exist and paths that are not periodic notes, touching nothing", async () => {
		await start();
		expectProblem(await s.api("/periodic/hourly/", { method: "POST", body: "x" }), 404, "unknown-period");
		expectProblem(
			await s.api("/periodic/daily/2026/2/30/", { method: "POST", body: "x" }),
			400,
			"invalid-periodic-date",
		);
		expectProblem(await s.api("/periodic/daily/2026/13/1/"), 400, "invalid-periodic-date");
		const recent = expectProblem(await s.api("/periodic/daily/recent?limit=5"), 404, "route-not-found");
		expect(recent.detail).toContain("/periodic/{period}/{year}/{month}/{day}/");
		expect(await visibleFiles(dir)).toEqual([]);
	});

	it("refuses a period whose folder leads where notes are never served", async () => {
		await start(periodicSettings({ folder: ".obsidian" }));
		const problem = expectProblem(await s.api("/periodic/daily/", { method: "POST", body: "x" }), 400, "invalid-path");
		expect(problem.detail).toContain("folder or format");
	});

	it("lists the creation in history as the agent's, so undo can move it to the trash while unchanged", async () => {
		await start();
		const created = await s.api("/periodic/monthly/", { method: "POST", body: "" });
		expect(created.status, created.text).toBe(204);
		const history = (await s.api("/history/2026-03.md")).json<{ revisions: { by: string; revision: string }[] }>();
		expect(history.revisions[0]).toMatchObject({ by: "test-agent", revision: changeTagOf(sha256Token("")) });
	});
});

describe("/periodic/ headless", () => {
	it("refuses a format it cannot format (501), naming the setting to change", async () => {
		s = await STACKS["node filesystem"](dir, { settings: periodicSettings({ format: "LL" }), now: () => NOW });
		const problem = expectProblem(
			await s.api("/periodic/daily/", { method: "POST", body: "x" }),
			501,
			"periodic-format-unsupported",
		);
		expect(problem.detail).toContain("periodicNotes.daily");
		expect(await visibleFiles(dir)).toEqual([]);
	});
});

describe("/periodic/ in Obsidian", () => {
	const plugins = (app: object, values: Record<string, unknown>) => Object.assign(app, values);

	it("names daily notes as the Daily notes core plugin does, with Obsidian's moment", async () => {
		await writeVaultFile(dir, "Journal/2026/03/05 Thursday.md", "# Thursday\n");
		s = await STACKS.obsidian(dir, { now: () => NOW });
		plugins(s.app!, {
			internalPlugins: {
				getPluginById: (id: string) =>
					id === "daily-notes" ? { instance: { options: { folder: "Journal", format: "YYYY/MM/DD dddd" } } } : null,
			},
		});
		const res = await s.api("/periodic/daily/");
		expect(res.status, res.text).toBe(200);
		expect(res.text).toBe("# Thursday\n");
		expect(res.headers["content-location"]).toBe("Journal/2026/03/05%20Thursday.md");
	});

	it("prefers the Periodic Notes plugin for a period it turned on (calendar sets and older settings)", async () => {
		s = await STACKS.obsidian(dir, { now: () => NOW });
		plugins(s.app!, {
			plugins: {
				getPlugin: (id: string) =>
					id === "periodic-notes"
						? {
								settings: {
									weekly: { enabled: true, folder: "Weeks", format: "GGGG-[W]WW" },
									monthly: { enabled: false, folder: "Off" },
								},
							}
						: null,
			},
		});
		expect((await s.api("/periodic/weekly/", { method: "POST", body: "w\n" })).headers["content-location"]).toBe(
			"Weeks/2026-W10.md",
		);
		// A period the plugin has off falls back to Revision Guard's own settings.
		expect((await s.api("/periodic/monthly/", { method: "POST", body: "m\n" })).headers["content-location"]).toBe(
			"2026-03.md",
		);
		plugins(s.app!, {
			plugins: {
				getPlugin: (id: string) =>
					id === "periodic-notes"
						? {
								calendarSetManager: {
									getActiveSet: () => ({ quarter: { enabled: true, folder: "Q", format: "YYYY [Q]Q" } }),
								},
							}
						: null,
			},
		});
		expect((await s.api("/periodic/quarterly/", { method: "POST", body: "q\n" })).headers["content-location"]).toBe(
			"Q/2026%20Q1.md",
		);
	});

	it("appends to the daily note open in the person's editor without losing their unsaved typing", async () => {
		await writeVaultFile(dir, "2026-03-05.md", "# Today\n");
		s = await STACKS.obsidian(dir, { now: () => NOW });
		const view = s.app!.openEditor("2026-03-05.md");
		view.type("typed, not saved\n", "# Today\n".length);
		expect((await s.api("/periodic/daily/", { method: "POST", body: "- agent\n" })).status).toBe(204);
		expect(view.editor.getValue()).toBe("# Today\ntyped, not saved\n- agent\n");
	});
});
