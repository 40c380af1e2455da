/**
 * The BUILT headless host (dist/cli.js; `npm test` builds it first) as a person runs it: spawned with node, talked
 * to over HTTP and with the printed curl lines, and stopped with a signal.
 */
import { execFile } from "child_process";
import { existsSync } from "fs";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "fs/promises";
import { createServer, type Server, type Socket } from "net";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { call } from "../helpers/http-client";
import { forbidServerErrors } from "../helpers/no-server-errors";
import {
	killSpawnedHosts,
	launch,
	READY_LINE,
	requireBuiltCli,
	serveHost,
	stop,
	until,
	within,
	type Served,
} from "../helpers/spawned-host";
import { allFiles, writeVaultFile } from "../helpers/vault-files";

const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}$/;

let dir: string;

/** Starts the host (in the test's folder unless told) and waits for its welcome text. */
const serve = (args: string[], cwd = dir): Promise<Served> => serveHost(args, cwd);

/** The printed lines to paste: the export, then steps 1, 2 and 3. */
function tryLines(welcome: string): { exportLine: string; steps: string[] } {
	const lines = welcome.split("\n").map((line) => line.trim());
	const exportLine = lines.find((line) => line.startsWith("export RG="));
	const steps = [1, 2, 3].map((n) => lines[lines.findIndex((line) => line.startsWith(`# ${n}.`)) + 1] ?? "");
	expect(exportLine, welcome).toBeDefined();
	for (const step of steps) expect(step, welcome).toContain("curl ");
	return { exportLine: exportLine!, steps };
}

function bash(script: string): Promise<string> {
	return new Promise((resolve, reject) =>
		execFile("bash", ["-c", script], { timeout: 10_000 }, (error, stdout, stderr) =>
			error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
		),
	);
}

const hasCurl = (): Promise<boolean> =>
	bash("command -v curl").then(
		() => true,
		() => false,
	);

/**
 * Runs the three printed lines in bash and returns each step's HTTP status. Without curl on this machine, the same
 * three requests (read, update with the ETag, stale update with the same ETag) are sent with the test client instead.
 */
async function runTryLines(served: Served): Promise<number[]> {
	const { exportLine, steps } = tryLines(served.welcome);
	if (await hasCurl()) {
		const output = await bash([exportLine, ...steps.flatMap((step) => [step, "echo '@@step-done@@'"])].join("\n"));
		return output
			.split("@@step-done@@")
			.slice(0, 3)
			.map((part) => Number(/^HTTP\/[\d.]+ (\d{3})/m.exec(part)?.[1]));
	}
	const url = new URL(steps[0]!.split(" ").at(-1)!);
	const read = await served.api(url.pathname);
	const etag = String(read.headers.etag);
	const update = await served.api(url.pathname, {
		method: "PUT",
		headers: { "If-Match": etag },
		body: "# Updated\n\nUpdated by an agent.\n",
	});
	const stale = await served.api(url.pathname, { method: "PUT", headers: { "If-Match": etag }, body: "stale copy\n" });
	return [read.status, update.status, stale.status];
}

/** Every file under `root` with its bytes, to compare a folder before and after. */
async function snapshotOf(root: string): Promise<Record<string, string>> {
	const files = await allFiles(root);
	return Object.fromEntries(
		await Promise.all(
			files.map(async (path) => [path, (await readFile(join(root, path))).toString("base64")] as const),
		),
	);
}

async function backups(root: string): Promise<string[]> {
	return (await allFiles(root)).filter((path) => path.endsWith(".bak.md"));
}

forbidServerErrors();

beforeAll(requireBuiltCli);

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-cli-"));
});

afterEach(async () => {
	killSpawnedHosts();
	await rm(dir, { recursive: true, force: true });
});

