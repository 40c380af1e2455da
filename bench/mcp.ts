/** MCP round trips (read_note, write_note) with the SDK's own client, beside REST GET/PUT on the same server. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "http";
import { BENCH_KEY } from "./servers";

export interface McpFigures {
	readMs: number;
	writeMs: number;
	restGetMs: number;
	restPutMs: number;
}

const CALLS = 200;
const WARM_UP = 20;

async function median(run: (i: number) => Promise<void>): Promise<number> {
	for (let i = 0; i < WARM_UP; i++) await run(-1 - i);
	const times: number[] = [];
	for (let i = 0; i < CALLS; i++) {
		const t0 = performance.now();
		await run(i);
		times.push(performance.now() - t0);
	}
	return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

function rest(
	port: number,
	method: string,
	path: string,
	headers: Record<string, string>,
	body?: string,
): Promise<{ status: number; etag: string }> {
	return new Promise((resolve, reject) => {
		const req = request(
			{
				host: "127.0.0.1",
				port,
				method,
				path,
				headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${BENCH_KEY}`, ...headers },
			},
			(res) => {
				res.resume();
				res.on("end", () => resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? "") }));
			},
		);
		req.on("error", reject);
		req.end(body);
	});
}

/** `notePath` must exist on the server's vault (the benchmark's read vault). */
export async function measureMcp(port: number, notePath: string): Promise<McpFigures> {
	const client = new Client({ name: "revision-guard-bench", version: "1" });
	const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
		requestInit: { headers: { Authorization: `Bearer ${BENCH_KEY}` } },
	});
	await client.connect(transport);
	try {
		const call = async (name: string, args: Record<string, unknown>) => {
			const result = (await client.callTool({ name, arguments: args })) as {
				isError?: boolean;
				structuredContent?: Record<string, unknown>;
			};
			if (result.isError) throw new Error(`${name} failed`);
			return result.structuredContent ?? {};
		};
		let revision = "";
		const readMs = await median(async () => {
			revision = String((await call("read_note", { path: notePath })).revision);
		});
		const body = "# Bench\n\n" + "a line of text\n".repeat(100);
		const writeMs = await median(async (i) => {
			revision = String(
				(await call("write_note", { path: notePath, content: `${body}write ${i}\n`, revision })).revision,
			);
		});
		const url = `/vault/${notePath}`;
		let etag = "";
		const restGetMs = await median(async () => {
			etag = (await rest(port, "GET", url, {})).etag;
		});
		const restPutMs = await median(async (i) => {
			const put = await rest(port, "PUT", url, { "If-Match": etag }, `${body}put ${i}\n`);
			if (put.status !== 204) throw new Error(`PUT answered ${put.status}`);
			etag = put.etag;
		});
		return { readMs, writeMs, restGetMs, restPutMs };
	} finally {
		await client.close();
	}
}
