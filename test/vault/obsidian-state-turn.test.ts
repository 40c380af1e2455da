/**
 * Turns at the plugin folder's state between plugin instances of one window: Obsidian makes the next instance while
 * the disabled one still saves (onunload is not awaited), so the next reads the state only once the last is done.
 */
import { mkdtemp, readdir, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import type { DataAdapter as ObsidianAdapter } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeTimers } from "../../src/headless/node-timers";
import { OWNERS_FOLDER, StateTurn, type TurnOptions } from "../../src/vault/obsidian-state-turn";
import { DataAdapter } from "../obsidian-stub";

const FOLDER = ".obsidian/plugins/revision-guard";
let dir: string;
let warnings: string[];

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-turn-"));
	warnings = [];
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

function options(stopped = () => false): TurnOptions {
	const adapter = new DataAdapter(dir) as unknown as ObsidianAdapter;
	return { adapter, folder: FOLDER, timers: nodeTimers, stopped, warn: (message) => warnings.push(message) };
}

const claims = () => readdir(join(dir, FOLDER, OWNERS_FOLDER));

describe("StateTurn", () => {
	it("gives the next instance its turn only once the one before has handed the state on", async () => {
		const first = (await StateTurn.take(options()))!;
		let secondHasIt = false;
		const second = StateTurn.take(options()).then((turn) => {
			secondHasIt = true;
			return turn!;
		});
		// The first instance's last save takes a while; the second waits all along.
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(secondHasIt).toBe(false);
		await first.release();
		await (await second).release();
		expect(secondHasIt).toBe(true);
		expect(await claims()).toEqual([]);
		expect(warnings).toEqual([]);
	});

	it("lets an instance disabled while it waits give its turn up, without holding up the next", async () => {
		const first = (await StateTurn.take(options()))!;
		let disabled = false;
		const second = StateTurn.take(options(() => disabled));
		await new Promise((resolve) => setTimeout(resolve, 100));
		disabled = true;
		// Given up while the first still has the state: it never read it.
		expect(await second).toBeNull();
		const third = StateTurn.take(options());
		await first.release();
		await (await third)!.release();
		expect(await claims()).toEqual([]);
	});

	it("takes no turn at all when disabled before its claim was on disk, and leaves no claim", async () => {
		expect(await StateTurn.take(options(() => true))).toBeNull();
		expect(await claims()).toEqual([]);
	});

	it("does not wait for claims of another window (Obsidian quit or crashed without unloading), and removes them", async () => {
		await new DataAdapter(dir).mkdir(`${FOLDER}/${OWNERS_FOLDER}`);
		await writeFile(join(dir, FOLDER, OWNERS_FOLDER, "1abc-1-stale"), "");
		const turn = (await StateTurn.take(options()))!;
		expect(await claims()).toHaveLength(1);
		await turn.release();
		expect(await claims()).toEqual([]);
		expect(warnings).toEqual([]);
	});

	it("hands on once, however often it is released", async () => {
		const turn = (await StateTurn.take(options()))!;
		await Promise.all([turn.release(), turn.release()]);
		await turn.release();
		expect(await claims()).toEqual([]);
	});
});
