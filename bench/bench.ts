/**
 * `npm run bench`: measures Revision Guard against baselines in ONE run and writes BENCHMARKS.md. The targets are
 * ratios between measurements taken side by side on the same machine, never absolute times, so a busy machine
 * slows both sides alike. Rounds alternate between the two sides, and medians are reported.
 */
import { fork, type ChildProcess } from "child_process";
import { createHash } from "crypto";
import { existsSync, readFileSync } from "fs";
import { cp, mkdir, mkdtemp, open, rm } from "fs/promises";
import { cpus, tmpdir } from "os";
import { join } from "path";
import { revisionOf } from "../src/core/revision";
import { runLoad, type LoadResult } from "./load";
import { BENCH_KEY, SCOPED_LISTS } from "./servers";
import { compileKeyScope, ruleOf } from "../src/core/key-scope";
import { makeVault, noteText } from "./vault-fixture";
import { measureMerge } from "./merge";
import { measureMcp } from "./mcp";
import { measureModalOpen } from "./modal";
import { measureReconcile, measureStartups } from "./reconcile";
import { measureHugeNote } from "./huge-note";
import { measureMainThread } from "./main-thread";
import { measurePluginLoad } from "./plugin-load";
import { writeReport, type Row } from "./report";
import { measureContention } from "./contention";
import { measureMergeStartup } from "./startup";
import { measureSearch, SEARCH_NOTES } from "./search";
import { measureOutsideSaves } from "./outside-saves";

const ROUNDS = 3;
const SECONDS_PER_ROUND = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = 16;
const NOTES = 1000;

function spawnServer(kind: string, vault: string): Promise<{ port: number; child: ChildProcess }> {
	// A file of its own (bench-server.js), so the server process loads nothing of the benchmark's tools.
	// `BENCH_SERVER_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=DIR"` profiles the servers (each writes its profile as it is stopped).
	const execArgv = process.env.BENCH_SERVER_NODE_OPTIONS?.split(" ").filter((option) => option !== "") ?? [];
	const child = fork(join(__dirname, "bench-server.js"), [kind, vault], { stdio: "inherit", execArgv });
	return new Promise((resolve, reject) => {
		child.once("message", (message) => resolve({ port: (message as { port: number }).port, child }));
		child.once("error", reject);
		child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
	});
}

/** A process's user + system CPU time in seconds, from /proc (Linux); null elsewhere. */
function cpuSecondsOf(pid: number | undefined): number | null {
	if (pid === undefined || process.platform !== "linux") return null;
	try {
		// The fields after the command's closing parenthesis; utime and stime are the 12th and 13th of them, in ticks.
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
	} catch {
		return null;
	}
}
/** Linux's USER_HZ, the unit of /proc's CPU times (100 on every common build). */
const CLOCK_TICKS = 100;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const auth = { Authorization: `Bearer ${BENCH_KEY}` };

async function compare(
	label: string,
	sides: { name: string; kind: string; vault: string }[],
	load: (port: number, kind: string) => Promise<LoadResult>,
): Promise<Record<string, { rps: number; p99: number; cpuUs: number | null; errors: number }>> {
	const servers = await Promise.all(sides.map((side) => spawnServer(side.kind, side.vault)));
	const runs: Record<string, (LoadResult & { cpuUs: number | null })[]> = Object.fromEntries(
		sides.map((side) => [side.name, []]),
	);
	// One untimed round per side first: JIT warm-up, and the first read of each note (which keeps its base).
	for (const [index, side] of sides.entries()) await load(servers[index]!.port, side.kind);
	for (let round = 0; round < ROUNDS; round++) {
		for (const [index, side] of sides.entries()) {
			const cpuBefore = cpuSecondsOf(servers[index]!.child.pid);
			const result = await load(servers[index]!.port, side.kind);
			const cpuAfter = cpuSecondsOf(servers[index]!.child.pid);
			const cpuUs =
				cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / Math.max(1, result.requests);
			runs[side.name]!.push({ ...result, cpuUs });
			console.log(
				`${label} round ${round + 1} ${side.name}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99ms.toFixed(2)} ms, errors ${result.errors}` +
					(cpuUs === null ? "" : `, server CPU ${cpuUs.toFixed(0)} µs/request`),
			);
		}
	}
	for (const server of servers) server.child.kill();
	return Object.fromEntries(
		Object.entries(runs).map(([name, results]) => [
			name,
			{
				rps: median(results.map((r) => r.rps)),
				p99: median(results.map((r) => r.p99ms)),
				// The server process's CPU per request (Linux), which a busy machine disturbs far less than throughput.
				cpuUs: results.some((r) => r.cpuUs === null) ? null : median(results.map((r) => r.cpuUs!)),
				errors: results.reduce((n, r) => n + r.errors, 0),
			},
		]),
	);
}

