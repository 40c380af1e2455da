/**
 * MOVE and COPY on /vault/{path} (Local REST API 5.x), guarded, over both gateways: a move needs the note's whole
 * revision (If-Match, or this key's read of it), a note at the destination is replaced only with Allow-Overwrite and
 * its own revision, and a refused move or copy keeps nothing (it carried no text) and changes nothing.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changeTagOf } from "../../../src/core/revision-tokens";
import type { CallResult } from "../../helpers/http-client";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { allFiles, sha256Token, visibleFiles, writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../stacks";

forbidServerErrors();

const PLAN = "# Plan\n- one\n";
const OTHER = "# Other\nkeep me\n";

function expectProblem(res: CallResult, status: number, name: string): Record<string, unknown> & { detail: string } {
	expect(res.status, res.text).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status });
	return res.json();
}

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("MOVE and COPY over %s", (name) => {
	let dir: string;
	let s: Stack;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-move-"));
		await writeVaultFile(dir, "Projects/Plan.md", PLAN);
		await writeVaultFile(dir, "Other.md", OTHER);
		s = await STACKS[name](dir);
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	const move = (from: string, headers: Record<string, string>) => s.api(`/vault/${from}`, { method: "MOVE", headers });
	const copy = (from: string, headers: Record<string, string>) => s.api(`/vault/${from}`, { method: "COPY", headers });
	const read = async (path: string) => (await s.api(`/vault/${path}`)).headers.etag as string;
	const untouched = async () => expect(await visibleFiles(dir)).toEqual(["Other.md", "Projects/Plan.md"]);

	describe("MOVE", () => {
		it("moves a note this key read: 204, Content-Location, its revision as ETag, and its history follows it", async () => {
			const etag = await read("Projects/Plan.md");
			const res = await move("Projects/Plan.md", { Destination: "Archive/2026/Plan.md" });
			expect(res.status, res.text).toBe(204);
			expect(res.headers["content-location"]).toBe("Archive/2026/Plan.md");
			// The mover had the whole note, and it arrived unchanged: it keeps its revision.
			expect(res.headers.etag).toBe(etag);
			expect(await s.file("Projects/Plan.md")).toBeNull();
			expect(await s.file("Archive/2026/Plan.md")).toBe(PLAN);
			expect((await s.api("/vault/Projects/Plan.md")).status).toBe(404);
			const entries = s.guard.history.entries("Archive/2026/Plan.md");
			expect(entries.at(-1)).toMatchObject({
				revision: sha256Token(PLAN),
				movedFrom: "Projects/Plan.md",
				source: { kind: "agent", agent: "test-agent" },
			});
			expect(s.guard.history.entries("Projects/Plan.md")).toEqual([]);
			// Its read moved with it: a tokenless PUT of the new path is held to it, and lands.
			expect((await s.api("/vault/Archive/2026/Plan.md", { method: "PUT", body: PLAN + "- two\n" })).status).toBe(204);
		});

		it("works as the Local REST API suite does it: a note the key created, moved without any header but Destination", async () => {
			expect((await s.api("/vault/Notes/new.md", { method: "PUT", body: "fresh\n" })).status).toBe(204);
			const res = await move("Notes/new.md", { Destination: "Notes/sub/" });
			expect(res.status, res.text).toBe(204);
			expect(res.headers["content-location"]).toBe("Notes/sub/new.md");
			expect(await s.file("Notes/sub/new.md")).toBe("fresh\n");
		});

		it("moves with If-Match, quoted or bare; a percent-encoded Destination and `..` inside the vault resolve", async () => {
			const etag = await read("Projects/Plan.md");
			const res = await s.api("/vault/Projects/Plan.md", {
				method: "MOVE",
				headers: { "If-Match": etag.replace(/"/g, ""), Destination: "Projects/../R%C3%A9sum%C3%A9.md" },
			});
			expect(res.status, res.text).toBe(204);
			expect(res.headers["content-location"]).toBe(encodeURI("Résumé.md"));
			expect(await s.file("Résumé.md")).toBe(PLAN);
		});

		it("refuses a note this key never read (428), and one sent with a change tag or a part token", async () => {
			expect(
				expectProblem(await move("Projects/Plan.md", { Destination: "Moved.md" }), 428, "precondition-required"),
			).toMatchObject({ side: "source", path: "Projects/Plan.md", changeTag: changeTagOf(sha256Token(PLAN)) });
			expect(
				expectProblem(
					await move("Projects/Plan.md", {
						Destination: "Moved.md",
						"If-Match": `"${changeTagOf(sha256Token(PLAN))}"`,
					}),
					428,
					"precondition-required",
				),
			).toMatchObject({ sentToken: "change-tag" });
			const map = await s.api("/vault/Projects/Plan.md", {
				headers: { Accept: "application/vnd.olrapi.document-map+json" },
			});
			const part = expectProblem(
				await move("Projects/Plan.md", { Destination: "Moved.md", "If-Match": map.headers.etag as string }),
				428,
				"precondition-required",
			);
			expect(part).toMatchObject({ sentToken: "part-token" });
			// The key's last read was a document map, a part: it does not stand for the whole note either.
			expect(
				expectProblem(await move("Projects/Plan.md", { Destination: "Moved.md" }), 428, "precondition-required"),
			).toMatchObject({ lastReadPart: true });
			await untouched();
		});

		it("refuses a note that changed since it was read (412): nothing moved, nothing kept, no conflict recorded", async () => {
			const etag = await read("Projects/Plan.md");
			await s.edit("Projects/Plan.md", PLAN + "- the person's line\n");
			for (const headers of [{ "If-Match": etag }, {}] as Record<string, string>[]) {
				const problem = expectProblem(
					await move("Projects/Plan.md", { ...headers, Destination: "Moved.md" }),
					412,
					"stale-revision",
				);
				expect(problem).toMatchObject({
					side: "source",
					changeTag: changeTagOf(sha256Token(PLAN + "- the person's line\n")),
				});
				expect(problem).not.toHaveProperty("currentRevision");
			}
			expect(await s.file("Projects/Plan.md")).toBe(PLAN + "- the person's line\n");
			await untouched();
			expect((await allFiles(dir)).filter((path) => path.endsWith(".bak.md"))).toEqual([]);
			expect(s.guard.conflicts.list()).toEqual([]);
		});

		it("never replaces a note at the destination unasked (409), nor without its revision (428), nor a stale one (412)", async () => {
			await read("Projects/Plan.md");
			expect(
				expectProblem(await move("Projects/Plan.md", { Destination: "Other.md" }), 409, "destination-exists"),
			).toMatchObject({ side: "destination", destination: "Other.md" });
			expect(
				expectProblem(
					await move("Projects/Plan.md", { Destination: "Other.md", "Allow-Overwrite": "true" }),
					428,
					"precondition-required",
				),
			).toMatchObject({ side: "destination", path: "Projects/Plan.md", destination: "Other.md" });
			const otherEtag = await read("Other.md");
			await s.edit("Other.md", OTHER + "more\n");
			expectProblem(
				await move("Projects/Plan.md", {
					Destination: "Other.md",
					"Allow-Overwrite": "true",
					"Destination-If-Match": otherEtag,
				}),
				412,
				"stale-revision",
			);
			expect(await s.file("Other.md")).toBe(OTHER + "more\n");
			expect(await s.file("Projects/Plan.md")).toBe(PLAN);
			// A folder at the destination is taken too.
			expectProblem(await move("Projects/Plan.md", { Destination: "Projects" }), 400, "invalid-destination");
			await writeVaultFile(dir, "Folder.md/inside.md", "x\n");
			if (s.app) s.app.outside.write("Folder.md/inside.md", "x\n");
			await expect.poll(async () => (await move("Projects/Plan.md", { Destination: "Folder.md" })).status).toBe(409);
		});

		it("replaces a note at the destination with Allow-Overwrite and its revision: it goes to the trash, undoably", async () => {
			await read("Projects/Plan.md");
			const otherEtag = await read("Other.md");
			const res = await move("Projects/Plan.md", {
				Destination: "Other.md",
				"Allow-Overwrite": "true",
				"Destination-If-Match": otherEtag,
			});
			expect(res.status, res.text).toBe(204);
			expect(await s.file("Other.md")).toBe(PLAN);
			expect(await s.file("Projects/Plan.md")).toBeNull();
			expect((await allFiles(dir)).some((path) => path.includes(".trash") || path.includes("system-trash"))).toBe(true);
			const entries = s.guard.history.entries("Other.md");
			const deleted = entries.find((entry) => entry.deleted);
			const moved = entries.at(-1)!;
			expect(deleted).toMatchObject({ revision: sha256Token(OTHER), source: { kind: "agent", agent: "test-agent" } });
			expect(moved).toMatchObject({ movedFrom: "Projects/Plan.md" });
			expect(deleted!.change).toBe(moved.change);
		});

		it("refuses a Destination that is missing, absolute, outside the vault or not a note path (400), and a folder (405)", async () => {
			const missing = expectProblem(
				await s.api("/vault/Projects/Plan.md", { method: "MOVE" }),
				400,
				"destination-required",
			);
			expect(missing.detail).toContain("Destination header is required");
			for (const destination of [
				"/abs.md",
				"../outside.md",
				"a/../../x.md",
				".obsidian/x.md",
				"notes.txt",
				"%E0%A4%A.md",
			]) {
				expectProblem(await move("Projects/Plan.md", { Destination: destination }), 400, "invalid-destination");
			}
			const folder = await s.api("/vault/Projects/", { method: "MOVE", headers: { Destination: "Elsewhere/" } });
			expectProblem(folder, 405, "method-not-allowed");
			expect(folder.headers.allow).toBe("GET, HEAD");
			await untouched();
		});

		it("answers a move to the note's own path (204, nothing done) and of a missing note (404)", async () => {
			const same = await move("Projects/Plan.md", { Destination: "Projects/Plan.md" });
			expect(same.status).toBe(204);
			expect(same.headers["content-location"]).toBe("Projects/Plan.md");
			expect(same.headers.etag).toBe(`W/"${changeTagOf(sha256Token(PLAN))}"`);
			expectProblem(await move("Projects/Nope.md", { Destination: "Moved.md" }), 404, "note-not-found");
			await untouched();
		});

		it("refuses a .bak note, as a source and as a destination", async () => {
			await writeVaultFile(dir, "Projects/Plan.20260101-000000.bak.md", "kept\n");
			if (s.app) s.app.outside.write("Projects/Plan.20260101-000000.bak.md", "kept\n");
			await read("Projects/Plan.md");
			expectProblem(
				await move("Projects/Plan.md", { Destination: "x/Plan.20260102-000000.bak.md" }),
				403,
				"backup-read-only",
			);
			await expect
				.poll(async () => (await move("Projects/Plan.20260101-000000.bak.md", { Destination: "Restored.md" })).status)
				.toBe(403);
		});

		it("needs the key, like every route (401), and offers MOVE and COPY to a web page's preflight", async () => {
			const res = await s.api("/vault/Projects/Plan.md", {
				method: "MOVE",
				headers: { Authorization: "Bearer wrong", Destination: "x.md" },
			});
			expect(res.status).toBe(401);
			const allowed = await s.api("/vault/Projects/Plan.md", { method: "OPTIONS" });
			expect(allowed.headers.allow).toContain("MOVE");
			expect(allowed.headers.allow).toContain("COPY");
			await untouched();
		});
	});

	describe("COPY", () => {
		it("copies a note to a new path without its revision; the copier who never read it gets a change tag", async () => {
			const res = await copy("Projects/Plan.md", { Destination: "Copies/" });
			expect(res.status, res.text).toBe(204);
			expect(res.headers["content-location"]).toBe("Copies/Plan.md");
			expect(res.headers.etag).toBe(`W/"${changeTagOf(sha256Token(PLAN))}"`);
			expect(await s.file("Copies/Plan.md")).toBe(PLAN);
			expect(await s.file("Projects/Plan.md")).toBe(PLAN);
			expect(s.guard.history.latest("Copies/Plan.md")).toMatchObject({
				source: { kind: "agent", agent: "test-agent" },
				created: true,
			});
			// Not having seen it, the copier has no read of the copy to write over it with.
			expectProblem(
				await s.api("/vault/Copies/Plan.md", { method: "PUT", body: "mine\n" }),
				428,
				"precondition-required",
			);
		});

		it("hands the copy's revision to a copier who read the note; a stale If-Match is refused (412) and nothing is copied", async () => {
			const etag = await read("Projects/Plan.md");
			const res = await copy("Projects/Plan.md", { Destination: "Copy.md", "If-Match": etag });
			expect(res.status, res.text).toBe(204);
			expect(res.headers.etag).toBe(etag);
			await s.edit("Projects/Plan.md", "changed\n");
			expect(
				expectProblem(
					await copy("Projects/Plan.md", { Destination: "Copy2.md", "If-Match": etag }),
					412,
					"stale-revision",
				),
			).toMatchObject({ side: "source" });
			expect(await s.file("Copy2.md")).toBeNull();
		});

		it("never replaces a destination unasked (409) or without its revision (428); replaces it with both, keeping no .bak", async () => {
			expectProblem(await copy("Projects/Plan.md", { Destination: "Other.md" }), 409, "destination-exists");
			expectProblem(
				await copy("Projects/Plan.md", { Destination: "Other.md", "Allow-Overwrite": "true" }),
				428,
				"precondition-required",
			);
			expect(await s.file("Other.md")).toBe(OTHER);
			await read("Other.md");
			const res = await copy("Projects/Plan.md", { Destination: "Other.md", "Allow-Overwrite": "true" });
			expect(res.status, res.text).toBe(204);
			expect(await s.file("Other.md")).toBe(PLAN);
			expect((await allFiles(dir)).filter((path) => path.endsWith(".bak.md"))).toEqual([]);
			expect(s.guard.conflicts.list()).toEqual([]);
			// The copy replaced a note: that is an agent write whose undo brings the note's text back.
			expect(s.guard.history.latest("Other.md")).toMatchObject({ replaced: sha256Token(OTHER) });
		});

		it("refuses copying a note onto itself (409)", async () => {
			expectProblem(await copy("Projects/Plan.md", { Destination: "Projects/Plan.md" }), 409, "destination-exists");
			await untouched();
		});
	});
});
