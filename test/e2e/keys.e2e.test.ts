// @vitest-environment happy-dom
/**
 * Where the BUILT plugin keeps agent keys: in Obsidian's secret storage where it has one (1.11.4+), with only their
 * names and secret ids in data.json; keys an older version left in data.json move over; without secret storage
 * they stay in data.json.
 */
import { mkdtemp } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, describe, expect, it } from "vitest";
import { enableBuiltPlugin, listeningPort, unloadEnabledPlugins, type LoadedPlugin } from "../helpers/built-plugin";
import { call } from "../helpers/http-client";
import { App, Notice, type AppOptions } from "../obsidian-stub";

const KEY = "e2e-key-0123456789abcdef0123456789abcdef";

afterEach(unloadEnabledPlugins);

interface StoredKey {
	name: string;
	key?: string;
	secretId?: string;
}

async function enable(
	data: unknown,
	options: AppOptions = {},
): Promise<{ app: App; plugin: LoadedPlugin; port: number }> {
	const dir = await mkdtemp(join(tmpdir(), "rg-keys-"));
	const app = new App(dir, options);
	const plugin = await enableBuiltPlugin(app, dir, data);
	return { app, plugin, port: await listeningPort(plugin) };
}

const storedKeys = (plugin: LoadedPlugin) => (plugin.data as { keys: StoredKey[] }).keys;
const authorized = (port: number, key: string) =>
	call(port, "/vault/", { headers: { Authorization: `Bearer ${key}` } });

describe("agent keys", () => {
	it("moves keys an older version kept in data.json into secret storage, and they keep working", async () => {
		const { app, plugin, port } = await enable({
			port: 0,
			keys: [{ name: "claude", key: KEY, created: "2026-11-21T00:00:00Z" }],
		});
		const [stored] = storedKeys(plugin);
		expect(stored).toMatchObject({ name: "claude", secretId: expect.stringMatching(/^revision-guard-key-[0-9a-f]+$/) });
		expect(stored!.key).toBeUndefined();
		expect(JSON.stringify(plugin.data)).not.toContain(KEY);
		expect(app.secretStorage!.getSecret(stored!.secretId!)).toBe(KEY);
		expect((await authorized(port, KEY)).status).toBe(200);
	});

	it("keeps a first key it generates in secret storage only", async () => {
		const { app, plugin } = await enable({ port: 0 });
		const [stored] = storedKeys(plugin);
		expect(stored!.key).toBeUndefined();
		expect(app.secretStorage!.getSecret(stored!.secretId!)).toMatch(/^[A-Za-z0-9_-]{43}$/);
	});

	it("blanks a revoked key's secret, so it stops working", async () => {
		const { app, plugin, port } = await enable({
			port: 0,
			keys: [
				{ name: "a", key: KEY, created: "2026-11-21T00:00:00Z" },
				{ name: "b", key: "b".repeat(43), created: "2026-11-21T00:00:00Z" },
			],
		});
		const revoked = storedKeys(plugin).find((key) => key.name === "a")!;
		const settings = plugin as unknown as { settings: { keys: unknown[] }; saveSettings(): Promise<void> };
		settings.settings.keys = settings.settings.keys.slice(1);
		await settings.saveSettings();
		expect(app.secretStorage!.getSecret(revoked.secretId!)).toBe("");
		expect((await authorized(port, KEY)).status).toBe(401);
	});

	it("keeps another device's keys when data.json syncs (secrets stay on the device that made them), and adds one for this device", async () => {
		// Device A moves its key into its own secret storage; data.json, which syncs, keeps only the secret's id.
		const deviceA = await enable({ port: 0, keys: [{ name: "claude", key: KEY, created: "2026-11-21T00:00:00Z" }] });
		const synced = structuredClone(deviceA.plugin.data);
		Notice.shown.length = 0;
		// Device B gets that data.json but not the secret.
		const deviceB = await enable(structuredClone(synced));
		const onB = storedKeys(deviceB.plugin);
		expect(onB.map((key) => key.name)).toEqual(expect.arrayContaining(["claude"]));
		expect(onB).toHaveLength(2);
		const madeOnB = onB.find((key) => key.name !== "claude")!;
		expect((await authorized(deviceB.port, KEY)).status).toBe(401);
		expect((await authorized(deviceB.port, deviceB.app.secretStorage!.getSecret(madeOnB.secretId!)!)).status).toBe(200);
		expect(Notice.shown.map((notice) => notice.message).join("\n")).toContain("other device");
		// B's data.json syncs back to A: A's key still works there, and B's is listed as another device's.
		const deviceAgain = await enable(structuredClone(deviceB.plugin.data), {
			secretStorage: deviceA.app.secretStorage!,
		});
		expect((await authorized(deviceAgain.port, KEY)).status).toBe(200);
		expect(
			storedKeys(deviceAgain.plugin)
				.map((key) => key.name)
				.sort(),
		).toEqual(onB.map((key) => key.name).sort());
		expect((deviceAgain.plugin as unknown as { keysOnOtherDevices(): string[] }).keysOnOtherDevices()).toEqual([
			madeOnB.name,
		]);
	});

	it("keeps keys in data.json where Obsidian has no secret storage", async () => {
		const { plugin, port } = await enable(
			{ port: 0, keys: [{ name: "claude", key: KEY, created: "2026-11-21T00:00:00Z" }] },
			{ noSecretStorage: true },
		);
		expect(storedKeys(plugin)[0]!.key).toBe(KEY);
		expect((await authorized(port, KEY)).status).toBe(200);
	});
});
