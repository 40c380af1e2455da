/**
 * Key scopes in settings.json, through the BUILT headless host as a person runs it: a key with a malformed list stops
 * the host from starting (naming the key and the field), and a running host that reads one refuses that key rather
 * than serve it with any other scope.
 */
import { mkdtemp, rm, writeFile, mkdir } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call } from "../helpers/http-client";
import { killSpawnedHosts, launch, requireBuiltCli, serveHost, until, within } from "../helpers/spawned-host";
import { writeVaultFile } from "../helpers/vault-files";

const KEY = "s".repeat(43);
let dir: string;

beforeAll(requireBuiltCli);

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-scopes-"));
	await writeVaultFile(dir, "Projects/plan.md", "# Plan\n");
	await writeVaultFile(dir, "Private/diary.md", "# Diary\n");
});

afterEach(async () => {
	killSpawnedHosts();
	await rm(dir, { recursive: true, force: true });
});

async function writeSettings(keys: unknown[]): Promise<void> {
	await mkdir(join(dir, ".revision-guard"), { recursive: true, mode: 0o700 });
	await writeFile(join(dir, ".revision-guard/settings.json"), JSON.stringify({ keys }, null, "\t"), { mode: 0o600 });
}

describe("key scopes in the headless host's settings.json", () => {
	it.each([
		[
			"a string instead of a list",
			{ write: "Projects/**" },
			"write",
			'The write list of the key "scoped" must be a list of globs',
		],
		[
			"an invalid glob",
			{ read: ["Projects/**", "*.{md,txt}"] },
			"read",
			'The read list of the key "scoped" has an invalid glob at position 2',
		],
		[
			"a list of something else",
			{ propose: [42] },
			"propose",
			'The propose list of the key "scoped" has an invalid glob at position 1',
		],
	])("refuses to start when a key's list is %s, naming the key and the field", async (_what, lists, field, words) => {
		await writeSettings([
			{ name: "fine", key: "f".repeat(43), created: "2026-01-01" },
			{ name: "scoped", key: KEY, created: "2026-01-01", ...lists },
		]);
		const host = launch(["--vault", dir, "--port", "0"], dir);
		const exit = await within(host.exited, 15_000, "the host to refuse to start");
		expect(exit.code).toBe(1);
		expect(host.err()).toContain(words);
		expect(host.err()).toContain(`Fix the "${field}" field of the key "scoped"`);
		expect(host.out()).not.toContain("Press Ctrl+C to stop.");
	});

	it("starts with valid lists, and refuses a key whose lists turn malformed while it runs, never serving it wider", async () => {
		await writeSettings([
			{ name: "agent", key: "a".repeat(43), created: "2026-01-01" },
			{ name: "scoped", key: KEY, created: "2026-01-01", read: ["Projects/**"], write: [], propose: [] },
		]);
		const host = await serveHost(["--vault", dir, "--port", "0"], dir);
		const read = (path: string) => call(host.port, `/vault/${path}`, { headers: { Authorization: `Bearer ${KEY}` } });
		expect((await read("Projects/plan.md")).status).toBe(200);

		await writeSettings([
			{ name: "agent", key: "a".repeat(43), created: "2026-01-01" },
			{ name: "scoped", key: KEY, created: "2026-01-01", read: "**" },
		]);
		await until(
			host,
			() => host.err().includes('The read list of the key "scoped" must be a list of globs'),
			"the host to refuse the malformed key",
		);
		expect(host.err()).toContain('The key "scoped" is refused until its read field is fixed.');
		expect((await read("Projects/plan.md")).status).toBe(401);
		expect((await read("Private/diary.md")).status).toBe(401);
		expect(
			(await call(host.port, "/vault/Private/diary.md", { headers: { Authorization: `Bearer ${"a".repeat(43)}` } }))
				.status,
		).toBe(200);
	});
});
