/** .bak names of many refusals in one second: each takes the next free number without trying the taken ones again. */
import { describe, expect, it, vi } from "vitest";
import { nodeTimers } from "../../../src/headless/node-timers";
import { BackupNames } from "../../../src/service/write/backup-names";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";

describe("BackupNames", () => {
	it("lets one refusal at a time try a name, and remembers the number after the last one taken", () => {
		const names = new BackupNames();
		expect(names.claim("a.bak.md")).toBe(true);
		expect(names.claim("a.bak.md")).toBe(false);
		names.release("a.bak.md");
		expect(names.claim("a.bak.md")).toBe(true);
		expect(names.firstToTry("a.bak.md")).toBe(1);
		names.taken("a.bak.md", 3);
		names.taken("a.bak.md", 2);
		expect(names.firstToTry("a.bak.md")).toBe(4);
		expect(names.firstToTry("b.bak.md")).toBe(1);
	});
});

describe("BackupNames.inTurn", () => {
	it("lets at most four write at once; the others wait their turn, and a failed write passes its turn on", async () => {
		const names = new BackupNames();
		let running = 0;
		let most = 0;
		const releases: (() => void)[] = [];
		const write = (fail: boolean) =>
			names.inTurn(async () => {
				running++;
				most = Math.max(most, running);
				await new Promise<void>((resolve) => releases.push(resolve));
				running--;
				if (fail) throw new Error("disk full");
				return "written";
			});
		const outcomes = Array.from({ length: 10 }, (_, n) =>
			write(n === 0).then(
				(value) => value,
				(error: Error) => error.message,
			),
		);
		for (let round = 0; round < 10; round++) {
			await new Promise((resolve) => setImmediate(resolve));
			expect(running).toBeLessThanOrEqual(4);
			releases.shift()?.();
		}
		await new Promise((resolve) => setImmediate(resolve));
		while (releases.length > 0) {
			releases.shift()!();
			await new Promise((resolve) => setImmediate(resolve));
		}
		expect(await Promise.all(outcomes)).toEqual(["disk full", ...Array.from({ length: 9 }, () => "written")]);
		expect(most).toBe(4);
	});
});

describe("refusals of one note within one second", () => {
	it("each try one name: the numbers already taken are not tried again, and every body keeps its own .bak", async () => {
		const gateway = new MemoryGateway({ "a.md": "now\n" });
		const settings = structuredClone(DEFAULT_SETTINGS);
		const guard = await openRevisionGuard({
			gateway,
			storage: new MemoryStorage(),
			settings: () => settings,
			configDir: ".obsidian",
			timers: nodeTimers,
			now: () => Date.UTC(2026, 10, 21, 10, 15, 0),
		});
		const creates = vi.spyOn(gateway, "createExclusive");
		const refusals = 60;
		for (let n = 0; n < refusals; n++) {
			const outcome = await guard.writer.write(writeRequest("a.md", `agent body ${n}\n`, { basedOn: "old\n" }));
			expect(outcome.kind).toBe("refused");
		}
		const backups = [...gateway.notes.keys()].filter((path) => path.endsWith(".bak.md"));
		expect(backups).toHaveLength(refusals);
		for (let n = 0; n < refusals; n++) expect([...gateway.notes.values()]).toContain(`agent body ${n}\n`);
		// 50 numbered names, then random ones; trying every taken number again would have made over a thousand tries.
		expect(creates.mock.calls.length).toBe(refusals);
		await guard.close();
	});
});
