/**
 * The documentation's links lead somewhere: every relative link (and its #anchor) in the README, docs/, the
 * architecture and contributing guides and the tests' READMEs names a file that exists and a heading it has, and every
 * source path ARCHITECTURE.md names in code (`src/service/write/guarded-writer.ts`) exists, so the walk through
 * the code stays true when files move.
 */
import { existsSync, readdirSync, readFileSync } from "fs";
import { dirname, join, relative, resolve } from "path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");

const DOCUMENTS = [
	"README.md",
	"ARCHITECTURE.md",
	"CONTRIBUTING.md",
	"test/README.md",
	"test/obsidian-stub/README.md",
	...readdirSync(join(ROOT, "docs"))
		.filter((name) => name.endsWith(".md"))
		.map((name) => `docs/${name}`),
];

/** The lines of a markdown text outside fenced code blocks, with inline code taken out. */
function proseLines(text: string): string[] {
	let fence: string | undefined;
	const lines: string[] = [];
	for (const line of text.split("\n")) {
		const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
		if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
			fence = fence === undefined ? marker : undefined;
			continue;
		}
		if (fence === undefined) lines.push(line.replace(/`[^`]*`/g, "``"));
	}
	return lines;
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
function slugOf(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
		.replace(/`([^`]*)`/g, "$1")
		.replace(/<[^>]+>/g, "")
		.replace(/[*]/g, "");
	return text
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
		.replace(/ /g, "-");
}

function anchorsOf(path: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	let fence: string | undefined;
	for (const line of readFileSync(path, "utf8").split("\n")) {
		const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
		if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
			fence = fence === undefined ? marker : undefined;
			continue;
		}
		const heading = fence === undefined ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1] : undefined;
		if (heading === undefined) continue;
		const slug = slugOf(heading);
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

interface Link {
	document: string;
	target: string;
}

function linksOf(document: string): Link[] {
	const text = proseLines(readFileSync(join(ROOT, document), "utf8")).join("\n");
	return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
		.map((match) => match[1]!)
		.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
		.map((target) => ({ document, target }));
}

/** What is wrong with a link, or undefined when it leads to an existing file and heading. */
function brokenBecause({ document, target }: Link): string | undefined {
	const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
	const file = pathPart === "" ? join(ROOT, document) : resolve(dirname(join(ROOT, document)), decodeURI(pathPart));
	if (!existsSync(file)) return `no file ${relative(ROOT, file)}`;
	if (anchor === undefined || anchor === "") return undefined;
	if (!file.endsWith(".md")) return `an anchor into ${relative(ROOT, file)}, which is not markdown`;
	return anchorsOf(file).has(decodeURIComponent(anchor))
		? undefined
		: `no heading #${anchor} in ${relative(ROOT, file)}`;
}

describe("documentation links", () => {
	it("finds the documents it checks", () => {
		for (const document of DOCUMENTS) expect(existsSync(join(ROOT, document)), document).toBe(true);
		expect(DOCUMENTS).toContain("docs/rest-api.md");
	});

	it("computes GitHub's anchors", () => {
		expect(slugOf("Move, rename or copy: `MOVE` and `COPY` on `/vault/{path}`")).toBe(
			"move-rename-or-copy-move-and-copy-on-vaultpath",
		);
		expect(slugOf("Clients that never send `If-Match`")).toBe("clients-that-never-send-if-match");
		expect(slugOf("The Obsidian simulation (`obsidian-stub/`)")).toBe("the-obsidian-simulation-obsidian-stub");
	});

	it.each(DOCUMENTS)("every relative link and #anchor in %s resolves", (document) => {
		const broken = linksOf(document)
			.map((link) => ({ target: link.target, why: brokenBecause(link) }))
			.filter((link) => link.why !== undefined);
		expect(broken).toEqual([]);
	});

	it("every source path ARCHITECTURE.md names in code exists", () => {
		const text = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
		const paths = [...text.matchAll(/`((?:src|test|hooks|bench|scripts|docs)\/[\w./-]*)`/g)].map((match) => match[1]!);
		expect(paths.length).toBeGreaterThan(20);
		expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
	});
});