describe("the headless host serving a folder", () => {
	it("prints the URL, a key and curl lines for a real note of that folder, and the key works", async () => {
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n\n- call Ada\n");
		await writeVaultFile(dir, "Projects/Plan.md", "# Plan\n");
		const host = await serve(["--vault", dir, "--port", "0"]);
		expect(host.welcome).toContain(`Revision Guard is serving ${dir}`);
		expect(host.welcome).toContain("2 notes tracked");
		expect(host.welcome).not.toContain("Created a demo vault");
		expect(host.key).toMatch(BASE64URL_KEY);
		// Both variables the README's examples use.
		expect(host.welcome).toContain(`export RG=http://127.0.0.1:${host.port} RG_KEY=${host.key}`);
		const { steps } = tryLines(host.welcome);
		for (const step of steps) {
			expect(step).toContain(`http://127.0.0.1:${host.port}/vault/Inbox.md`);
			expect(step).not.toContain("Welcome.md");
		}
		expect(host.welcome).not.toContain("Welcome.md");

		const read = await host.api("/vault/Inbox.md");
		expect(read.status).toBe(200);
		expect(read.text).toBe("# Inbox\n\n- call Ada\n");
		expect(read.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
		expect((await call(host.port, "/vault/Inbox.md")).status).toBe(401);
		expect(
			(await host.api("/vault/Inbox.md", { headers: { Authorization: "Bearer wrong-key-0123456789" } })).status,
		).toBe(401);
	});

	it("refuses a PUT based on a revision older than an edit made on disk, with 412 and a .bak", async () => {
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n");
		const host = await serve(["--vault", dir, "--port", "0"]);
		const read = await host.api("/vault/Inbox.md");
		expect(read.status).toBe(200);
		await writeFile(join(dir, "Inbox.md"), "# Inbox\n\nTyped by a person in another editor.\n");

		const stale = await host.api("/vault/Inbox.md", {
			method: "PUT",
			headers: { "If-Match": String(read.headers.etag) },
			body: "# Inbox\n\nThe agent's copy.\n",
		});
		expect(stale.status, stale.text).toBe(412);
		expect(await readFile(join(dir, "Inbox.md"), "utf8")).toBe("# Inbox\n\nTyped by a person in another editor.\n");
		const kept = await backups(dir);
		expect(kept).toHaveLength(1);
		expect(kept[0]).toMatch(/^Inbox\.\d{8}-\d{6}\.bak\.md$/);
		expect(await readFile(join(dir, kept[0]!), "utf8")).toBe("# Inbox\n\nThe agent's copy.\n");
		await until(
			host,
			() => host.out().includes(`refused a stale write to Inbox.md from agent; its content is kept in ${kept[0]}`),
			"the refusal to be logged",
		);
	});

	it("says when another program's save dropped the edits saved before it, and where they are kept", async () => {
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n\n- one\n\nnotes\n");
		const host = await serve(["--vault", dir, "--port", "0"]);
		expect((await host.api("/vault/Inbox.md")).status).toBe(200);
		await writeFile(join(dir, "Inbox.md"), "# Inbox\n\n- one\n- two (person)\n\nnotes\n");
		// The person's save is seen before the script's (two saves within the watcher's window are one).
		await vi.waitFor(
			async () =>
				expect((await host.api("/history/Inbox.md")).json<{ revisions: unknown[] }>().revisions).toHaveLength(2),
			{ timeout: 10_000, interval: 50 },
		);
		await writeFile(join(dir, "Inbox.md"), "# Inbox\n\n- one\n\nnotes from a script\n");
		await until(
			host,
			() =>
				/another program saved Inbox\.md without the changes saved before it; that text is kept in Inbox\.\d{8}-\d{6}\.bak\.md/.test(
					host.out(),
				),
			"the outside save to be logged",
		);
	});

	it("prints curl lines that work on a note whose path needs encoding", async () => {
		await writeVaultFile(dir, "My Notes/It's (an) idea!.md", "# Idea\n");
		const host = await serve(["--vault", dir, "--port", "0"]);
		expect(tryLines(host.welcome).steps[0]).toContain("/vault/My%20Notes/It%27s%20%28an%29%20idea%21.md");
		expect(await runTryLines(host)).toEqual([200, 204, 412]);
		expect(await readFile(join(dir, "My Notes/It's (an) idea!.md"), "utf8")).toBe(
			"# Updated\n\nUpdated by an agent.\n",
		);
		const kept = await backups(dir);
		expect(kept).toHaveLength(1);
		expect(await readFile(join(dir, kept[0]!), "utf8")).toBe("stale copy\n");
	});

	it("shows a placeholder, not a note that does not exist, when the folder has no notes", async () => {
		const host = await serve(["--vault", dir, "--port", "0"]);
		expect(host.welcome).toContain("0 notes tracked");
		expect(host.welcome).not.toContain("Welcome.md");
		expect(host.welcome).toContain("This folder has no notes yet");
		for (const step of tryLines(host.welcome).steps)
			expect(step).toContain(`http://127.0.0.1:${host.port}/vault/YOUR-NOTE.md`);
		// A folder given with --vault is never filled with demo notes.
		expect(await allFiles(dir).then((files) => files.filter((path) => !path.startsWith(".revision-guard/")))).toEqual(
			[],
		);
	});

	it("prints a ready-to-paste Claude Code command and MCP client JSON for its port and key, and they work", async () => {
		await writeVaultFile(dir, "a.md", "a\n");
		const host = await serve(["--vault", dir, "--port", "0"]);
		const mcpUrl = `http://127.0.0.1:${host.port}/mcp`;
		const lines = host.welcome.split("\n").map((line) => line.trim());
		expect(lines).toContain(
			`claude mcp add --transport http revision-guard ${mcpUrl} --header "Authorization: Bearer ${host.key}"`,
		);
		const json = lines.find((line) => line.startsWith('{"mcpServers"'));
		expect(json, host.welcome).toBeDefined();
		const config = JSON.parse(json!) as {
			mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
		};
		expect(config).toEqual({
			mcpServers: { "revision-guard": { type: "http", url: mcpUrl, headers: { Authorization: `Bearer ${host.key}` } } },
		});
		// What a client configured from it sends: an MCP initialize to that URL with that header.
		const entry = config.mcpServers["revision-guard"]!;
		const initialize = await call(host.port, new URL(entry.url).pathname, {
			method: "POST",
			headers: { ...entry.headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
			body: JSON.stringify({
				jsonrpc: "2.0",
				id: 1,
				method: "initialize",
				params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "0" } },
			}),
		});
		expect(initialize.status, initialize.text).toBe(200);
		expect(initialize.text).toContain("serverInfo");
	});

	it("accepts a key given with --api-key and prints it", async () => {
		const key = "my-own-cli-key-0123456789";
		const host = await serve(["--vault", dir, "--port", "0", "--api-key", key]);
		expect(host.key).toBe(key);
		await writeVaultFile(dir, "a.md", "a\n");
		expect((await host.api("/vault/a.md")).status).toBe(200);
	});

	it("keeps its generated key for the next run", async () => {
		const first = await serve(["--vault", dir, "--port", "0"]);
		expect((await stop(first, "SIGTERM")).code).toBe(0);
		const second = await serve(["--vault", dir, "--port", "0"]);
		expect(second.key).toBe(first.key);
	});

	it.each(["SIGTERM", "SIGINT"] as const)("stops cleanly with exit code 0 on %s", async (signal) => {
		await writeVaultFile(dir, "a.md", "a\n");
		const host = await serve(["--vault", dir, "--port", "0"]);
		const exit = await stop(host, signal);
		expect(exit).toEqual({ code: 0, signal: null });
		expect(host.out()).toContain(`${signal}: stopping…`);
		expect(host.err()).toBe("");
		await expect(call(host.port, "/")).rejects.toThrow();
	});

	it("already stops cleanly on a signal sent the moment it says Ctrl+C stops it", async () => {
		// Several at once, each signalled from the very data event that brings the ready line: if the handlers were
		// installed after that line was printed, some of these would die by the signal instead of exiting 0.
		// Each on its own folder: one folder is served by one host at a time (a second refuses; see one-host.test.ts).
		const folders = [0, 1, 2, 3].map((i) => join(dir, `vault-${i}`));
		for (const folder of folders) await writeVaultFile(folder, "a.md", "a\n");
		const hosts = folders.map((folder, i) => {
			const host = launch(["--vault", folder, "--port", "0"], dir);
			const signal = i % 2 === 0 ? "SIGTERM" : "SIGINT";
			host.child.stdout!.on("data", () => {
				if (host.out().includes(READY_LINE)) host.child.kill(signal);
			});
			return { host, signal };
		});
		for (const { host, signal } of hosts) {
			expect(await within(host.exited, 10_000, `the host to exit on ${signal}`), host.out() + host.err()).toEqual({
				code: 0,
				signal: null,
			});
			expect(host.out()).toContain(READY_LINE);
			expect(host.out()).toContain(`${signal}: stopping…`);
		}
	});
});

