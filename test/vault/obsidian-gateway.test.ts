// @vitest-environment node
import { mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ObsidianGateway } from "../../src/vault/obsidian-gateway";
import { App } from "../obsidian-stub";

let dir: string;
let app: App;
let gateway: ObsidianGateway;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-ogw-"));
	await writeFile(join(dir, "n.md"), "start\n");
	app = new App(dir);
	gateway = new ObsidianGateway(
		app as unknown as ObsidianApp,
		() => undefined,
		async () => undefined,
	);
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** What only the Obsidian gateway does; what every gateway promises is in gateway-contract.ts. */
describe("ObsidianGateway", () => {
	it("gives a note's identity with its text once the file has settled, never with an editor's text, and a new one after any change", async () => {
		expect((await gateway.read("n.md"))?.identity).toBeUndefined();
		vi.useFakeTimers({ toFake: ["Date"] });
		try {
			vi.setSystemTime(Date.now() + 10_000);
			const read = await gateway.read("n.md");
			expect(read?.identity).toBeDefined();
			expect(await gateway.identity("n.md")).toBe(read?.identity);
			app.openEditor("n.md");
			expect((await gateway.read("n.md"))?.identity).toBeUndefined();
		} finally {
			vi.useRealTimers();
		}
		const before = await gateway.identity("n.md");
		await app.vault.modify(app.vault.getFileByPath("n.md")!, "start, and more\n");
		expect(await gateway.identity("n.md")).not.toBe(before);
		expect(await gateway.identity("missing.md")).toBeNull();
	});

	it("checks and writes inside Vault.process", async () => {
		const before = app.vault.processCalls;
		let seen: string | null = null;
		await gateway.mutate("n.md", (current) => {
			seen = current;
			return { kind: "write", content: "next\n", result: null };
		});
		expect(seen).toBe("start\n");
		expect(app.vault.processCalls).toBe(before + 1);
		expect(await readFile(join(dir, "n.md"), "utf8")).toBe("next\n");
	});

	it("checks against an open editor's buffer, unsaved typing included, without saving it", async () => {
		const view = app.openEditor("n.md");
		view.type("typed ");
		let seen: string | null = null;
		await gateway.mutate("n.md", (current) => {
			seen = current;
			return { kind: "keep", result: null };
		});
		expect(seen).toBe("typed start\n");
		expect((await gateway.read("n.md"))?.content).toBe("typed start\n");
		// Nothing was written to look: the file still holds what it held.
		expect(await readFile(join(dir, "n.md"), "utf8")).toBe("start\n");
		expect(app.vault.writeLog).toEqual([]);
	});

	it("decides again when someone creates the note between the check and the create, never overwriting it", async () => {
		const create = app.vault.create.bind(app.vault);
		vi.spyOn(app.vault, "create").mockImplementationOnce(async (path: string) => {
			await create(path, "the person's new note\n");
			throw new Error("File already exists.");
		});
		const seen: (string | null)[] = [];
		const outcome = await gateway.mutate("race.md", (current) => {
			seen.push(current);
			return current === null
				? { kind: "write", content: "agent\n", result: "created" }
				: { kind: "keep", result: "kept" };
		});
		expect(seen).toEqual([null, "the person's new note\n"]);
		expect(outcome.result).toBe("kept");
		expect(await readFile(join(dir, "race.md"), "utf8")).toBe("the person's new note\n");
	});

	it('trashes through FileManager.trashFile, so the person\'s "Deleted files" choice is followed', async () => {
		const trashFile = vi.spyOn(app.fileManager, "trashFile");
		await gateway.mutate("n.md", () => ({ kind: "trash", result: null }));
		expect(trashFile).toHaveBeenCalledTimes(1);
		expect(app.vault.getFileByPath("n.md")).toBeNull();
		expect(await readFile(join(dir, ".trash/n.md"), "utf8")).toBe("start\n");
	});

	it("never creates exclusively over a file on disk that Obsidian has not indexed yet", async () => {
		app.outside.write("synced.md", "just synced\n");
		expect(app.vault.getFileByPath("synced.md")).toBeNull();
		expect(await gateway.createExclusive("synced.md", "the agent's\n")).toBe(false);
		expect(await readFile(join(dir, "synced.md"), "utf8")).toBe("just synced\n");
	});

	it("turns vault events into changes, renames included", async () => {
		const changes: string[] = [];
		gateway.onChange((change) =>
			changes.push(
				change.type === "rename" ? `rename ${change.oldPath}→${change.path}` : `${change.type} ${change.path}`,
			),
		);
		const file = app.vault.getFileByPath("n.md")!;
		await app.vault.modify(file, "changed");
		await app.vault.rename(file, "m.md");
		await app.vault.create("z.md", "z");
		expect(changes).toEqual(["modify n.md", "rename n.md→m.md", "create z.md"]);
	});

	it("lets go of a listener once it unsubscribes, and of the rest when the plugin unloads", () => {
		const heldByPlugin: unknown[] = [];
		const own = new ObsidianGateway(
			app as unknown as ObsidianApp,
			(cleanup) => void heldByPlugin.push(cleanup),
			async () => undefined,
		);
		// Every merge modal subscribes while open; closed ones must not stay reachable from the plugin.
		for (let i = 0; i < 50; i++) own.onChange(() => undefined)();
		expect(app.vault.listenerCount()).toBe(0);
		expect(heldByPlugin.length).toBeLessThanOrEqual(1);
		own.onChange(() => undefined);
		expect(app.vault.listenerCount()).toBe(4);
		for (const cleanup of heldByPlugin) (cleanup as () => void)();
		expect(app.vault.listenerCount()).toBe(0);
	});
});
