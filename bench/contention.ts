/**
 * Many read-modify-write clients on ONE note: each reads the note (GET), appends a line only it ever writes, and
 * sends it back with the ETag it read (If-Match). A 412 sends it round again. Every line whose PUT was acknowledged
 * (2xx) must be in the final note: one missing line is a lost update.
 */
import { Agent, request } from "http";

export interface ContentionResult {
	/** GET + PUT round trips per second, refused or not. */
	pairsPerSecond: number;
	/** Acknowledged (2xx) writes per second. */
	acknowledgedPerSecond: number;
	acknowledged: number;
	/** Acknowledged lines missing from the final note. */
	lost: number;
	/** Answers that were neither 2xx nor 412. */
	errors: number;
}

/** Runs so far in this process (each names its lines with its own number). */
let runs = 0;

export async function measureContention(
	port: number,
	path: string,
	headers: Record<string, string>,
	clients: number,
	durationMs: number,
): Promise<ContentionResult> {
	const agent = new Agent({ keepAlive: true, maxSockets: clients });
	// Lines are unique across runs on one note too: a line an earlier run left would hide the loss of the same line now.
	const run = ++runs;
	const acknowledgedLines: string[] = [];
	let pairs = 0;
	let errors = 0;
	const started = performance.now();
	const deadline = started + durationMs;
	await Promise.all(
		Array.from({ length: clients }, async (_, client) => {
			for (let attempt = 0; performance.now() < deadline; attempt++) {
				const read = await send(agent, port, "GET", path, headers);
				if (read.status !== 200 || !read.etag) {
					errors++;
					continue;
				}
				const line = `- run ${run} client ${client} attempt ${attempt}`;
				const written = await send(
					agent,
					port,
					"PUT",
					path,
					{ ...headers, "If-Match": read.etag },
					`${read.body}${line}\n`,
				);
				pairs++;
				if (written.status >= 200 && written.status < 300) acknowledgedLines.push(line);
				else if (written.status !== 412) errors++;
			}
		}),
	);
	const seconds = (performance.now() - started) / 1000;
	const final = await send(agent, port, "GET", path, headers);
	agent.destroy();
	const present = new Set(final.body.split("\n"));
	return {
		pairsPerSecond: pairs / seconds,
		acknowledgedPerSecond: acknowledgedLines.length / seconds,
		acknowledged: acknowledgedLines.length,
		lost: acknowledgedLines.filter((line) => !present.has(line)).length,
		errors,
	};
}

function send(
	agent: Agent,
	port: number,
	method: string,
	path: string,
	headers: Record<string, string>,
	body?: string,
): Promise<{ status: number; etag?: string; body: string }> {
	return new Promise((resolve, reject) => {
		const req = request(
			{ host: "127.0.0.1", port, agent, method, path, headers: { Host: `127.0.0.1:${port}`, ...headers } },
			(res) => {
				const chunks: Buffer[] = [];
				res.on("data", (chunk: Buffer) => chunks.push(chunk));
				res.on("end", () =>
					resolve({
						status: res.statusCode ?? 0,
						etag: res.headers.etag,
						body: Buffer.concat(chunks).toString("utf8"),
					}),
				);
			},
		);
		req.on("error", reject);
		req.end(body);
	});
}
