/**
 * Two writes that carry a valid-looking request but would lose what someone wrote, over BOTH gateways: an empty body
 * over a non-empty note (a `curl --data-binary @missing-file`), and an agent changing a .bak note (a kept body).
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CallOptions } from "../helpers/http-client";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { writeVaultFile } from "../helpers/vault-files";
import { STACKS, type Stack } from "./stacks";

forbidServerErrors();

const NOTE = "# Plan\n\nwhat the person wrote\n";

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("write edges over the %s gateway", (name) => {
	let dir: string;
	let s: Stack;
	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-edges-"));
		await writeVaultFile(dir, "Plan.md", NOTE);
		s = await STACKS[name](dir);
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});
	const etag = async (path: string) => (await s.api(`/vault/${path}`)).headers.etag as string;

	describe("an empty body over a non-empty note", () => {
		it("is refused (409 empty-body) even with the current token, and the note is untouched", async () => {
			const res = await s.api("/vault/Plan.md", {
				method: "PUT",
				body: "",
				headers: { "If-Match": await etag("Plan.md") },
			});
			expect(res.status, res.text).toBe(409);
			expect(res.json()).toMatchObject({ type: "/problems/empty-body", path: "Plan.md" });
			expect(res.json<{ detail: string }>().detail).toContain("Allow-Empty: true");
			expect(await s.file("Plan.md")).toBe(NOTE);
		});

		it("goes through when the client says it means it (Allow-Empty: true)", async () => {
			const res = await s.api("/vault/Plan.md", {
				method: "PUT",
				body: "",
				headers: { "If-Match": await etag("Plan.md"), "Allow-Empty": "true" },
			});
			expect(res.status, res.text).toBe(204);
			expect(await s.file("Plan.md")).toBe("");
		});

		it("still creates an empty new note", async () => {
			expect((await s.api("/vault/Empty.md", { method: "PUT", body: "" })).status).toBe(204);
			expect(await s.file("Empty.md")).toBe("");
		});
	});

	describe("a .bak note", () => {
		async function keptBackup(): Promise<string> {
			const read = await etag("Plan.md");
			await s.edit("Plan.md", NOTE + "an edit\n");
			const stale = await s.api("/vault/Plan.md", {
				method: "PUT",
				body: "the agent's copy\n",
				headers: { "If-Match": read },
			});
			expect(stale.status).toBe(412);
			return stale.json<{ backupPath: string }>().backupPath;
		}

		it("can be read by agents, but not replaced, appended to, patched or deleted (403), and stays as it was", async () => {
			const backup = await keptBackup();
			const read = await s.api(`/vault/${backup}`);
			expect(read.status).toBe(200);
			expect(read.text).toBe("the agent's copy\n");
			const tag = read.headers.etag as string;
			const attempts: CallOptions[] = [
				{ method: "PUT", body: "overwritten\n", headers: { "If-Match": tag } },
				{ method: "POST", body: "appended\n", headers: {} },
				{
					method: "PATCH",
					body: "x",
					headers: {
						"If-Match": tag,
						"Markdown-Patch-Version": "1",
						Operation: "append",
						"Target-Type": "heading",
						Target: "Nothing",
						"Create-Target-If-Missing": "true",
					},
				},
				{ method: "DELETE", headers: { "If-Match": tag } },
			];
			for (const attempt of attempts) {
				const res = await s.api(`/vault/${backup}`, attempt);
				expect(res.status, `${attempt.method ?? "GET"}: ${res.text}`).toBe(403);
				expect(res.json()).toMatchObject({ type: "/problems/backup-read-only" });
			}
			expect(await s.file(backup)).toBe("the agent's copy\n");
		});

		it("cannot be forged by an agent creating a note named like one", async () => {
			const res = await s.api("/vault/Plan.20260101-000000.bak.md", { method: "PUT", body: "forged\n" });
			expect(res.status).toBe(403);
			expect(await s.file("Plan.20260101-000000.bak.md")).toBeNull();
		});
	});
});