function measureHashing(): { ours: number; raw: number } {
	// Three texts in turn: revisionOf remembers its last two answers, and this measures hashing, not that memory.
	const texts = [noteText(1, 1024 * 1024), noteText(2, 1024 * 1024), noteText(3, 1024 * 1024)];
	const megabytes = Buffer.byteLength(texts[0]!) / (1024 * 1024);
	let turn = 0;
	const next = () => texts[turn++ % texts.length]!;
	const time = (fn: () => void) => {
		const samples: number[] = [];
		for (let round = 0; round < 7; round++) {
			const t0 = performance.now();
			for (let i = 0; i < 40; i++) fn();
			samples.push((performance.now() - t0) / 1000);
		}
		return (40 * megabytes) / median(samples);
	};
	const results = { ours: 0, raw: 0 };
	// Alternate to spread noise evenly; the raw side hashes the same string the same way Node would be asked to.
	for (let i = 0; i < 2; i++) {
		results.raw = Math.max(
			results.raw,
			time(() => createHash("sha256").update(next()).digest()),
		);
		results.ours = Math.max(
			results.ours,
			time(() => revisionOf(next())),
		);
	}
	return results;
}

type PutSide = { rps: number; p99: number; cpuUs: number | null };

/** Guarded PUT (with If-Match) against the bare durable write, each on its own copy of the vault under `folder`. */
async function measurePut(
	folder: string,
	readVault: string,
	paths: string[],
	ms: number,
): Promise<{ guarded: PutSide; bare: PutSide; errors: number }> {
	await cp(readVault, join(folder, "put-guarded"), { recursive: true });
	await cp(readVault, join(folder, "put-bare"), { recursive: true });
	const put = await compare(
		"PUT " + folder,
		[
			{ name: "bare", kind: "bare", vault: join(folder, "put-bare") },
			{ name: "guarded", kind: "revision-guard", vault: join(folder, "put-guarded") },
		],
		(port, kind) => {
			let counter = 0;
			return runLoad(
				port,
				CONNECTIONS,
				ms,
				(loop, last) => {
					// Each loop owns one note, so the guarded side never conflicts with itself: every PUT carries a fresh ETag.
					const path = `/vault/${paths[loop]!}`;
					if (kind === "revision-guard" && !last?.etag) return { method: "GET", path, headers: auth };
					return {
						method: "PUT",
						path,
						headers: { ...auth, ...(kind === "revision-guard" ? { "If-Match": last!.etag! } : {}) },
						body: noteText(loop, 2048, ++counter),
					};
				},
				(status) => status === 204 || status === 200,
			);
		},
	);
	return { guarded: put.guarded!, bare: put.bare!, errors: put.guarded!.errors + put.bare!.errors };
}

/**
 * Guarded PUT with If-Match by a key with scope lists against the same by a key without (issue 24: scope checks must
 * cost nothing measurable), each on its own copy of the vault, in RAM where there is some (so the disk's fsyncs do not
 * hide the CPU the check takes).
 */
