/**
 * `keys list|add|revoke` on a folder: in process for the rules (256-bit keys, settings.json kept private and whole,
 * duplicate names refused), and with the BUILT host for what a person sees: a running host takes an added key and
 * refuses a revoked one without a restart.
 */
import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseKeysArgs, runKeys, type KeysArgs } from "../../src/headless/keys-command";
import { holderRecord } from "../../src/host/running-marker";
import { takeLock } from "../../src/headless/folder-lock";
import { call } from "../helpers/http-client";
import { killSpawnedHosts, requireBuiltCli, runCli, serveHost, until } from "../helpers/spawned-host";
import { writeVaultFile } from "../helpers/vault-files";

const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}$/;
const SETTINGS = ".revision-guard/settings.json";

let dir: string;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-keys-"));
});

afterEach(async () => {
	killSpawnedHosts();
	await rm(dir, { recursive: true, force: true });
});

async function keys(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
	const args = parseKeysArgs([...argv, "--vault", dir]);
	if (args.command === "error") throw new Error(args.message);
	let out = "";
	let err = "";
	const code = await runKeys(
		args,
		(text) => (out += text),
		(text) => (err += text),
	);
	return { code, out, err };
}

const stored = async () =>
	JSON.parse(await readFile(join(dir, SETTINGS), "utf8")) as {
		keys: { name: string; key: string; created: string }[];
		requireToken?: boolean;
	};

describe("keys on a folder", () => {
	it("adds a 256-bit key, prints it once, and keeps settings.json private", async () => {
		const added = await keys("add", "claude-code");
		expect(added.code).toBe(0);
		const key = /^ {2}(\S+)$/m.exec(added.out)?.[1];
		expect(key).toMatch(BASE64URL_KEY);
		expect(Buffer.from(key!, "base64url")).toHaveLength(32);
		expect((await stored()).keys).toEqual([{ name: "claude-code", key, created: expect.any(String) }]);
		expect((await stat(join(dir, SETTINGS))).mode & 0o777).toBe(0o600);
		expect((await stat(join(dir, ".revision-guard"))).mode & 0o777).toBe(0o700);
		// list names them, never their values.
		const listed = await keys("list");
		expect(listed.out).toMatch(/^claude-code\tcreated \d{4}-/);
		expect(listed.out).not.toContain(key);
	});

	it("refuses a name already taken, changing nothing", async () => {
		await keys("add", "agent");
		const before = await readFile(join(dir, SETTINGS), "utf8");
		const again = await keys("add", "agent");
		expect(again.code).toBe(1);
		expect(again.err).toContain('There is already a key named "agent"; nothing was changed.');
		expect(await readFile(join(dir, SETTINGS), "utf8")).toBe(before);
	});

	it("revokes a key by name and keeps every other setting as it was", async () => {
		await mkdir(join(dir, ".revision-guard"), { recursive: true });
		await writeFile(
			join(dir, SETTINGS),
			JSON.stringify({
				requireToken: false,
				keys: [
					{ name: "a", key: "a".repeat(43), created: "2026-01-01" },
					{ name: "b", key: "b".repeat(43), created: "2026-01-02" },
				],
			}),
			{ mode: 0o644 },
		);
		const revoked = await keys("revoke", "a");
		expect(revoked.code).toBe(0);
		expect(await stored()).toEqual({
			requireToken: false,
			keys: [{ name: "b", key: "b".repeat(43), created: "2026-01-02" }],
		});
		expect((await stat(join(dir, SETTINGS))).mode & 0o777).toBe(0o600);
		const missing = await keys("revoke", "a");
		expect(missing.code).toBe(1);
		expect(missing.err).toContain('There is no key named "a"; nothing was changed. The keys are: b.');
		expect((await keys("revoke", "b")).out).toContain("No keys are left");
	});

	it("never writes over a settings.json it cannot read (it may hold keys agents use)", async () => {
		await writeVaultFile(dir, SETTINGS, "{ not json");
		const added = await keys("add", "x");
		expect(added.code).toBe(1);
		expect(added.err).toContain("is not valid settings JSON, so nothing was changed");
		expect(await readFile(join(dir, SETTINGS), "utf8")).toBe("{ not json");
	});

	it("waits while another command rewrites settings.json, and names a holder it cannot wait for", async () => {
		const lock = join(dir, ".revision-guard/settings.lock");
		const held = await takeLock(lock, holderRecord("command", null, "keys add"));
		if (!("held" in held)) throw new Error("could not take the settings lock");
		const waiting = keys("add", "x");
		setTimeout(() => void held.held.release(), 200);
		expect((await waiting).code).toBe(0);
		expect((await stored()).keys.map((key) => key.name)).toEqual(["x"]);

		// A holder on another machine cannot be judged, so it is not waited for.
		await writeFile(lock, JSON.stringify({ ...holderRecord("command", null, "keys revoke"), hostname: "elsewhere" }));
		const blocked = await keys("add", "y");
		expect(blocked.code).toBe(1);
		expect(blocked.err).toContain('The Revision Guard command "keys revoke" (pid');
		expect(blocked.err).toContain("nothing was changed");
	});

	it("says how to get a key when there is none yet, and refuses a folder that does not exist", async () => {
		expect((await keys("list")).out).toContain(
			'has no agent keys yet. The host makes one named "agent" when it starts',
		);
		const args = parseKeysArgs(["list", "--vault", join(dir, "missing")]) as KeysArgs;
		let err = "";
		expect(
			await runKeys(
				args,
				() => undefined,
				(text) => (err += text),
			),
		).toBe(2);
		expect(err).toContain("does not exist");
	});

	it("reads its words strictly", () => {
		expect(parseKeysArgs(["add"])).toEqual({
			command: "error",
			message: "keys add needs one key name, e.g. keys add claude-code.",
		});
		expect(parseKeysArgs(["add", "a\tb"])).toMatchObject({ command: "error" });
		expect(parseKeysArgs(["add", "x".repeat(65)])).toMatchObject({ command: "error" });
		expect(parseKeysArgs(["rotate", "x"])).toEqual({
			command: "error",
			message: "keys needs list, add NAME or revoke NAME.",
		});
		expect(parseKeysArgs(["list", "--vault=/v"])).toEqual({ command: "keys", action: "list", name: "", vault: "/v" });
	});
});

describe("keys and a running host (the built CLI)", () => {
	beforeAll(requireBuiltCli);

	it("a running host accepts an added key and refuses a revoked one, without a restart", async () => {
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n");
		const host = await serveHost(["--vault", dir, "--port", "0"], dir);
		const added = await runCli(["keys", "add", "nightly", "--vault", dir], dir);
		expect(added.code, added.err).toBe(0);
		const key = /^ {2}(\S+)$/m.exec(added.out)![1]!;
		const read = (with_: string) =>
			call(host.port, "/vault/Inbox.md", { headers: { Authorization: `Bearer ${with_}` } });
		await until(
			host,
			() => host.out().includes("Keys changed in settings.json: accepting agent, nightly."),
			"the host to take the new key",
		);
		expect((await read(key)).status).toBe(200);

		const revoked = await runCli(["keys", "revoke", "nightly", "--vault", dir], dir);
		expect(revoked.code, revoked.err).toBe(0);
		await until(
			host,
			() => host.out().includes("Keys changed in settings.json: accepting agent."),
			"the host to drop the key",
		);
		expect((await read(key)).status).toBe(401);
		expect((await read(host.key)).status).toBe(200);

		const listed = await runCli(["keys", "list", "--vault", dir], dir);
		expect(listed.out).toMatch(/^agent\tcreated /);
	});
});
