/**
 * Search over 10,000 notes: our POST /search/simple/ and POST /search/ (JsonLogic) against a bare Node scan of the same
 * notes (bare-search.ts), each server in its own process, in alternating rounds (medians); and the longest the main
 * thread is blocked while each search runs in-process, as it would inside Obsidian.
 */
import type { ChildProcess } from "child_process";
import { request } from "http";
import { join } from "path";
import { longestBlock } from "./main-thread";
import { openFolder, openFolderGuard } from "../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../src/settings";
import { BENCH_KEY } from "./servers";
import { makeVault } from "./vault-fixture";
import { PERSON } from "../src/service/notes/actor";

export const SEARCH_NOTES = 10_000;
const ROUNDS = 5;
/** A word in the frontmatter of one note in seven (`tags: [bench, n3]`). */
const WORD = "n3";
const SIMPLE = `/search/simple/?query=${WORD}&contextLength=50`;
const LOGIC = JSON.stringify({ in: [WORD, { var: "tags" }] });

export interface SearchFigures {
	simpleMs: { ours: number; bare: number };
	logicMs: { ours: number; bare: number };
	/** Hits each side found (they must agree). */
	hits: { simple: [number, number]; logic: [number, number] };
	simpleBlockMs: number;
	logicBlockMs: number;
}

type Spawn = (kind: string, vault: string) => Promise<{ port: number; child: ChildProcess }>;

function post(port: number, path: string, body: string | null): Promise<{ ms: number; hits: number }> {
	const t0 = performance.now();
	return new Promise((resolve, reject) => {
		const headers: Record<string, string> = { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${BENCH_KEY}` };
		if (body !== null) headers["Content-Type"] = "application/vnd.olrapi.jsonlogic+json";
		const req = request({ host: "127.0.0.1", port, method: "POST", path, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on("data", (chunk: Buffer) => chunks.push(chunk));
			res.on("end", () => {
				if (res.statusCode !== 200)
					return reject(new Error(`${path}: ${res.statusCode} ${Buffer.concat(chunks).toString()}`));
				resolve({
					ms: performance.now() - t0,
					hits: (JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown[]).length,
				});
			});
		});
		req.on("error", reject);
		req.end(body ?? undefined);
	});
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function compare(
	ours: number,
	bare: number,
	path: string,
	body: string | null,
): Promise<{ ms: { ours: number; bare: number }; hits: [number, number] }> {
	// One untimed search per side first (JIT warm-up, the first read of each note).
	await post(ours, path, body);
	await post(bare, path, body);
	const times = { ours: [] as number[], bare: [] as number[] };
	let hits: [number, number] = [0, 0];
	for (let round = 0; round < ROUNDS; round++) {
		const a = await post(ours, path, body);
		const b = await post(bare, path, body);
		times.ours.push(a.ms);
		times.bare.push(b.ms);
		hits = [a.hits, b.hits];
		console.log(
			`search ${body === null ? "simple" : "JsonLogic"} round ${round + 1}: ours ${a.ms.toFixed(0)} ms (${a.hits} hits), bare ${b.ms.toFixed(0)} ms (${b.hits} hits)`,
		);
	}
	return { ms: { ours: median(times.ours), bare: median(times.bare) }, hits };
}

export async function measureSearch(folder: string, spawn: Spawn): Promise<SearchFigures> {
	const vault = join(folder, "search");
	await makeVault(vault, SEARCH_NOTES, 2048);
	const ours = await spawn("revision-guard", vault);
	const bare = await spawn("bare", vault);
	let simple;
	let logic;
	try {
		simple = await compare(ours.port, bare.port, SIMPLE, null);
		logic = await compare(ours.port, bare.port, "/search/", LOGIC);
	} finally {
		ours.child.kill();
		bare.child.kill();
	}
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openFolderGuard(await openFolder(vault), () => settings);
	const page = { limit: 100_000, maxBytes: 8 * 1024 * 1024 };
	await guard.notes.search.simple(PERSON, WORD, 50, page);
	const simpleBlockMs = await longestBlock(() => guard.notes.search.simple(PERSON, WORD, 50, page));
	const logicBlockMs = await longestBlock(() => guard.notes.search.logic(PERSON, JSON.parse(LOGIC), page));
	await guard.close();
	console.log(
		`search: longest main-thread block ${simpleBlockMs.toFixed(1)} ms (simple), ${logicBlockMs.toFixed(1)} ms (JsonLogic)`,
	);
	return {
		simpleMs: simple.ms,
		logicMs: logic.ms,
		hits: { simple: simple.hits, logic: logic.hits },
		simpleBlockMs,
		logicBlockMs,
	};
}