async function measureScopedPut(
	work: string,
	readVault: string,
	paths: string[],
	ms: number,
): Promise<{
	scoped: { rps: number; p99: number };
	unscoped: { rps: number; p99: number };
	errors: number;
	inRam: boolean;
}> {
	const ram = await ramFolder();
	const folder = ram ?? work;
	try {
		await cp(readVault, join(folder, "put-unscoped"), { recursive: true });
		await cp(readVault, join(folder, "put-scoped"), { recursive: true });
		const sides = [
			{ name: "unscoped", kind: "revision-guard", vault: join(folder, "put-unscoped") },
			{ name: "scoped", kind: "revision-guard-scoped", vault: join(folder, "put-scoped") },
		];
		const put = await compare("PUT by a scoped key", sides, (port) => {
			let counter = 0;
			return runLoad(
				port,
				CONNECTIONS,
				ms,
				(loop, last) => {
					const path = `/vault/${paths[loop]!}`;
					if (!last?.etag) return { method: "GET", path, headers: auth };
					return {
						method: "PUT",
						path,
						headers: { ...auth, "If-Match": last.etag },
						body: noteText(loop, 2048, ++counter),
					};
				},
				(status) => status === 204 || status === 200,
			);
		});
		return {
			scoped: put.scoped!,
			unscoped: put.unscoped!,
			errors: put.scoped!.errors + put.unscoped!.errors,
			inRam: ram !== null,
		};
	} finally {
		if (ram !== null) await rm(ram, { recursive: true, force: true });
	}
}

/** Microseconds one scope check takes: compiling the key's lists (remembered) and matching a note path against them. */
function measureScopeCheck(paths: string[]): number {
	const compiled = compileKeyScope("bench", SCOPED_LISTS, { caseInsensitive: true });
	if (!compiled.ok) throw new Error(compiled.problem.message);
	const samples: number[] = [];
	for (let round = 0; round < 7; round++) {
		const t0 = performance.now();
		for (let i = 0; i < 100_000; i++) ruleOf(compiled.scope, paths[i % paths.length]!);
		samples.push(((performance.now() - t0) * 1000) / 100_000);
	}
	return median(samples);
}

/** A fresh folder in RAM (Linux's /dev/shm), or null where there is none. */
async function ramFolder(): Promise<string | null> {
	if (process.platform !== "linux" || !existsSync("/dev/shm")) return null;
	return mkdtemp(join("/dev/shm", "rg-bench-ram-")).catch(() => null);
}

/** How many 2 KB writes this disk makes durable per second, 16 at a time (each: write, fsync), for 2 s. */
async function fsyncsPerSecond(folder: string): Promise<number> {
	const probe = join(folder, "fsync-probe");
	await mkdir(probe, { recursive: true });
	const bytes = Buffer.alloc(2048, 120);
	let done = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: 16 }, async (_, n) => {
			while (performance.now() - started < 2000) {
				const file = await open(join(probe, `f${n}`), "w");
				try {
					await file.writeFile(bytes);
					await file.sync();
				} finally {
					await file.close();
				}
				done++;
			}
		}),
	);
	const seconds = (performance.now() - started) / 1000;
	await rm(probe, { recursive: true, force: true });
	return done / seconds;
}

/** `BENCH_ONLY=get,put,contention` runs only those parts and leaves BENCHMARKS.md alone (for quick checks). */
const ONLY = process.env.BENCH_ONLY?.split(",") ?? null;
const runs = (part: string) => ONLY === null || ONLY.includes(part);
const CONTENTION_CLIENTS = 32;
/** Issue 28, goal 4: the plugin's load in the simulation, and the size of the one file Obsidian loads. */
const PLUGIN_EVAL_GOAL_MS = 15;
const PLUGIN_ONLOAD_GOAL_MS = 10;
const BUNDLE_GOAL_KB = 500;

