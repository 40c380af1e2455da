/** Merge benchmarks: a 1 MB note against `git merge-file` in the same run, and the pathological repetitive case. */
import { execFileSync } from "child_process";
import { mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { mergeThreeWay } from "../src/core/merge";

export interface MergeFigures {
	oursMs: number;
	gitMs: number;
	clean: boolean;
	gitClean: boolean;
	lines: number;
	pathologicalMs: number;
	pathologicalConflicts: number;
}

/** A deterministic pseudo-random generator, so every run merges the same inputs. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1103515245 + 12345) & 0x7fffffff;
		return state / 0x7fffffff;
	};
}

/** About 1 MB over ~12k lines, 15% blank. */
function bigNote(): string[] {
	const next = random(7);
	const lines: string[] = [];
	for (let i = 0, size = 0; size < 1024 * 1024; i++) {
		const line =
			next() < 0.15
				? "\n"
				: `Line ${i}: ${"lorem ipsum dolor sit amet ".repeat(2 + Math.floor(next() * 3)).trim()} ${Math.floor(next() * 1e6)}\n`;
		lines.push(line);
		size += line.length;
	}
	return lines;
}

/** `count` edits on distinct, well-separated lines; mine and theirs take alternating slots so they never touch. */
function edit(lines: string[], count: number, side: "mine" | "theirs", seed: number): string {
	const next = random(seed);
	const copy = [...lines];
	const slot = Math.floor(lines.length / (count * 2));
	for (let k = 0; k < count; k++) {
		const start = (2 * k + (side === "mine" ? 0 : 1)) * slot;
		const index = start + 1 + Math.floor(next() * (slot - 2));
		copy[index] = `${side} edit ${k}: ${copy[index]!}`;
	}
	return copy.join("");
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function time(fn: () => void, runs: number): number {
	const samples: number[] = [];
	for (let i = 0; i < runs; i++) {
		const t0 = performance.now();
		fn();
		samples.push(performance.now() - t0);
	}
	return median(samples);
}

function gitMerge(paths: string[]): boolean {
	try {
		execFileSync("git", ["merge-file", "-p", ...paths], { stdio: ["ignore", "ignore", "ignore"] });
		return true;
	} catch {
		return false;
	}
}

export async function measureMerge(): Promise<MergeFigures> {
	const lines = bigNote();
	const base = lines.join("");
	const mine = edit(lines, 100, "mine", 11);
	const theirs = edit(lines, 100, "theirs", 13);
	const dir = await mkdtemp(join(tmpdir(), "rg-merge-bench-"));
	try {
		const paths = [join(dir, "mine"), join(dir, "base"), join(dir, "theirs")];
		await writeFile(paths[0]!, mine);
		await writeFile(paths[1]!, base);
		await writeFile(paths[2]!, theirs);
		// Warm-up: the plugin and the host are long-lived processes, so a merge normally runs JIT-compiled code.
		for (let i = 0; i < 5; i++) mergeThreeWay(base, mine, theirs);
		let clean = false;
		let gitClean = false;
		const samples = { ours: [] as number[], git: [] as number[] };
		// Alternate the two sides so background load hits both alike.
		for (let round = 0; round < 7; round++) {
			samples.ours.push(time(() => (clean = mergeThreeWay(base, mine, theirs).clean), 1));
			samples.git.push(time(() => (gitClean = gitMerge(paths)), 1));
		}
		const pathological = pathologicalCase();
		let conflicts = 0;
		const pathologicalMs = time(
			() => (conflicts = mergeThreeWay(pathological.base, pathological.mine, pathological.theirs).conflicts),
			3,
		);
		return {
			oursMs: median(samples.ours),
			gitMs: median(samples.git),
			clean,
			gitClean,
			lines: lines.length,
			pathologicalMs,
			pathologicalConflicts: conflicts,
		};
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

/** 20k lines drawn from 7 distinct lines, edited on both sides. */
function pathologicalCase(): { base: string; mine: string; theirs: string } {
	const next = random(3);
	const alphabet = ["alpha\n", "beta\n", "gamma\n", "delta\n", "\n", "- item\n", "}\n"];
	const lines = Array.from({ length: 20_000 }, () => alphabet[Math.floor(next() * alphabet.length)]!);
	const change = (seed: number) => {
		const pick = random(seed);
		return lines.map((line) => (pick() < 0.05 ? alphabet[Math.floor(pick() * alphabet.length)]! : line)).join("");
	};
	return { base: lines.join(""), mine: change(5), theirs: change(9) };
}
