/**
 * Crash safety of the headless host: the built CLI is killed with SIGKILL at random points while writers send large
 * bodies, then restarted on the same folder, ten times over. After every kill:
 *   - each note holds either its last acknowledged body or the body that was in flight, whole: never a torn mix;
 *   - every acknowledged write is there (or the in-flight one written after it);
 *   - every .bak in the vault is byte-equal to a body that was sent for a refused write, and every acknowledged
 *     refusal's .bak exists with exactly those bytes;
 * and after every restart the API serves again, and leftover temp files (hidden `.rg-tmp-` names) never show up as
 * notes, neither in listings nor through GET.
 */
import { spawn, type ChildProcess } from "child_process";
import { createHash, randomBytes } from "crypto";
import { existsSync } from "fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { fileURLToPath } from "url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEMP_MARKER } from "../../src/vault/atomic-file";
import { keepAliveClient, type KeepAliveClient, type KeepAliveResult } from "../helpers/keepalive-client";
import { allFiles } from "../helpers/vault-files";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(ROOT, "dist", "cli.js");
const KEY = "crash-safety-key-0123456789abcdef";
const NOTES = ["Alpha.md", "Projects/Beta.md", "Gamma.md"];
const CYCLES = 10;
const BODY_BYTES = 200 * 1024;
const TEMP_CANARY = "LEFTOVER-TEMP-FILE-CANARY";

interface Host {
	child: ChildProcess;
	port: number;
	stderr: () => string;
}

function startHost(vault: string): Promise<Host> {
	const child = spawn(process.execPath, [CLI, "--vault", vault, "--port", "0", "--api-key", KEY], {
		cwd: ROOT,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
	return new Promise<Host>((resolve, reject) => {
		const fail = (why: string) => {
			child.kill("SIGKILL");
			reject(
				new Error(
					`the headless host did not start (${why}). stdout: ${stdout.slice(0, 2000)} stderr: ${stderr.slice(0, 2000)}`,
				),
			);
		};
		const timer = setTimeout(() => fail("no REST API line within 20 s"), 20_000);
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString("utf8");
			const match = /REST API: http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout);
			if (match) {
				clearTimeout(timer);
				resolve({ child, port: Number(match[1]), stderr: () => stderr });
			}
		});
		child.once("exit", (code, signal) => {
			clearTimeout(timer);
			fail(`it exited with ${code ?? signal}`);
		});
	});
}

function killHard(child: ChildProcess): Promise<void> {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		child.once("exit", () => resolve());
		child.kill("SIGKILL");
	});
}

const hash = (content: string | Buffer) => createHash("sha256").update(content).digest("base64url");

/** A large body that names itself on its first line; its bulk is random so a torn mix of two bodies matches neither. */
function bigBody(label: string): string {
	return `# ${label}\n\n${randomBytes((BODY_BYTES * 3) / 4).toString("base64")}\n`;
}

/** Where the gateway's temp file for `note` would be: a hidden name beside it, with the temp marker. */
function tempNameFor(note: string, suffix: string): string {
	const slash = note.lastIndexOf("/");
	return `${note.slice(0, slash + 1)}.${note.slice(slash + 1)}${TEMP_MARKER}${suffix}`;
}

function urlPath(note: string): string {
	return note.split("/").map(encodeURIComponent).join("/");
}

function etag(answer: KeepAliveResult): string {
	const tag = answer.headers.etag;
	if (typeof tag !== "string") throw new Error(`no ETag (status ${answer.status}: ${answer.text.slice(0, 200)})`);
	return tag;
}

/** What the test knows about one note: its last acknowledged content and the body whose answer never came. */
interface NoteModel {
	acknowledged: string;
	inFlight: string | null;
}

