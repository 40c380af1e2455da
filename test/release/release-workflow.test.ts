/**
 * The release workflow (.github/workflows/release.yml) cannot run here, so this reads it and holds it to its
 * promises: it runs on a version tag x.y.z only, checks and tests before anything is published, builds, checks the
 * tag against the manifest, and attaches exactly the three files Obsidian downloads.
 */
import { readFileSync } from "fs";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = join(__dirname, "../..");
const RELEASE_ASSETS = ["main.js", "manifest.json", "styles.css"];
/** gh release create options that take a value (the value is not an asset). */
const GH_VALUE_OPTIONS = new Set([
	"--title",
	"-t",
	"--notes",
	"-n",
	"--notes-file",
	"-F",
	"--target",
	"--repo",
	"-R",
	"--discussion-category",
	"--notes-start-tag",
]);

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Job {
	"runs-on": string;
	needs?: string | string[];
	permissions?: Record<string, string>;
	container?: { image: string; options?: string };
	steps: Step[];
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

const workflow = parse(readFileSync(join(ROOT, ".github/workflows/release.yml"), "utf8")) as Workflow;
const jobs = Object.entries(workflow.jobs);
const releaseJob = jobs.find(([, job]) => job.steps.some((step) => step.run?.includes("gh release create")));

/** GitHub's filter pattern (a glob: `*`, `**`, `[...]`, and `+` or `?` after a character or class) as a regular expression. */
function filterPattern(pattern: string): RegExp {
	let source = "";
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i]!;
		if (c === "*" && pattern[i + 1] === "*") {
			source += ".*";
			i++;
		} else if (c === "*") source += "[^/]*";
		else if (c === "[") {
			const end = pattern.indexOf("]", i);
			source += pattern.slice(i, end + 1);
			i = end;
		} else if (c === "+" || c === "?") source += c;
		else source += c.replace(/[.^$(){}|\\/]/, "\\$&");
	}
	return new RegExp(`^${source}$`);
}

/** The commands of a step, with `\`-continued lines joined. */
function commands(step: Step): string[] {
	return (step.run ?? "")
		.replace(/\\\n/g, " ")
		.split("\n")
		.map((line) => line.trim())
		.filter(Boolean);
}

/** Index of the first step of `job` whose commands match. */
function stepIndex(job: Job, match: RegExp): number {
	return job.steps.findIndex((step) => commands(step).some((command) => match.test(command)));
}

function runsBefore(job: Job, first: RegExp, then: RegExp): boolean {
	const a = stepIndex(job, first);
	const b = stepIndex(job, then);
	return a !== -1 && b !== -1 && a < b;
}

function needsOf(job: Job): string[] {
	return job.needs === undefined ? [] : [job.needs].flat();
}

/** Every job that must succeed before `name` starts, transitively. */
function prerequisites(name: string): Set<string> {
	const found = new Set<string>();
	const visit = (job: string) => {
		for (const need of needsOf(workflow.jobs[job]!)) {
			if (found.has(need)) continue;
			found.add(need);
			visit(need);
		}
	};
	visit(name);
	return found;
}

