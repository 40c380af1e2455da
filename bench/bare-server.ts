/**
 * The bare baselines of issue 13: a plain Node http server with nothing of ours in it.
 * - GET reads the file on every request and sends it with a SHA-256 ETag (what any honest reader must do at least).
 * - PUT writes with the same durability as ours: a temp file in the same folder, fsync, rename, fsync the folder.
 *   No token check, no history, no watcher: the cost of durability alone.
 * - POST /search/simple/ and /search/ scan the notes plainly (bare-search.ts).
 */
import { randomBytes, createHash } from "crypto";
import { createServer } from "http";
import { promises as fs } from "fs";
import { dirname, join } from "path";
import { bareSearch } from "./bare-search";

export async function startBareServer(vault: string): Promise<number> {
	const server = createServer((req, res) => {
		if (req.method === "POST" && req.url?.startsWith("/search/")) return bareSearch(vault, req, res);
		const path = join(vault, decodeURIComponent((req.url ?? "/").slice("/vault/".length)));
		const fail = () => {
			res.writeHead(500);
			res.end();
		};
		if (req.method === "PUT") {
			const chunks: Buffer[] = [];
			req.on("data", (chunk: Buffer) => chunks.push(chunk));
			req.on("end", () => {
				writeDurably(path, Buffer.concat(chunks)).then(() => {
					res.writeHead(204);
					res.end();
				}, fail);
			});
			return;
		}
		fs.readFile(path).then(
			(bytes) => {
				const etag = `"${createHash("sha256").update(bytes).digest("base64url")}"`;
				res.writeHead(200, {
					"Content-Type": "text/markdown; charset=utf-8",
					"Content-Length": bytes.length,
					ETag: etag,
				});
				res.end(bytes);
			},
			() => {
				res.writeHead(404);
				res.end();
			},
		);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return (server.address() as { port: number }).port;
}

async function writeDurably(target: string, bytes: Buffer): Promise<void> {
	const temp = join(dirname(target), `.bare-${randomBytes(6).toString("hex")}`);
	const file = await fs.open(temp, "wx");
	try {
		await file.writeFile(bytes);
		await file.sync();
	} finally {
		await file.close();
	}
	await fs.rename(temp, target);
	const folder = await fs.open(dirname(target), "r");
	try {
		await folder.sync();
	} finally {
		await folder.close();
	}
}
