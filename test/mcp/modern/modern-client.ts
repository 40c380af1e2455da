/**
 * A 2026-07-28 client on the raw wire: every request a POST with its `_meta` and the headers that mirror it, so tests
 * can send exactly what a conforming client sends, and then break one thing at a time.
 */
import { request as httpRequest } from "http";
import { call, type CallResult } from "../../helpers/http-client";
import { TEST_KEY } from "../../helpers/headless-harness";

export const MODERN = "2026-07-28";
export const MODERN_META = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "revision-guard-modern-test", version: "1.0.0" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

export interface ModernOptions {
	/** Headers added to (or, with undefined, taken from) what a conforming client sends. */
	headers?: Record<string, string | undefined>;
	/** Replaces params._meta. */
	meta?: Record<string, unknown>;
	key?: string;
	path?: string;
	id?: number | string;
}

let nextId = 1;

/** The headers a conforming client sends for `method` (Mcp-Name from params.name or params.uri). */
export function modernHeaders(method: string, params: Record<string, unknown>, key = TEST_KEY): Record<string, string> {
	const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
	return {
		Authorization: `Bearer ${key}`,
		"Content-Type": "application/json",
		Accept: "application/json, text/event-stream",
		"MCP-Protocol-Version": MODERN,
		"Mcp-Method": method,
		...(name !== undefined ? { "Mcp-Name": headerSafe(name) } : {}),
	};
}

/** A value as a header carries it: plain when it is visible ASCII, else in the Base64 sentinel form. */
export function headerSafe(value: string): string {
	return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !/^=\?base64\?.*\?=$/.test(value)
		? value
		: `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

export async function modernCall(
	port: number,
	method: string,
	params: Record<string, unknown> = {},
	options: ModernOptions = {},
): Promise<CallResult> {
	const headers: Record<string, string> = { ...modernHeaders(method, params, options.key) };
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (value === undefined) delete headers[name];
		else headers[name] = value;
	}
	const body = {
		jsonrpc: "2.0",
		id: options.id ?? nextId++,
		method,
		params: { ...params, _meta: options.meta ?? MODERN_META },
	};
	return call(port, options.path ?? "/mcp", { method: "POST", headers, body: JSON.stringify(body) });
}

export interface ModernAnswer {
	status: number;
	result: Record<string, unknown> | undefined;
	error: { code: number; message: string; data?: Record<string, unknown> } | undefined;
	raw: CallResult;
}

export async function modern(
	port: number,
	method: string,
	params: Record<string, unknown> = {},
	options: ModernOptions = {},
): Promise<ModernAnswer> {
	const raw = await modernCall(port, method, params, options);
	const body = raw.json<{ result?: Record<string, unknown>; error?: ModernAnswer["error"] }>();
	return { status: raw.status, result: body.result, error: body.error, raw };
}

/** A tools/call, its result's prose and JSON facts as mcp-client.ts's toolResult reads them. */
export async function modernTool(
	port: number,
	name: string,
	args: Record<string, unknown>,
	options: ModernOptions = {},
) {
	const answer = await modern(port, "tools/call", { name, arguments: args }, options);
	const result = answer.result as
		| {
				isError?: boolean;
				content: { type: string; text: string }[];
				structuredContent?: Record<string, unknown>;
				resultType?: string;
		  }
		| undefined;
	if (!result) throw new Error(`tools/call ${name} answered ${answer.raw.text}`);
	const texts = result.content.filter((block) => block.type === "text").map((block) => block.text);
	return {
		answer,
		resultType: result.resultType,
		isError: result.isError === true,
		prose: texts[0] ?? "",
		structured: result.structuredContent,
		details: result.isError && texts[1] !== undefined ? (JSON.parse(texts[1]) as Record<string, unknown>) : undefined,
	};
}

export interface ListenStream {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	/** Every SSE message so far (a refused listen: its one JSON body). */
	messages: Record<string, unknown>[];
	/** Resolves with the `count`th message (1-based) once it has arrived. */
	message(count: number): Promise<Record<string, unknown>>;
	/** Resolves once the server ended the stream. */
	ended: Promise<void>;
	/** The client goes away. */
	close(): void;
}

/** A subscriptions/listen POST held open, its SSE messages parsed as they come. */
export function modernListen(
	port: number,
	uris: string[],
	options: { key?: string; id?: number | string; notifications?: Record<string, unknown> } = {},
): Promise<ListenStream> {
	const params = { notifications: options.notifications ?? { resourceSubscriptions: uris } };
	const body = JSON.stringify({
		jsonrpc: "2.0",
		id: options.id ?? nextId++,
		method: "subscriptions/listen",
		params: { ...params, _meta: MODERN_META },
	});
	return new Promise((resolve, reject) => {
		const request = httpRequest(
			{
				host: "127.0.0.1",
				port,
				path: "/mcp",
				method: "POST",
				agent: false,
				headers: modernHeaders("subscriptions/listen", params, options.key),
			},
			(response) => {
				const messages: Record<string, unknown>[] = [];
				const waiting: { count: number; resolve: (message: Record<string, unknown>) => void }[] = [];
				let buffer = "";
				const take = (message: Record<string, unknown>) => {
					messages.push(message);
					for (const wait of waiting.filter((entry) => entry.count === messages.length)) wait.resolve(message);
				};
				const ended = new Promise<void>((done) => {
					response.on("end", done);
					response.on("close", done);
				});
				// The client closing its own stream is not a failure.
				response.on("error", () => undefined);
				response.setEncoding("utf8");
				const streaming = String(response.headers["content-type"]).startsWith("text/event-stream");
				response.on("data", (chunk: string) => {
					buffer += chunk;
					if (!streaming) return;
					let cut: number;
					while ((cut = buffer.indexOf("\n\n")) >= 0) {
						const event = buffer.slice(0, cut);
						buffer = buffer.slice(cut + 2);
						const data = event
							.split("\n")
							.filter((line) => line.startsWith("data: "))
							.map((line) => line.slice(6))
							.join("\n");
						if (data) take(JSON.parse(data) as Record<string, unknown>);
					}
				});
				if (!streaming) response.on("end", () => take(JSON.parse(buffer) as Record<string, unknown>));
				resolve({
					status: response.statusCode ?? 0,
					headers: response.headers,
					messages,
					message: (count) =>
						messages.length >= count
							? Promise.resolve(messages[count - 1]!)
							: new Promise((found) => waiting.push({ count, resolve: found })),
					ended,
					close: () => request.destroy(),
				});
			},
		);
		request.on("error", reject);
		request.end(body);
	});
}
