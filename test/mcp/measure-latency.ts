/**
 * Prints the median round trip of read_note and write_note over MCP (SDK client, real server on 127.0.0.1), with REST
 * GET/PUT beside them for scale. A measurement, not a test: `npx vite-node test/mcp/measure-latency.ts`.
 */
import { performance } from "perf_hooks";
import { startHeadless, TEST_KEY } from "../helpers/headless-harness";
import { writeVaultFile } from "../helpers/vault-files";
import { connect } from "./mcp-client";

const CALLS = 200;
const WARM_UP = 20;

async function median(label: string, run: (i: number) => Promise<void>): Promise<void> {
	for (let i = 0; i < WARM_UP; i++) await run(-1 - i);
	const times: number[] = [];
	for (let i = 0; i < CALLS; i++) {
		const start = performance.now();
		await run(i);
		times.push(performance.now() - start);
	}
	times.sort((a, b) => a - b);
	const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
	console.log(`${label.padEnd(22)} median ${at(0.5)} ms   p90 ${at(0.9)} ms   (${CALLS} calls)`);
}

const h = await startHeadless();
const body = "# Note\n\n" + "a line of text\n".repeat(100);
await writeVaultFile(h.dir, "Note.md", body);
const mcp = await connect(h.port, TEST_KEY);
try {
	let revision = "";
	await median("MCP read_note", async () => {
		const read = await mcp.tool("read_note", { path: "Note.md" });
		revision = read.structured!.revision as string;
	});
	await median("MCP write_note", async (i) => {
		const written = await mcp.tool("write_note", { path: "Note.md", content: `${body}write ${i}\n`, revision });
		if (written.isError) throw new Error(written.prose);
		revision = written.structured!.revision as string;
	});
	let etag = "";
	await median("REST GET /vault", async () => {
		etag = (await h.api("/vault/Note.md")).headers.etag as string;
	});
	await median("REST PUT /vault", async (i) => {
		const put = await h.api("/vault/Note.md", {
			method: "PUT",
			body: `${body}put ${i}\n`,
			headers: { "If-Match": etag },
		});
		if (put.status !== 204) throw new Error(put.text);
		etag = put.headers.etag as string;
	});
} finally {
	await mcp.close();
	await h.close();
}