async function main(): Promise<void> {
	const work = await mkdtemp(join(tmpdir(), "rg-bench-"));
	const rows: Row[] = [];
	let errors = 0;
	try {
		const readVault = join(work, "read");
		const paths = await makeVault(readVault, NOTES, 2048);
		const ms = SECONDS_PER_ROUND * 1000;
		const readers = [
			{ name: "bare", kind: "bare", vault: readVault },
			{ name: "ours", kind: "revision-guard", vault: readVault },
		];

		if (runs("get")) {
			let counter = 0;
			const spread = await compare("GET 1000 notes", readers, (port) =>
				runLoad(
					port,
					CONNECTIONS,
					ms,
					(loop) => ({
						method: "GET",
						path: `/vault/${paths[(loop * 37 + counter++) % paths.length]!}`,
						headers: auth,
					}),
					(status) => status === 200,
				),
			);
			const one = await compare("GET one note", readers, (port) =>
				runLoad(
					port,
					CONNECTIONS,
					ms,
					() => ({ method: "GET", path: `/vault/${paths[0]!}`, headers: auth }),
					(status) => status === 200,
				),
			);
			errors += spread.ours!.errors + spread.bare!.errors + one.ours!.errors + one.bare!.errors;
			rows.push(
				{
					measure: `GET spread over ${NOTES} notes, requests/s`,
					ours: spread.ours!.rps,
					baseline: spread.bare!.rps,
					unit: "req/s",
					target: "≥ 1.0× bare Node (read + SHA-256 ETag)",
					pass: spread.ours!.rps >= spread.bare!.rps,
				},
				{
					measure: "GET of one note, requests/s",
					ours: one.ours!.rps,
					baseline: one.bare!.rps,
					unit: "req/s",
					target: "≥ 1.0× bare Node (read + SHA-256 ETag)",
					pass: one.ours!.rps >= one.bare!.rps,
				},
				{
					measure: `GET spread over ${NOTES} notes, p99 latency`,
					ours: spread.ours!.p99,
					baseline: spread.bare!.p99,
					unit: "ms",
					target: "report",
					pass: null,
				},
			);
		}

		if (runs("put")) {
			const disk = await measurePut(work, readVault, paths, ms);
			errors += disk.errors;
			rows.push(
				{
					measure: "guarded PUT with If-Match, requests/s (baseline: bare durable write, no check)",
					ours: disk.guarded.rps,
					baseline: disk.bare.rps,
					unit: "req/s",
					target: "≥ 0.90× bare temp + fsync + rename + folder fsync",
					pass: disk.guarded.rps >= 0.9 * disk.bare.rps,
				},
				{
					measure: "guarded PUT p99 latency",
					ours: disk.guarded.p99,
					baseline: disk.bare.p99,
					unit: "ms",
					target: "report",
					pass: null,
				},
				{
					measure:
						"this disk: 2 KB writes each made durable by fsync, 16 at a time, per second (sets how far the PUT rows are bound by the disk)",
					ours: await fsyncsPerSecond(work),
					baseline: null,
					unit: "fsyncs/s",
					target: "report",
					pass: null,
				},
			);
			// The same comparison where fsync costs nothing: what is left is the CPU each side spends per write, which
			// a fast disk exposes and a slow one hides behind its fsyncs.
			const ram = await ramFolder();
			if (ram !== null) {
				try {
					const inRam = await measurePut(ram, readVault, paths, ms);
					errors += inRam.errors;
					rows.push({
						measure: "the same guarded PUT on a RAM-backed folder (/dev/shm), where fsync costs nothing, requests/s",
						ours: inRam.guarded.rps,
						baseline: inRam.bare.rps,
						unit: "req/s",
						target: "≥ 0.80× the same bare write (the CPU cost of the guard)",
						pass: inRam.guarded.rps >= 0.8 * inRam.bare.rps,
					});
					// Throughput on a shared machine moves with its neighbours; CPU per request far less. Our cost over the
					// bare write's, as a ratio the right way up (ours ≥ baseline means we cost no more).
					if (inRam.guarded.cpuUs !== null && inRam.bare.cpuUs !== null)
						rows.push({
							measure:
								"the same, as requests per CPU-second of the server process (baseline: the bare write's), on the RAM-backed folder",
							ours: 1e6 / inRam.guarded.cpuUs,
							baseline: 1e6 / inRam.bare.cpuUs,
							unit: "req/CPU-s",
							target: "report",
							pass: null,
						});
				} finally {
					await rm(ram, { recursive: true, force: true });
				}
			}
		}

		if (runs("scopes")) {
			const scoped = await measureScopedPut(work, readVault, paths, ms);
			errors += scoped.errors;
			rows.push(
				{
					measure: `guarded PUT with If-Match by a key with scope lists (3 read, 3 write, 2 propose globs), requests/s (baseline: the same by a key without)${scoped.inRam ? ", on a RAM-backed folder" : ""}`,
					ours: scoped.scoped.rps,
					baseline: scoped.unscoped.rps,
					unit: "req/s",
					target: "≥ 0.95× (no measurable cost)",
					pass: scoped.scoped.rps >= 0.95 * scoped.unscoped.rps,
				},
				{
					measure:
						"the scope check itself: what that key may do with one of the bench's note paths (in-process, median)",
					ours: measureScopeCheck(paths),
					baseline: null,
					unit: "µs",
					target: "report",
					pass: null,
				},
			);
		}

		if (runs("contention")) {
			await cp(readVault, join(work, "contention"), { recursive: true });
			const server = await spawnServer("revision-guard", join(work, "contention"));
			// One untimed round first (JIT warm-up), then the median of three.
			await measureContention(server.port, `/vault/${paths[1]!}`, auth, CONTENTION_CLIENTS, 1000);
			const results = [];
			for (let round = 0; round < ROUNDS; round++) {
				const result = await measureContention(server.port, `/vault/${paths[1]!}`, auth, CONTENTION_CLIENTS, ms);
				console.log(
					`contention round ${round + 1}: ${result.pairsPerSecond.toFixed(0)} pairs/s, ${result.acknowledged} acknowledged, ${result.lost} lost, errors ${result.errors}`,
				);
				results.push(result);
			}
			server.child.kill();
			const lost = results.reduce((n, r) => n + r.lost, 0);
			const acknowledged = results.reduce((n, r) => n + r.acknowledged, 0);
			errors += results.reduce((n, r) => n + r.errors, 0);
			const pairs = median(results.map((r) => r.pairsPerSecond));
			rows.push(
				{
					measure: `${CONTENTION_CLIENTS} read-modify-write clients on one note: GET + PUT pairs/s`,
					ours: pairs,
					baseline: null,
					unit: "pairs/s",
					target: "≥ 200 pairs/s",
					pass: pairs >= 200,
				},
				{
					measure: `the same: acknowledged writes missing from the final note (of ${acknowledged} acknowledged)`,
					ours: lost,
					baseline: null,
					unit: "lost",
					target: "0",
					pass: lost === 0 && acknowledged > 0,
				},
			);
		}

		if (runs("merge-startup")) {
			const entry = join(__dirname, "merge.js");
			const startup = measureMergeStartup(existsSync(entry) ? [entry] : [join(__dirname, "cli.js"), "merge"]);
			rows.push({
				measure: "`merge` command start-up, three small files (baseline: `node -e 0`; median of 21 alternating runs)",
				ours: startup.mergeMs,
				baseline: startup.nodeMs,
				unit: "ms",
				target: "≤ 2× node -e 0 (ratio ≥ 0.50)",
				pass: startup.mergeMs <= 2 * startup.nodeMs,
			});
		}

		if (runs("mcp")) {
			await cp(readVault, join(work, "mcp"), { recursive: true });
			const mcpServer = await spawnServer("revision-guard", join(work, "mcp"));
			const mcp = await measureMcp(mcpServer.port, paths[500]!);
			mcpServer.child.kill();
			rows.push(
				{
					measure: "MCP read_note round trip (SDK client; median of 200)",
					ours: mcp.readMs,
					baseline: mcp.restGetMs,
					unit: "ms",
					target: "report (baseline: REST GET)",
					pass: null,
				},
				{
					measure: "MCP write_note round trip (SDK client; median of 200)",
					ours: mcp.writeMs,
					baseline: mcp.restPutMs,
					unit: "ms",
					target: "report (baseline: REST PUT)",
					pass: null,
				},
			);
		}

		if (runs("plugin")) {
			const pluginLoad = await measurePluginLoad(join(__dirname, "..", "main.js"));
			rows.push(
				{
					measure: "plugin load: require+evaluate main.js (Obsidian simulation, happy-dom; median of warm loads)",
					ours: pluginLoad.evalMs,
					baseline: null,
					unit: "ms",
					target: `≤ ${PLUGIN_EVAL_GOAL_MS} ms`,
					pass: pluginLoad.evalMs <= PLUGIN_EVAL_GOAL_MS,
				},
				{
					measure: "plugin load: onload as Obsidian starts, from construction until it resolves (median of warm loads)",
					ours: pluginLoad.onloadMs,
					baseline: null,
					unit: "ms",
					target: `≤ ${PLUGIN_ONLOAD_GOAL_MS} ms`,
					pass: pluginLoad.onloadMs <= PLUGIN_ONLOAD_GOAL_MS,
				},
				{
					measure: "plugin load: onload when enabled in a running Obsidian (layout ready; median)",
					ours: pluginLoad.onloadLayoutReadyMs,
					baseline: null,
					unit: "ms",
					target: `≤ ${PLUGIN_ONLOAD_GOAL_MS} ms`,
					pass: pluginLoad.onloadLayoutReadyMs <= PLUGIN_ONLOAD_GOAL_MS,
				},
				{
					measure: "plugin load: first (cold) evaluation of main.js",
					ours: pluginLoad.firstEvalMs,
					baseline: null,
					unit: "ms",
					target: "report",
					pass: null,
				},
				{
					measure: "main.js size",
					ours: pluginLoad.bundleKB,
					baseline: null,
					unit: "KB",
					target: `≤ ${BUNDLE_GOAL_KB} KB`,
					pass: pluginLoad.bundleKB <= BUNDLE_GOAL_KB,
				},
			);
		}

		if (runs("search")) {
			const search = await measureSearch(work, spawnServer);
			const agree = search.hits.simple[0] === search.hits.simple[1] && search.hits.logic[0] === search.hits.logic[1];
			rows.push(
				{
					measure: `simple search over ${SEARCH_NOTES.toLocaleString("en-US")} notes of ~2 KB (${search.hits.simple[0]} hits; baseline: bare Node read + lower-case scan)`,
					ours: search.simpleMs.ours,
					baseline: search.simpleMs.bare,
					unit: "ms",
					target: "report (same hits)",
					pass: agree ? null : false,
				},
				{
					measure: `JsonLogic search (a tag) over ${SEARCH_NOTES.toLocaleString("en-US")} notes (${search.hits.logic[0]} hits; baseline: bare Node read + frontmatter YAML parse + hand-written test)`,
					ours: search.logicMs.ours,
					baseline: search.logicMs.bare,
					unit: "ms",
					target: "report (same hits)",
					pass: agree ? null : false,
				},
				{
					measure: `longest main-thread block: simple search over ${SEARCH_NOTES.toLocaleString("en-US")} notes (in-process)`,
					ours: search.simpleBlockMs,
					baseline: null,
					unit: "ms",
					target: "≤ 50 ms",
					pass: search.simpleBlockMs <= 50,
				},
				{
					measure: `longest main-thread block: JsonLogic search over ${SEARCH_NOTES.toLocaleString("en-US")} notes (in-process)`,
					ours: search.logicBlockMs,
					baseline: null,
					unit: "ms",
					target: "≤ 50 ms",
					pass: search.logicBlockMs <= 50,
				},
			);
		}

		if (runs("outside-saves")) {
			const outside = measureOutsideSaves();
			if (outside !== null) {
				rows.push(
					{
						measure:
							"outside saves over the real merge corpus: saving base, mine, then theirs, where theirs lacks some of mine's changes: flagged (recall)",
						ours: outside.staleFlagged,
						baseline: null,
						unit: `of ${outside.stale}`,
						target: "report",
						pass: null,
					},
					{
						measure: "the same, where theirs already holds all of mine's changes: flagged",
						ours: outside.theirsHasMineFlagged,
						baseline: null,
						unit: `of ${outside.theirsHasMine}`,
						target: "0",
						pass: outside.theirsHasMineFlagged === 0,
					},
					{
						measure:
							"saving base, mine, then the committed result instead: flagged (false alarms; most are the people dropping mine's change, see test/core/outside-save-corpus.test.ts)",
						ours: outside.committedFlagged,
						baseline: null,
						unit: `of ${outside.cases}`,
						target: "report",
						pass: null,
					},
				);
			}
		}

		if (runs("startup")) {
			// Whole starts in processes of their own, on the generated 50,000-note vault.
			const startups = await measureStartups();
			const startVault = `${startups.notes.toLocaleString("en")} notes (${startups.vaultMB.toFixed(0)} MB)`;
			rows.push(
				{
					measure: `first start of the headless host, no stored state, ${startVault}: CPU until ready, against a bare read and SHA-256 of every note (each in its own process)`,
					ours: startups.firstStartCpuSeconds,
					baseline: startups.bareReadHashCpuSeconds,
					unit: "s",
					target: "≤ 1.5×",
					pass: startups.firstStartCpuSeconds <= 1.5 * startups.bareReadHashCpuSeconds,
				},
				{
					measure: `later start, nothing changed, ${startVault}: CPU until ready, against a bare stat walk of every note (each in its own process)`,
					ours: startups.laterStartCpuSeconds,
					baseline: startups.bareStatWalkCpuSeconds,
					unit: "s",
					target: "≤ 3×",
					pass: startups.laterStartCpuSeconds <= 3 * startups.bareStatWalkCpuSeconds,
				},
				{
					measure: `peak RSS of the headless host starting on ${startVault} (VmHWM of its process; first and later starts)`,
					ours: startups.peakRssMB,
					baseline: null,
					unit: "MB",
					target: "≤ 150 MB",
					pass: startups.peakRssMB <= 150,
				},
				{
					measure: `heap in use once ready on ${startVault}, after a first start (what the guard holds; the plugin's share of Obsidian's heap)`,
					ours: startups.heapAfterFirstMB,
					baseline: null,
					unit: "MB",
					target: "report",
					pass: null,
				},
				{
					measure: `the same after a later start`,
					ours: startups.heapAfterLaterMB,
					baseline: null,
					unit: "MB",
					target: "report",
					pass: null,
				},
				{
					measure: `first start on ${startVault}: wall time until ready (the API answers "starting up" meanwhile)`,
					ours: startups.firstStartWallSeconds,
					baseline: null,
					unit: "s",
					target: "report",
					pass: null,
				},
			);
		}

		if (runs("rest")) {
			const huge = await measureHugeNote(join(work, "huge"), (vault) => spawnServer("revision-guard", vault));
			const hashing = measureHashing();
			// Reconcile first of the in-process measures: its peak RSS must not carry what the others leave on the heap.
			const reconcile = await measureReconcile(join(work, "reconcile"));

			const mainThread = await measureMainThread();
			const merge = await measureMerge();
			const modal = await measureModalOpen();
			rows.push(
				{
					measure: "token hashing",
					ours: hashing.ours,
					baseline: hashing.raw,
					unit: "MB/s",
					target: "≥ 0.8× raw crypto SHA-256",
					pass: hashing.ours >= 0.8 * hashing.raw,
				},
				{
					measure: "start-up reconcile, 10,000 notes (100 MB), first run",
					ours: reconcile.firstSeconds,
					baseline: null,
					unit: "s",
					target: "≤ 3 s",
					pass: reconcile.firstSeconds <= 3,
				},
				{
					measure: "start-up reconcile, 10,000 notes, with stored history",
					ours: reconcile.secondSeconds,
					baseline: null,
					unit: "s",
					target: "≤ 3 s",
					pass: reconcile.secondSeconds <= 3,
				},
				{
					measure: `three-way merge, 1 MB note (${merge.lines} lines), 100 edits per side (median; clean: ours ${merge.clean}, git ${merge.gitClean})`,
					ours: merge.oursMs,
					baseline: merge.gitMs,
					unit: "ms",
					target: "≤ 2× git merge-file (ratio ≥ 0.50)",
					pass: merge.oursMs <= 2 * merge.gitMs && merge.clean === merge.gitClean,
				},
				{
					measure: `pathological merge: 20k lines from 7 distinct lines, both sides edited (${merge.pathologicalConflicts} conflicts)`,
					ours: merge.pathologicalMs,
					baseline: null,
					unit: "ms",
					target: "< 1000 ms",
					pass: merge.pathologicalMs < 1000,
				},
				{
					measure: "merge modal open-to-interactive, 1 MB note, 12 conflicts (Chromium; merge + DOM)",
					ours: modal.openMs,
					baseline: null,
					unit: "ms",
					target: "report",
					pass: null,
				},
				{
					measure: `stale PUT on a ${huge.noteMB.toFixed(1)} MB note, every line changed: size of the 412`,
					ours: huge.answerKB,
					baseline: null,
					unit: "KB",
					target: "≤ 300 KB (256 KB diff cap + facts)",
					pass: huge.answerKB <= 300,
				},
				{
					measure: `stale PUT on a ${huge.noteMB.toFixed(1)} MB note: time to the 412 (.bak, record, diff)`,
					ours: huge.answerMs,
					baseline: null,
					unit: "ms",
					target: "report",
					pass: null,
				},
				{
					measure: "longest wait of a small GET sent during that stale PUT (baseline: idle GET)",
					ours: huge.concurrentGetMs,
					baseline: huge.idleGetMs,
					unit: "ms",
					target: "≤ 100 ms",
					pass: huge.concurrentGetMs <= 100,
				},
				{
					measure: "final check before the rename, 5 MB note (baseline: re-reading the note, as before)",
					ours: huge.checkUs,
					baseline: huge.rereadUs,
					unit: "µs",
					target: "report",
					pass: null,
				},
				{
					measure: "the rename itself, replacing a 5 MB note (the rest of the window)",
					ours: huge.renameUs,
					baseline: null,
					unit: "µs",
					target: "report",
					pass: null,
				},
				{
					measure: `longest main-thread block: stale write to a ${mainThread.noteMB.toFixed(1)} MB note with merge=auto, then its merge preview (in-process)`,
					ours: mainThread.longestBlockMs,
					baseline: null,
					unit: "ms",
					target: "≤ 50 ms",
					pass: mainThread.longestBlockMs <= 50,
				},
				{
					measure: `longest main-thread block: start-up reconcile of ${mainThread.notes} notes, one of ${mainThread.noteMB.toFixed(1)} MB (in-process)`,
					ours: mainThread.reconcileBlockMs,
					baseline: null,
					unit: "ms",
					target: "≤ 50 ms",
					pass: mainThread.reconcileBlockMs <= 50,
				},
				{
					measure: `longest main-thread block: an accepted ${mainThread.noteMB.toFixed(1)} MB write (in-process)`,
					ours: mainThread.bigWriteBlockMs,
					baseline: null,
					unit: "ms",
					target: "≤ 50 ms",
					pass: mainThread.bigWriteBlockMs <= 50,
				},
			);
		}

		for (const row of rows) {
			const verdict = row.pass === null ? "report " : row.pass ? "met    " : "NOT MET";
			console.log(`${verdict}  ${row.measure}: ${row.ours.toFixed(1)} ${row.unit} (target ${row.target})`);
		}
		if (ONLY !== null) return;
		await writeReport("BENCHMARKS.md", rows, {
			machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}`,
			method: `${NOTES} notes of ~2 KB over loopback, ${CONNECTIONS} keep-alive connections (${CONTENTION_CLIENTS} for contention), ${ROUNDS} alternating rounds of ${SECONDS_PER_ROUND} s per side (medians) after one untimed warm-up round per side. Every server runs in its own process. Load errors: ${errors}.`,
		});
		console.log("\nWrote BENCHMARKS.md");
	} finally {
		await rm(work, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