describe("the headless host serving the demo vault", () => {
	it("creates the demo vault, and its three printed curl lines answer 200, 204 and 412", async () => {
		const host = await serve(["--port", "0"]);
		const vault = join(dir, "demo-vault");
		expect(host.welcome).toContain(`Created a demo vault in ${vault}`);
		expect(host.welcome).toContain("3 notes tracked");
		const { steps } = tryLines(host.welcome);
		for (const step of steps) expect(step).toContain(`http://127.0.0.1:${host.port}/vault/Welcome.md`);

		expect(await runTryLines(host)).toEqual([200, 204, 412]);
		expect(await readFile(join(vault, "Welcome.md"), "utf8")).toBe("# Updated\n\nUpdated by an agent.\n");
		const kept = await backups(vault);
		expect(kept).toHaveLength(1);
		expect(kept[0]).toMatch(/^Welcome\.\d{8}-\d{6}\.bak\.md$/);
		expect(await readFile(join(vault, kept[0]!), "utf8")).toBe("stale copy\n");
		expect(await stop(host, "SIGINT")).toEqual({ code: 0, signal: null });
	});

	it("run a second time, names the demo's Welcome.md in its curl lines, not the .bak the first run's stale write left", async () => {
		const first = await serve(["--port", "0"]);
		expect(await runTryLines(first)).toEqual([200, 204, 412]);
		const vault = join(dir, "demo-vault");
		const kept = await backups(vault);
		// The .bak sorts before Welcome.md: "Welcome.2026…" < "Welcome.md".
		expect(kept[0]! < "Welcome.md").toBe(true);
		expect(await stop(first, "SIGINT")).toEqual({ code: 0, signal: null });

		const second = await serve(["--port", "0"]);
		for (const step of tryLines(second.welcome).steps)
			expect(step).toContain(`http://127.0.0.1:${second.port}/vault/Welcome.md`);
		expect(second.welcome).not.toContain(".bak.md");
	});

	it("serves an existing demo vault as it is", async () => {
		await writeVaultFile(dir, "demo-vault/Mine.md", "# Mine\n");
		const host = await serve(["--port", "0"]);
		expect(host.welcome).not.toContain("Created a demo vault");
		expect(host.welcome).toContain("1 notes tracked");
		expect(tryLines(host.welcome).steps[0]).toContain("/vault/Mine.md");
		expect(
			await allFiles(join(dir, "demo-vault")).then((files) =>
				files.filter((path) => !path.startsWith(".revision-guard/")),
			),
		).toEqual(["Mine.md"]);
	});
});

