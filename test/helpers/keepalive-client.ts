/** An HTTP client bound to one keep-alive agent, for tests that hammer the server with many requests per socket. */
import { Agent, request } from "http";

export interface KeepAliveResult {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
	text: string;
}

export interface KeepAliveClient {
	call(
		method: string,
		path: string,
		options?: { headers?: Record<string, string>; body?: string | Buffer },
	): Promise<KeepAliveResult>;
	close(): void;
}

/** `sockets` keep-alive connections to 127.0.0.1:`port`, each request sent with `headers` (e.g. the key). */
export function keepAliveClient(port: number, headers: Record<string, string> = {}, sockets = 1): KeepAliveClient {
	const agent = new Agent({ keepAlive: true, maxSockets: sockets });
	return {
		call(method, path, options = {}) {
			return new Promise<KeepAliveResult>((resolve, reject) => {
				const req = request(
					{
						host: "127.0.0.1",
						port,
						method,
						path,
						agent,
						headers: { Host: `127.0.0.1:${port}`, ...headers, ...options.headers },
					},
					(res) => {
						const chunks: Buffer[] = [];
						res.on("data", (chunk: Buffer) => chunks.push(chunk));
						res.on("end", () => {
							const body = Buffer.concat(chunks);
							resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString("utf8") });
						});
						res.on("error", reject);
					},
				);
				req.on("error", reject);
				if (options.body !== undefined) req.write(options.body);
				req.end();
			});
		},
		close() {
			agent.destroy();
		},
	};
}
