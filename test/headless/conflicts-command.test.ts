/**
 * `conflicts list|dismiss` on a folder: in process over saved records (snapshot and log), and with the BUILT host for
 * the whole story: a refused write, listed beside the running host, dismissal refused while it runs, dismissed once
 * it stopped (the record stays, its .bak too), and the next host reading it as dismissed.
 */
import { spawn } from "child_process";
import { mkdtemp, readFile, readdir, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ConflictRecord } from "../../src/core/conflicts";
import { parseConflictsArgs, runConflicts } from "../../src/headless/conflicts-command";
import { takeLock } from "../../src/headless/folder-lock";
import { holderRecord } from "../../src/host/running-marker";
import { killSpawnedHosts, requireBuiltCli, runCli, serveHost, stop } from "../helpers/spawned-host";
import { allFiles, writeVaultFile } from "../helpers/vault-files";

let dir: string;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-conflicts-"));
});

afterEach(async () => {
	killSpawnedHosts();
	await rm(dir, { recursive: true, force: true });
});

async function conflicts(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
	const args = parseConflictsArgs([...argv, "--vault", dir]);
	if (args.command === "error") throw new Error(args.message);
	let out = "";
	let err = "";
	const code = await runConflicts(
		args,
		(text) => (out += text),
		(text) => (err += text),
	);
	return { code, out, err };
}

function record(id: string, status: ConflictRecord["status"] = "open"): ConflictRecord {
	return {
		id,
		path: "Inbox.md",
		reason: "stale",
		sentRevision: "a",
		currentRevision: "b",
		proposedRevision: "c",
		backupPath: `Inbox.${id}.bak.md`,
		agent: "claude",
		time: "2026-11-27T14:55:16.000Z",
		status,
	};
}

/** Saved records as a host leaves them: a snapshot holding changes up to `journalSeq`, and log lines after it. */
async function saved(snapshot: ConflictRecord[], seq: number, lines: object[]): Promise<void> {
	await writeVaultFile(
		dir,
		".revision-guard/conflicts.json",
		JSON.stringify({ version: 1, records: snapshot, journalSeq: seq }),
	);
	if (lines.length > 0)
		await writeVaultFile(
			dir,
			".revision-guard/conflicts.jsonl",
			lines.map((line) => JSON.stringify(line) + "\n").join(""),
		);
}

const listed = async (...argv: string[]) =>
	(JSON.parse((await conflicts("list", "--json", ...argv)).out) as { conflicts: ConflictRecord[] }).conflicts;