describe("the headless host's command line", () => {
	let blocker: Server | null = null;
	const blocked = new Set<Socket>();
	afterEach(async () => {
		// The host may have connected to ask who holds the port; a server that never reads keeps such sockets open.
		for (const socket of blocked) socket.destroy();
		blocked.clear();
		await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
		blocker = null;
	});

	it("exits with code 1 and says so when the port is in use", async () => {
		blocker = createServer((socket) => blocked.add(socket));
		const port = await new Promise<number>((resolve) =>
			blocker!.listen(0, "127.0.0.1", () => resolve((blocker!.address() as { port: number }).port)),
		);
		const host = launch(["--vault", dir, "--port", String(port)], dir);
		const exit = await within(host.exited, 10_000, "the host to give up");
		expect(exit).toEqual({ code: 1, signal: null });
		expect(host.err()).toContain(`Port ${port} is in use; pick another with --port N.`);
		expect(host.out()).not.toContain(READY_LINE);
	});

	it("leaves the folder as it was when the port is in use: no state folder, no key", async () => {
		blocker = createServer((socket) => blocked.add(socket));
		const port = await new Promise<number>((resolve) =>
			blocker!.listen(0, "127.0.0.1", () => resolve((blocker!.address() as { port: number }).port)),
		);
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n");
		const host = launch(["--vault", dir, "--port", String(port)], dir);
		expect(await within(host.exited, 10_000, "the host to give up")).toEqual({ code: 1, signal: null });
		expect(host.err()).toContain("--port N");
		expect(await allFiles(dir)).toEqual(["Inbox.md"]);

		// Nor is a folder made for --create, or the demo vault.
		const missing = join(dir, "New");
		const create = launch(["--vault", missing, "--create", "--port", String(port)], dir);
		expect(await within(create.exited, 10_000, "the host to give up")).toEqual({ code: 1, signal: null });
		expect(existsSync(missing)).toBe(false);
		const demo = launch(["--port", String(port)], dir);
		expect(await within(demo.exited, 10_000, "the host to give up")).toEqual({ code: 1, signal: null });
		expect(existsSync(join(dir, "demo-vault"))).toBe(false);
	});

	it("leaves an existing state folder exactly as it was when the port is in use", async () => {
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n");
		const first = await serve(["--vault", dir, "--port", "0"]);
		expect(await stop(first, "SIGTERM")).toEqual({ code: 0, signal: null });
		const before = await snapshotOf(dir);
		blocker = createServer((socket) => blocked.add(socket));
		const port = await new Promise<number>((resolve) =>
			blocker!.listen(0, "127.0.0.1", () => resolve((blocker!.address() as { port: number }).port)),
		);
		const host = launch(["--vault", dir, "--port", String(port)], dir);
		expect(await within(host.exited, 10_000, "the host to give up")).toEqual({ code: 1, signal: null });
		expect(await snapshotOf(dir)).toEqual(before);
	});

	it("names --port N when Revision Guard itself holds the port", async () => {
		const other = join(dir, "Other");
		await writeVaultFile(other, "a.md", "a\n");
		const holder = await serve(["--vault", other, "--port", "0"]);
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n");
		const host = launch(["--vault", join(dir), "--port", String(holder.port)], join(dir, "Other"));
		expect(await within(host.exited, 10_000, "the host to give up")).toEqual({ code: 1, signal: null });
		expect(host.err()).toContain(
			`Port ${holder.port} is already used by Revision Guard for the vault "Other"; pick another with --port N.`,
		);
		expect(host.err()).not.toContain("settings");
		expect((await allFiles(dir)).filter((path) => !path.startsWith("Other/"))).toEqual(["Inbox.md"]);
	});

	it.each([["--help"], ["-h"]])("prints the usage for %s and exits 0", async (flag) => {
		const host = launch([flag], dir);
		expect(await within(host.exited, 10_000, "the host to exit")).toEqual({ code: 0, signal: null });
		expect(host.out()).toMatch(/^Usage:\n/);
		expect(host.out()).toContain("--vault DIR");
		expect(host.err()).toBe("");
		expect(existsSync(join(dir, "demo-vault"))).toBe(false);
	});

	it("refuses a --vault folder that does not exist (a typo must not serve an empty vault), and creates it with --create", async () => {
		const missing = join(dir, "Notse");
		const host = launch(["--vault", missing, "--port", "0"], dir);
		expect(await within(host.exited, 10_000, "the host to exit")).toEqual({ code: 2, signal: null });
		expect(host.err()).toContain(`The folder ${missing} does not exist`);
		expect(host.err()).toContain("add --create");
		expect(existsSync(missing)).toBe(false);
		const created = await serve(["--vault", missing, "--create", "--port", "0"]);
		expect(existsSync(missing)).toBe(true);
		expect((await created.api("/vault/")).status).toBe(200);
		await stop(created, "SIGTERM");
	});

	it("says plainly that a --vault file is not a folder", async () => {
		const file = join(dir, "notes.md");
		await writeFile(file, "# not a folder\n");
		const host = launch(["--vault", file, "--port", "0"], dir);
		expect(await within(host.exited, 10_000, "the host to exit")).toEqual({ code: 2, signal: null });
		expect(host.err()).toContain(`${file} is a file, not a folder.`);
		expect(host.err()).not.toContain("EEXIST");
	});

	it("keeps its settings file (which holds the keys) private to the user, even one an older version left readable", async () => {
		const state = join(dir, ".revision-guard");
		await mkdir(state, { recursive: true });
		await writeFile(
			join(state, "settings.json"),
			JSON.stringify({ keys: [{ name: "old", key: "k".repeat(43), created: "2026-01-01" }] }),
			{ mode: 0o644 },
		);
		const host = await serve(["--vault", dir, "--port", "0"]);
		expect((await stat(join(state, "settings.json"))).mode & 0o777).toBe(0o600);
		await stop(host, "SIGTERM");
		const fresh = join(dir, "fresh");
		const second = await serve(["--vault", fresh, "--create", "--port", "0"]);
		expect((await stat(join(fresh, ".revision-guard", "settings.json"))).mode & 0o777).toBe(0o600);
		await stop(second, "SIGTERM");
	});

	it("exits 2 with the problem and the usage on a bad argument", async () => {
		const host = launch(["--port", "http"], dir);
		expect(await within(host.exited, 10_000, "the host to exit")).toEqual({ code: 2, signal: null });
		expect(host.err()).toMatch(/^--port needs a number from 0 to 65535\.\n\nUsage:/);
		expect(host.out()).toBe("");
		expect(existsSync(join(dir, "demo-vault"))).toBe(false);
	});
});
