/** A tiny HTTP client over node:http, so tests control every header (fetch refuses to set Host, for one). */
import { request } from "http";

export interface CallOptions {
	method?: string;
	headers?: Record<string, string>;
	body?: string | Buffer;
	/** Sent as-is on the request line, without any normalization. */
	rawPath?: string;
}

export interface CallResult {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	json<T = Record<string, unknown>>(): T;
}

/** Sees every response `call` receives (method, request path, result); returns an unsubscribe function. */
export type ResponseObserver = (method: string, path: string, result: CallResult) => void;
const observers = new Set<ResponseObserver>();

export function observeResponses(observer: ResponseObserver): () => void {
	observers.add(observer);
	return () => observers.delete(observer);
}

export function call(port: number, path: string, options: CallOptions = {}): Promise<CallResult> {
	const method = options.method ?? "GET";
	const requestPath = options.rawPath ?? path;
	return new Promise<CallResult>((resolve, reject) => {
		const req = request(
			{
				host: "127.0.0.1",
				port,
				method,
				path: requestPath,
				headers: { Host: `127.0.0.1:${port}`, ...options.headers },
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on("data", (chunk: Buffer) => chunks.push(chunk));
				res.on("end", () => {
					const text = Buffer.concat(chunks).toString("utf8");
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						text,
						json: <T>() => JSON.parse(text) as T,
					});
				});
				res.on("error", reject);
			},
		);
		req.on("error", reject);
		if (options.body !== undefined) req.write(options.body);
		req.end();
	}).then((result) => {
		for (const observer of observers) observer(method, requestPath, result);
		return result;
	});
}
