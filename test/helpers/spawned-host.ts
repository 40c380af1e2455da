/**
 * The BUILT headless host (dist/cli.js; `npm test` builds it first) as a person runs it: spawned with node, its
 * output collected, its welcome text read for the port and key, stopped with a signal. Every host a test started
 * is killed afterwards by `killSpawnedHosts`.
 */
import { spawn, type ChildProcess } from "child_process";
import { existsSync } from "fs";
import { join } from "path";
import { expect } from "vitest";
import { call } from "./http-client";

export const CLI = join(__dirname, "../../dist/cli.js");
export const READY_LINE = "Press Ctrl+C to stop.";

export interface Exit {
	code: number | null;
	signal: NodeJS.Signals | null;
}

export interface Host {
	child: ChildProcess;
	out: () => string;
	err: () => string;
	exited: Promise<Exit>;
}

export interface Served extends Host {
	port: number;
	key: string;
	welcome: string;
	api: (path: string, options?: Parameters<typeof call>[2]) => ReturnType<typeof call>;
}

const running = new Set<ChildProcess>();

export function requireBuiltCli(): void {
	if (!existsSync(CLI))
		throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm test\` does it for you).`);
}

export function launch(args: string[], cwd: string): Host {
	const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
	running.add(child);
	let out = "";
	let err = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
	const exited = new Promise<Exit>((resolve) =>
		child.on("exit", (code, signal) => {
			running.delete(child);
			resolve({ code, signal });
		}),
	);
	return { child, out: () => out, err: () => err, exited };
}

/** Kills (SIGKILL) every host still running; for afterEach. */
export function killSpawnedHosts(): void {
	for (const child of running) child.kill("SIGKILL");
	running.clear();
}

export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>(
		(_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)),
	);
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function until(host: Host, probe: () => boolean, what: string, ms = 10_000): Promise<void> {
	const deadline = Date.now() + ms;
	let exited = false;
	void host.exited.then(() => (exited = true));
	while (!probe()) {
		if (exited) throw new Error(`the host exited before ${what}.\nstdout:\n${host.out()}\nstderr:\n${host.err()}`);
		if (Date.now() > deadline)
			throw new Error(`timed out waiting for ${what}.\nstdout:\n${host.out()}\nstderr:\n${host.err()}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** Starts the host and waits for its welcome text; the port and key are read from what it printed. */
export async function serveHost(args: string[], cwd: string): Promise<Served> {
	const host = launch(args, cwd);
	await until(host, () => host.out().includes(READY_LINE), "the welcome text");
	const welcome = host.out();
	const port = Number(/REST API: http:\/\/127\.0\.0\.1:(\d+)\//.exec(welcome)?.[1]);
	const key = /API key: +(\S+)/.exec(welcome)?.[1] ?? "";
	expect(port, welcome).toBeGreaterThan(0);
	return {
		...host,
		port,
		key,
		welcome,
		api: (path, options = {}) =>
			call(port, path, { ...options, headers: { Authorization: `Bearer ${key}`, ...options.headers } }),
	};
}

/** Sends `signal` and waits (a few seconds at most) for the host to exit. */
export async function stop(host: Host, signal: NodeJS.Signals): Promise<Exit> {
	host.child.kill(signal);
	return within(host.exited, 5000, `the host to exit on ${signal}`);
}

/** Runs a command (keys, conflicts) of the built CLI to its end. */
export async function runCli(args: string[], cwd: string): Promise<Exit & { out: string; err: string }> {
	const host = launch(args, cwd);
	const exit = await within(host.exited, 10_000, `${args.join(" ")} to finish`);
	return { ...exit, out: host.out(), err: host.err() };
}