describe("conflicts on a folder", () => {
	it("lists the records of the snapshot and the log, newest first, and filters by status", async () => {
		// Line 1 is already in the snapshot (a crash before the log's removal): it must not undo line 3's status.
		await saved([record("c-1"), record("c-2")], 2, [
			{ seq: 1, put: record("c-1") },
			{ seq: 3, put: record("c-1", "resolved") },
			{ seq: 4, put: record("c-3") },
		]);
		expect((await listed()).map((found) => [found.id, found.status])).toEqual([
			["c-3", "open"],
			["c-2", "open"],
			["c-1", "resolved"],
		]);
		expect((await listed("--status", "open")).map((found) => found.id)).toEqual(["c-3", "c-2"]);
		const text = await conflicts("list");
		expect(text.out.split("\n")[0]).toBe(
			"c-3  open  2026-11-27T14:55:16.000Z  Inbox.md  from claude: stale, kept in Inbox.c-3.bak.md",
		);
		expect((await conflicts("list", "--status", "dismissed")).out).toBe("No dismissed conflicts.\n");
	});

	it("dismisses an open conflict: the record stays, dismissed, and nothing else changes", async () => {
		await saved([record("c-1"), record("c-2")], 2, []);
		await writeVaultFile(dir, "Inbox.c-1.bak.md", "the agent's text\n");
		const dismissed = await conflicts("dismiss", "c-1");
		expect(dismissed).toMatchObject({ code: 0, err: "" });
		expect(dismissed.out).toContain(
			"Dismissed conflict c-1 on Inbox.md: the note stays as it is. The agent's text stays in Inbox.c-1.bak.md.",
		);
		const after = await listed();
		expect(after.find((found) => found.id === "c-1")).toMatchObject({
			...record("c-1", "dismissed"),
			resolvedAt: expect.any(String),
		});
		expect(after.find((found) => found.id === "c-2")).toEqual(record("c-2"));
		expect(await readFile(join(dir, "Inbox.c-1.bak.md"), "utf8")).toBe("the agent's text\n");
		// The lock is released, and nothing but the journal changed (the dismissal is a line of its log, as a host writes it).
		expect((await allFiles(dir)).sort()).toEqual([
			".revision-guard/conflicts.json",
			".revision-guard/conflicts.jsonl",
			"Inbox.c-1.bak.md",
		]);
		expect((await conflicts("dismiss", "c-1")).out).toBe("Conflict c-1 is already dismissed; nothing was changed.\n");
	});

	it("refuses an id it does not know, saying how to list them", async () => {
		await saved([record("c-1")], 1, []);
		const missing = await conflicts("dismiss", "c-9");
		expect(missing.code).toBe(1);
		expect(missing.err).toContain('There is no conflict "c-9"; nothing was changed. List them with: conflicts list.');
	});

	it("refuses to dismiss while a host holds the folder, naming it and changing nothing", async () => {
		await saved([record("c-1")], 1, []);
		const host = await takeLock(join(dir, ".revision-guard/host.lock"), holderRecord("headless", 27125));
		if (!("held" in host)) throw new Error("could not take the lock");
		const before = await readFile(join(dir, ".revision-guard/conflicts.json"), "utf8");
		const refused = await conflicts("dismiss", "c-1");
		expect(refused.code).toBe(1);
		expect(refused.err).toContain(`A Revision Guard host (pid ${process.pid} on this machine`);
		expect(refused.err).toContain(
			"conflict records are written by one process at a time, so nothing was changed. Stop it first",
		);
		expect(await readFile(join(dir, ".revision-guard/conflicts.json"), "utf8")).toBe(before);
		// Listing only reads: it works beside the host.
		expect((await listed()).map((found) => found.id)).toEqual(["c-1"]);
		await host.held.release();
	});

	it("takes over the lock of a host that died, and says so", async () => {
		await saved([record("c-1")], 1, []);
		const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
		await new Promise((resolve) => child.on("exit", resolve));
		await takeLock(join(dir, ".revision-guard/host.lock"), { ...holderRecord("headless", 27125), pid: child.pid! });
		const dismissed = await conflicts("dismiss", "c-1");
		expect(dismissed.code).toBe(0);
		expect(dismissed.err).toContain(`from a host that is no longer running (pid ${child.pid}`);
	});

	it("never replaces a snapshot it cannot read", async () => {
		await writeVaultFile(dir, ".revision-guard/conflicts.json", "{ torn");
		const refused = await conflicts("dismiss", "c-1");
		expect(refused.code).toBe(1);
		expect(refused.err).toContain("cannot be read as JSON");
		expect(await readFile(join(dir, ".revision-guard/conflicts.json"), "utf8")).toBe("{ torn");
		expect(await readdir(join(dir, ".revision-guard"))).toEqual(["conflicts.json"]);
	});

	it("reads its words strictly", () => {
		expect(parseConflictsArgs(["list", "--status", "closed"])).toEqual({
			command: "error",
			message: "--status must be one of open, resolved, dismissed.",
		});
		expect(parseConflictsArgs(["dismiss"])).toMatchObject({ command: "error" });
		expect(parseConflictsArgs(["dismiss", "c-1", "--json"])).toMatchObject({ command: "error" });
		expect(parseConflictsArgs(["list", "--status=open", "--json"])).toEqual({
			command: "conflicts",
			action: "list",
			id: "",
			status: "open",
			json: true,
			vault: "demo-vault",
		});
	});
});

describe("conflicts and the built host", () => {
	beforeAll(requireBuiltCli);

	it("a refused write is listed beside the running host, dismissed once it stopped, and read as dismissed by the next", async () => {
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n");
		const host = await serveHost(["--vault", dir, "--port", "0"], dir);
		const read = await host.api("/vault/Inbox.md");
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n\nThe person's line.\n");
		const refused = await host.api("/vault/Inbox.md", {
			method: "PUT",
			headers: { "If-Match": String(read.headers.etag) },
			body: "agent\n",
		});
		expect(refused.status).toBe(412);
		const { conflictId: id, backupPath } = refused.json<{ conflictId: string; backupPath: string }>();

		const listedBeside = await runCli(["conflicts", "list", "--status", "open", "--vault", dir], dir);
		expect(listedBeside.code).toBe(0);
		expect(listedBeside.out).toContain(`${id}  open  `);
		const early = await runCli(["conflicts", "dismiss", id, "--vault", dir], dir);
		expect(early.code).toBe(1);
		expect(early.err).toContain(`A Revision Guard host (pid ${host.child.pid} on this machine`);

		expect(await stop(host, "SIGTERM")).toEqual({ code: 0, signal: null });
		const dismissed = await runCli(["conflicts", "dismiss", id, "--vault", dir], dir);
		expect(dismissed.code, dismissed.err).toBe(0);
		expect(await readFile(join(dir, backupPath), "utf8")).toBe("agent\n");
		expect((await runCli(["conflicts", "list", "--status", "open", "--vault", dir], dir)).out).toBe(
			"No open conflicts.\n",
		);

		const next = await serveHost(["--vault", dir, "--port", "0"], dir);
		const after = await next.api(`/conflicts/${encodeURIComponent(id)}`);
		expect(after.json<ConflictRecord>()).toMatchObject({ id, status: "dismissed", backupPath });
	});
});
