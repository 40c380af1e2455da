/** The headless host's settings file: first-run key, reuse, command-line key, port, damaged files. */
import { mkdtemp, readFile, rm, writeFile, mkdir } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { matchKey } from "../../src/core/keys";
import { loadHostSettings } from "../../src/headless/host-settings";
import { DEFAULT_SETTINGS, type RevisionGuardSettings } from "../../src/settings";
import { NodeStateStorage } from "../../src/vault/node-state-storage";
import { MemoryStorage } from "../helpers/memory-gateway";

const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}$/;
const CLI_KEY = "cli-key-0123456789abcdef";

function stored(storage: MemoryStorage): RevisionGuardSettings {
	const text = storage.files.get("settings.json");
	expect(text, "settings.json was written").toBeDefined();
	return JSON.parse(text!) as RevisionGuardSettings;
}

describe("loadHostSettings", () => {
	it("generates a named key on first run and saves it with the defaults", async () => {
		const storage = new MemoryStorage();
		const before = Date.now();
		const settings = await loadHostSettings(storage, null, 27125);
		expect(settings.keys).toHaveLength(1);
		const [key] = settings.keys;
		expect(key!.name).toBe("agent");
		expect(key!.key).toMatch(BASE64URL_KEY);
		expect(Date.parse(key!.created)).toBeGreaterThanOrEqual(before - 1000);
		expect(stored(storage)).toEqual({ ...DEFAULT_SETTINGS, keys: [key] });
	});

	it("reuses the saved key on the next run without rewriting the file", async () => {
		const storage = new MemoryStorage();
		const first = await loadHostSettings(storage, null, 27125);
		const text = storage.files.get("settings.json");
		const second = await loadHostSettings(storage, null, 27125);
		expect(second.keys).toEqual(first.keys);
		expect(storage.files.get("settings.json")).toBe(text);
	});

	it("generates a different key for each new vault", async () => {
		const one = await loadHostSettings(new MemoryStorage(), null, 0);
		const two = await loadHostSettings(new MemoryStorage(), null, 0);
		expect(one.keys[0]!.key).not.toBe(two.keys[0]!.key);
	});

	it("keeps settings.json on disk and reads it back", async () => {
		const dir = await mkdtemp(join(tmpdir(), "rg-host-settings-"));
		try {
			const first = await loadHostSettings(new NodeStateStorage(join(dir, ".revision-guard")), null, 27125);
			const onDisk = JSON.parse(
				await readFile(join(dir, ".revision-guard", "settings.json"), "utf8"),
			) as RevisionGuardSettings;
			expect(onDisk.keys).toEqual(first.keys);
			const second = await loadHostSettings(new NodeStateStorage(join(dir, ".revision-guard")), null, 27125);
			expect(second.keys).toEqual(first.keys);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it('adds a command-line key first, as "cli", accepted alongside the saved key', async () => {
		const storage = new MemoryStorage();
		const saved = (await loadHostSettings(storage, null, 27125)).keys[0]!;
		const settings = await loadHostSettings(storage, CLI_KEY, 27125);
		expect(settings.keys.map((key) => key.name)).toEqual(["cli", "agent"]);
		expect(matchKey(settings.keys, CLI_KEY)?.name).toBe("cli");
		expect(matchKey(settings.keys, saved.key)?.name).toBe("agent");
		expect(matchKey(settings.keys, "not-a-key-0123456789")).toBeUndefined();
	});

	it("does not save a command-line key", async () => {
		const storage = new MemoryStorage();
		await loadHostSettings(storage, CLI_KEY, 27125);
		expect(stored(storage).keys.map((key) => key.name)).toEqual(["agent"]);
		expect(matchKey((await loadHostSettings(storage, null, 27125)).keys, CLI_KEY)).toBeUndefined();
	});

	it("does not add a command-line key that is already saved", async () => {
		const storage = new MemoryStorage();
		const saved = (await loadHostSettings(storage, null, 27125)).keys[0]!;
		const settings = await loadHostSettings(storage, saved.key, 27125);
		expect(settings.keys).toEqual([saved]);
	});

	it("takes the port from the argument, whatever the file says", async () => {
		const storage = new MemoryStorage();
		storage.files.set(
			"settings.json",
			JSON.stringify({ port: 1234, keys: [{ name: "mine", key: CLI_KEY, created: "2026-01-01" }] }),
		);
		expect((await loadHostSettings(storage, null, 5555)).port).toBe(5555);
		expect((await loadHostSettings(storage, null, 0)).port).toBe(0);
	});

	it("keeps the other saved settings", async () => {
		const storage = new MemoryStorage();
		const keys = [{ name: "mine", key: CLI_KEY, created: "2026-01-01" }];
		storage.files.set(
			"settings.json",
			JSON.stringify({ keys, requireToken: false, backupFolder: "Backups", maxBodyMB: 2 }),
		);
		const settings = await loadHostSettings(storage, null, 27125);
		expect(settings).toMatchObject({
			keys,
			requireToken: false,
			backupFolder: "Backups",
			maxBodyMB: 2,
			baseStoreCapMB: DEFAULT_SETTINGS.baseStoreCapMB,
		});
	});

	it.each(["{not json", "", "null", "[]", "42", '"text"'])(
		"falls back to defaults and a fresh key when settings.json is %j",
		async (text) => {
			const storage = new MemoryStorage();
			storage.files.set("settings.json", text);
			const settings = await loadHostSettings(storage, null, 4321);
			expect(settings).toEqual({
				...DEFAULT_SETTINGS,
				port: 4321,
				keys: [expect.objectContaining({ name: "agent", key: expect.stringMatching(BASE64URL_KEY) })],
			});
			expect(stored(storage).keys).toEqual(settings.keys);
		},
	);

	it("falls back to a fresh key when settings.json on disk is damaged", async () => {
		const dir = await mkdtemp(join(tmpdir(), "rg-host-settings-"));
		try {
			await mkdir(join(dir, "state"));
			await writeFile(join(dir, "state", "settings.json"), '{"keys": [');
			const settings = await loadHostSettings(new NodeStateStorage(join(dir, "state")), null, 27125);
			expect(settings.keys).toHaveLength(1);
			expect(settings.keys[0]!.key).toMatch(BASE64URL_KEY);
			const onDisk = JSON.parse(await readFile(join(dir, "state", "settings.json"), "utf8")) as RevisionGuardSettings;
			expect(onDisk.keys).toEqual(settings.keys);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});
