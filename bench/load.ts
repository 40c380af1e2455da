/** A small closed-loop HTTP load generator over loopback: N connections, each sending its next request when the last answers. */
import { Agent, request } from "http";

export interface LoadResult {
	requests: number;
	seconds: number;
	rps: number;
	p50ms: number;
	p99ms: number;
	errors: number;
}

export interface LoadRequest {
	method: string;
	path: string;
	headers?: Record<string, string>;
	body?: string;
}

/**
 * Runs `connections` loops for `durationMs`. `next(loop, lastResponse)` builds each loop's next request from the
 * previous answer (so a PUT loop can carry the ETag it just received).
 */
export async function runLoad(
	port: number,
	connections: number,
	durationMs: number,
	next: (loop: number, last: { status: number; etag?: string } | null) => LoadRequest,
	expectStatus: (status: number) => boolean,
): Promise<LoadResult> {
	const agent = new Agent({ keepAlive: true, maxSockets: connections });
	const latencies: number[] = [];
	let errors = 0;
	const deadline = performance.now() + durationMs;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: connections }, async (_, loop) => {
			let last: { status: number; etag?: string } | null = null;
			while (performance.now() < deadline) {
				const spec = next(loop, last);
				const t0 = performance.now();
				last = await send(agent, port, spec);
				latencies.push(performance.now() - t0);
				if (!expectStatus(last.status)) errors++;
			}
		}),
	);
	const seconds = (performance.now() - started) / 1000;
	agent.destroy();
	latencies.sort((a, b) => a - b);
	const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
	return {
		requests: latencies.length,
		seconds,
		rps: latencies.length / seconds,
		p50ms: pick(0.5),
		p99ms: pick(0.99),
		errors,
	};
}

function send(agent: Agent, port: number, spec: LoadRequest): Promise<{ status: number; etag?: string }> {
	return new Promise((resolve, reject) => {
		const req = request(
			{
				host: "127.0.0.1",
				port,
				agent,
				method: spec.method,
				path: spec.path,
				headers: { Host: `127.0.0.1:${port}`, ...spec.headers },
			},
			(res) => {
				res.resume();
				res.on("end", () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag }));
			},
		);
		req.on("error", reject);
		req.end(spec.body);
	});
}
