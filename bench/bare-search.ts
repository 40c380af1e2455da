/**
 * The bare baseline of the search rows: a plain Node scan of the same notes with nothing of ours. Simple search reads
 * every note, lowers it and finds every occurrence of every word (the Local REST API's answer shape, sorted by the
 * number of occurrences); the JsonLogic row's query (a tag in the frontmatter) is hand-written here: read every note,
 * parse its frontmatter with the same YAML library, test the tag. No path policy, no budget, no turns for the host.
 */
import { promises as fs } from "fs";
import type { IncomingMessage, ServerResponse } from "http";
import { join } from "path";
import { parse } from "yaml";

/** Every .md file under `folder`, as vault paths. */
async function notePaths(vault: string, folder = ""): Promise<string[]> {
	const out: string[] = [];
	for (const entry of await fs.readdir(join(vault, folder), { withFileTypes: true })) {
		if (entry.name.startsWith(".")) continue;
		const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
		if (entry.isDirectory()) out.push(...(await notePaths(vault, path)));
		else if (entry.name.endsWith(".md")) out.push(path);
	}
	return out;
}

async function simple(vault: string, query: string, contextLength: number): Promise<unknown[]> {
	const words = query.toLowerCase().split(" ").filter(Boolean);
	const hits: { filename: string; score: number; matches: unknown[] }[] = [];
	for (const path of await notePaths(vault)) {
		const content = await fs.readFile(join(vault, path), "utf8");
		const lower = content.toLowerCase();
		const ranges: [number, number][] = [];
		let all = true;
		for (const word of words) {
			let at = lower.indexOf(word);
			if (at === -1) {
				all = false;
				break;
			}
			for (; at !== -1; at = lower.indexOf(word, at + word.length)) ranges.push([at, at + word.length]);
		}
		if (!all) continue;
		ranges.sort((a, b) => a[0] - b[0]);
		hits.push({
			filename: path,
			score: ranges.length,
			matches: ranges.slice(0, 100).map(([start, end]) => ({
				match: { start, end, source: "content" },
				context: content.slice(Math.max(start - contextLength, 0), end + contextLength),
			})),
		});
	}
	return hits.sort((a, b) => b.score - a.score);
}

async function taggedWith(vault: string, tag: string): Promise<unknown[]> {
	const hits: unknown[] = [];
	for (const path of await notePaths(vault)) {
		const content = await fs.readFile(join(vault, path), "utf8");
		const end = content.startsWith("---\n") ? content.indexOf("\n---", 4) : -1;
		const frontmatter = end === -1 ? null : (parse(content.slice(4, end)) as { tags?: unknown } | null);
		if (Array.isArray(frontmatter?.tags) && frontmatter.tags.includes(tag)) hits.push({ filename: path, result: true });
	}
	return hits;
}

/** Answers POST /search/simple/?query= and POST /search/ (the row's one query: `{"in": [TAG, {"var": "tags"}]}`). */
export function bareSearch(vault: string, req: IncomingMessage, res: ServerResponse): void {
	const url = new URL(req.url ?? "/", "http://localhost");
	const chunks: Buffer[] = [];
	req.on("data", (chunk: Buffer) => chunks.push(chunk));
	req.on("end", () => {
		const body = Buffer.concat(chunks).toString("utf8");
		const work = url.pathname.startsWith("/search/simple/")
			? simple(vault, url.searchParams.get("query") ?? "", Number(url.searchParams.get("contextLength") ?? 100))
			: taggedWith(vault, (JSON.parse(body) as { in: [string, unknown] }).in[0]);
		work.then(
			(hits) => {
				const text = JSON.stringify(hits);
				res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
				res.end(text);
			},
			() => {
				res.writeHead(500);
				res.end();
			},
		);
	});
}