describe("the release workflow", () => {
	it("runs on a pushed version tag x.y.z, and on nothing else", () => {
		expect(Object.keys(workflow.on)).toEqual(["push"]);
		const push = workflow.on.push as { tags?: string[]; branches?: unknown };
		expect(push.branches).toBeUndefined();
		const patterns = (push.tags ?? []).map(filterPattern);
		const triggers = (tag: string) => patterns.some((pattern) => pattern.test(tag));
		for (const tag of ["0.1.0", "1.12.3", "10.0.20"]) expect(triggers(tag), tag).toBe(true);
		// Obsidian looks a release up by the bare version: a "v" tag or a pre-release must not publish anything.
		for (const tag of ["v0.1.0", "0.1", "0.1.0-beta.1", "1.2.3.4", "latest"]) expect(triggers(tag), tag).toBe(false);
	});

	it("publishes only after typecheck, lint and the whole test suite have passed", () => {
		expect(releaseJob).toBeDefined();
		const [name, job] = releaseJob!;
		const before = [...prerequisites(name)].map((need) => workflow.jobs[need]!);
		const checked = (match: RegExp) =>
			before.some((other) => stepIndex(other, match) !== -1) || runsBefore(job, match, /gh release create/);
		expect(checked(/^npm run typecheck$/)).toBe(true);
		expect(checked(/^npm run lint$/)).toBe(true);
		expect(checked(/^npm test$/)).toBe(true);
	});

	it("tests where the browser tests' Chromium can be installed", () => {
		const tester = jobs.find(([, job]) => stepIndex(job, /^npm test$/) !== -1)?.[1];
		expect(tester?.container?.image).toMatch(/bookworm|debian/);
		expect(runsBefore(tester!, /apt-get install .*\bchromium\b/, /^npm test$/)).toBe(true);
	});

	it("tells npm test the merge corpus is absent on purpose (GitHub sets CI, where a missing corpus fails)", () => {
		// The corpus lives in ../shared beside the project's own CI clone; a release runner has none.
		const tester = jobs.find(([, job]) => stepIndex(job, /^npm test$/) !== -1)![1];
		expect(tester.steps[stepIndex(tester, /^npm test$/)]!.env?.REVISION_GUARD_CORPUS).toBe("absent");
	});

	it("installs from the lock file, builds, and checks the tag against the manifest before it creates the release", () => {
		const [, job] = releaseJob!;
		expect(runsBefore(job, /^if ! npm ci\b/, /^npm run build$/)).toBe(true);
		expect(runsBefore(job, /^npm run build$/, /gh release create/)).toBe(true);
		expect(runsBefore(job, /^node scripts\/check-release\.mjs "\$GITHUB_REF_NAME"$/, /gh release create/)).toBe(true);
		// A fallback install must not publish a build from other versions than the lock file's (the scanner uses npm ci).
		expect(job.steps.flatMap(commands)).toContain("git diff --exit-code package-lock.json");
	});

	it("creates the release for the pushed tag with exactly main.js, manifest.json and styles.css attached", () => {
		const [, job] = releaseJob!;
		const step = job.steps[stepIndex(job, /gh release create/)]!;
		expect(step.env?.GH_TOKEN).toBe("${{ github.token }}");
		const command = commands(step).find((line) => line.startsWith("gh release create"))!;
		const words = command.split(/\s+/).slice(3);
		expect(words[0]).toBe('"$GITHUB_REF_NAME"');
		const assets: string[] = [];
		for (let i = 1; i < words.length; i++) {
			const word = words[i]!;
			if (GH_VALUE_OPTIONS.has(word)) i++;
			else if (!word.startsWith("-")) assets.push(word);
		}
		expect(assets.sort()).toEqual([...RELEASE_ASSETS].sort());
		expect(words).toContain("--verify-tag");
	});

	it("gives write access only to the job that publishes, and uses no actions but checkout and setup-node", () => {
		expect(workflow.permissions).toEqual({ contents: "read" });
		for (const [name, job] of jobs) {
			if (name === releaseJob![0]) expect(job.permissions).toEqual({ contents: "write" });
			else expect(job.permissions ?? {}).not.toHaveProperty("contents", "write");
			for (const step of job.steps) if (step.uses) expect(step.uses).toMatch(/^actions\/(checkout|setup-node)@v\d+$/);
		}
	});

	it("builds with the Node version the tests ran on", () => {
		const [, job] = releaseJob!;
		const setup = job.steps.find((step) => step.uses?.startsWith("actions/setup-node@"));
		const tester = jobs.find(([, other]) => stepIndex(other, /^npm test$/) !== -1)![1];
		expect(tester.container?.image).toMatch(new RegExp(`^node:${String(setup?.with?.["node-version"])}-`));
	});
});