describe("the headless host killed with SIGKILL mid-write", () => {
	let vault: string;
	let host: Host | null = null;

	beforeAll(async () => {
		if (!existsSync(CLI))
			throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test builds it before running vitest).`);
		vault = await mkdtemp(join(tmpdir(), "rg-crash-"));
	});
	afterAll(async () => {
		if (host) await killHard(host.child);
		await rm(vault, { recursive: true, force: true });
	});

	it(
		"leaves every note whole, every acknowledged write in place, every .bak complete, and serves again",
		{ timeout: 150_000 },
		async () => {
			const notes = new Map<string, NoteModel>();
			await mkdir(join(vault, "Projects"));
			for (const note of NOTES) {
				const body = bigBody(`${note} initial`);
				await writeFile(join(vault, note), body);
				notes.set(note, { acknowledged: body, inFlight: null });
			}
			// Every body sent by the stale writer, by hash: a .bak may hold any of them, and nothing else.
			const staleBodies = new Map<string, string>();
			// Refusals that were answered: their .bak must exist with exactly the bytes sent.
			const answeredRefusals: { backupPath: string; body: string }[] = [];
			let sequence = 0;
			let killsMidRequest = 0;
			const leftoverTemps = new Set<string>();

			for (let cycle = 0; cycle < CYCLES; cycle++) {
				host = await startHost(vault);
				const client = keepAliveClient(host.port, { Authorization: `Bearer ${KEY}` }, 8);
				await expectServing(client, notes);

				// The fresh writers keep their tokens current; the stale writers send one the note never had, so each of
				// their PUTs is refused and its body kept as a .bak.
				const tags = new Map<string, string>();
				for (const note of NOTES) tags.set(note, etag(await client.call("GET", `/vault/${urlPath(note)}`)));
				const staleTag = `"${hash(`a revision no note ever had ${cycle}`)}"`;

				let killed = false;
				let acknowledged = 0;
				let refused = 0;
				let wake: () => void = () => undefined;
				const killAfter = 1 + Math.floor(Math.random() * 8);
				const killAfterRefusals = Math.floor(Math.random() * 3);
				const inFlightAtKill = new Set<string>();

				const freshWriter = async (note: string) => {
					const model = notes.get(note)!;
					while (!killed) {
						const body = bigBody(`${note} write ${++sequence}`);
						model.inFlight = body;
						inFlightAtKill.add(note);
						let answer: KeepAliveResult;
						try {
							answer = await client.call("PUT", `/vault/${urlPath(note)}`, {
								body,
								headers: { "If-Match": tags.get(note)! },
							});
						} catch {
							return; // the host died with this write in flight: it stays in the model as a candidate
						}
						inFlightAtKill.delete(note);
						expect(answer.status, answer.text.slice(0, 300)).toBe(204);
						model.acknowledged = body;
						model.inFlight = null;
						tags.set(note, etag(answer));
						acknowledged++;
						wake();
					}
				};
				const staleWriter = async (note: string) => {
					while (!killed) {
						const body = bigBody(`${note} stale ${++sequence}`);
						staleBodies.set(hash(body), body);
						let answer: KeepAliveResult;
						try {
							answer = await client.call("PUT", `/vault/${urlPath(note)}`, { body, headers: { "If-Match": staleTag } });
						} catch {
							return;
						}
						if (answer.status === 204) throw new Error("a write with a stale token was accepted");
						expect(answer.status, answer.text.slice(0, 300)).toBe(412);
						const { backupPath } = JSON.parse(answer.text) as { backupPath: string };
						answeredRefusals.push({ backupPath, body });
						refused++;
						wake();
					}
				};

				// A holder, because TypeScript cannot see assignments made in callbacks.
				const failed: { error: Error | null } = { error: null };
				const ready = new Promise<void>((resolve) => {
					wake = () => {
						if ((acknowledged >= killAfter && refused >= killAfterRefusals) || failed.error !== null) resolve();
					};
				});
				const writers = [...NOTES.map(freshWriter), staleWriter(NOTES[0]!), staleWriter(NOTES[1]!)].map((writer) =>
					writer.catch((error: unknown) => {
						failed.error ??= error instanceof Error ? error : new Error(String(error));
						wake();
					}),
				);
				// Kill after a random number of acknowledged writes plus a random few milliseconds, so kills land at
				// different points of the write step (temp file, fsync, rename, .bak link, state files).
				await ready;
				await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 12)));
				killed = true;
				await killHard(host.child);
				host = null;
				await Promise.all(writers);
				client.close();
				if (failed.error !== null) throw failed.error;
				killsMidRequest += inFlightAtKill.size > 0 ? 1 : 0;

				// On disk, before any restart: every note whole, and the last acknowledged or the in-flight body.
				for (const [note, model] of notes) {
					const content = await readFile(join(vault, note), "utf8");
					const candidates = [model.acknowledged, ...(model.inFlight === null ? [] : [model.inFlight])];
					if (!candidates.includes(content)) {
						throw new Error(
							`cycle ${cycle}: ${note} holds ${content.length} bytes starting "${content.slice(0, 60)}", which is neither its last acknowledged body nor the one in flight`,
						);
					}
					model.acknowledged = content;
					model.inFlight = null;
				}
				for (const refusal of answeredRefusals) {
					const kept = await readFile(join(vault, refusal.backupPath)).catch(() => null);
					expect(kept, `${refusal.backupPath} missing`).not.toBeNull();
					expect(
						kept!.equals(Buffer.from(refusal.body, "utf8")),
						`${refusal.backupPath} is not byte-equal to the refused body`,
					).toBe(true);
				}
				const files = await allFiles(vault);
				for (const path of files.filter((file) => file.endsWith(".bak.md"))) {
					const content = await readFile(join(vault, path), "utf8");
					expect(
						staleBodies.has(hash(content)),
						`${path} (${content.length} bytes) is not a complete refused body`,
					).toBe(true);
				}
				for (const file of files.filter((name) => name.includes(TEMP_MARKER) && !name.endsWith("a.md")))
					leftoverTemps.add(file);
				// A leftover temp file that looks like a note in every way but its hidden name, to be sure a restart on a
				// folder with leftovers never serves one (kills leave real ones only sometimes).
				await writeFile(
					join(vault, tempNameFor(NOTES[cycle % NOTES.length]!, `${cycle}0000000a.md`)),
					`${TEMP_CANARY}\n`,
				);
			}

			host = await startHost(vault);
			const client = keepAliveClient(host.port, { Authorization: `Bearer ${KEY}` });
			// One more, left while the host runs.
			await writeFile(join(vault, tempNameFor(NOTES[1]!, "ffffffffffff")), `${TEMP_CANARY}\n`);
			await expectServing(client, notes);
			const temps = (await allFiles(vault)).filter((file) => file.includes(".rg-tmp-"));
			expect(temps.length).toBeGreaterThan(0);
			for (const temp of temps) {
				const answer = await client.call("GET", `/vault/${urlPath(temp)}`);
				expect(answer.status, `GET ${temp}`).not.toBe(200);
				expect(answer.text).not.toContain(TEMP_CANARY);
			}
			client.close();
			await killHard(host.child);
			host = null;
			// Diagnostics only (their number depends on where the kills landed): never asserted.
			console.log(
				`crash safety: ${CYCLES} kills, ${killsMidRequest} with a request in flight, ${leftoverTemps.size} temp files left by kills, ${answeredRefusals.length} refusals checked`,
			);
		},
	);
});

/** The API answers, lists no hidden or temp entry, and serves each note exactly as the model says it is. */
async function expectServing(client: KeepAliveClient, notes: Map<string, NoteModel>): Promise<void> {
	const root = await client.call("GET", "/");
	expect(root.status).toBe(200);
	for (const folder of ["/vault/", "/vault/Projects/"]) {
		const listing = await client.call("GET", folder);
		expect(listing.status).toBe(200);
		const { files, entries } = JSON.parse(listing.text) as { files: string[]; entries: { path: string }[] };
		for (const name of [...files, ...entries.map((entry) => entry.path)]) {
			expect(name).not.toContain(".rg-tmp-");
			expect(name.split("/").some((part) => part.startsWith("."))).toBe(false);
		}
		expect(listing.text).not.toContain(TEMP_CANARY);
	}
	for (const [note, model] of notes) {
		const answer = await client.call("GET", `/vault/${urlPath(note)}`);
		expect(answer.status).toBe(200);
		expect(hash(answer.body)).toBe(hash(model.acknowledged));
		expect(answer.headers.etag).toBe(`"${hash(model.acknowledged)}"`);
	}
}
