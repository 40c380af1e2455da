/** Putting answers on the wire: a handler's ApiResponse onto a ServerResponse, or a problem straight onto a socket. */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "http";
import type { Socket } from "net";
import type { Duplex } from "stream";
import { PROBLEM_CONTENT_TYPE } from "./problems";
import type { ApiResponse } from "./response";

/** Writes a problem straight to a socket that has no ServerResponse (an unparsable request, no room), then closes it. */
export function answerAndClose(socket: Duplex, answer: ApiResponse): void {
	if (socket.writable) {
		const body = Buffer.from(JSON.stringify(answer.body), "utf8");
		const headers = {
			"Content-Type": PROBLEM_CONTENT_TYPE,
			"Content-Length": String(body.length),
			"X-Content-Type-Options": "nosniff",
			...answer.headers,
			Connection: "close",
		};
		const head = Object.entries(headers)
			.map(([name, value]) => `${name}: ${value}\r\n`)
			.join("");
		socket.write(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}\r\n${head}\r\n`);
		// end() flushes what was written before closing; a client that never reads is cut off after a second idle.
		socket.end(body);
		(socket as Partial<Socket>).setTimeout?.(1_000, () => socket.destroy());
	} else socket.destroy();
}

export function send(response: ServerResponse, answer: ApiResponse, request: IncomingMessage): void {
	const headers: Record<string, string> = { "X-Content-Type-Options": "nosniff", ...answer.headers };
	let payload: Buffer | null = null;
	if (answer.body !== undefined && answer.status !== 204 && answer.status !== 304) {
		const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
		payload = Buffer.from(text, "utf8");
		headers["Content-Type"] =
			answer.contentType ?? (typeof answer.body === "string" ? "text/plain; charset=utf-8" : PROBLEM_CONTENT_TYPE);
		headers["Content-Length"] = String(payload.length);
	}
	if (headers.Connection === "close") request.resume();
	response.writeHead(answer.status, headers);
	response.end(answer.omitBody ? undefined : (payload ?? undefined));
}

export function corsHeaders(origin: string): Record<string, string> {
	return {
		"Access-Control-Allow-Origin": origin,
		"Access-Control-Expose-Headers":
			"ETag, Location, Content-Location, Preference-Applied, Deprecation, Mcp-Session-Id",
		Vary: "Origin",
	};
}

/** CORS grants only ever go to allowed origins (others were refused before routing). */
export function preflight(allow: string[] | null, cors: Record<string, string>): ApiResponse {
	if (allow === null || !cors["Access-Control-Allow-Origin"])
		return { status: 204, headers: { Allow: (allow ?? []).join(", ") } };
	return {
		status: 204,
		headers: {
			...cors,
			"Access-Control-Allow-Methods": allow.join(", "),
			"Access-Control-Allow-Headers":
				"Authorization, Content-Type, If-Match, If-None-Match, Accept, Prefer, Operation, " +
				"Target-Type, Target, Target-Delimiter, Create-Target-If-Missing, Markdown-Patch-Version, " +
				"Allow-Empty, Destination, Allow-Overwrite, Destination-If-Match, Mcp-Session-Id, " +
				"Mcp-Protocol-Version, Last-Event-ID",
			"Access-Control-Max-Age": "600",
		},
	};
}

export function withHeaders(response: ApiResponse, headers: Record<string, string>): ApiResponse {
	return Object.keys(headers).length === 0 ? response : { ...response, headers: { ...headers, ...response.headers } };
}

/** How many Host field lines a request carries (Node keeps only the first in `headers`). */
export function hostLines(rawHeaders: readonly string[]): number {
	let count = 0;
	// Only a four-letter name can be Host: the others are not lower-cased at all (this runs on every request).
	for (let i = 0; i < rawHeaders.length; i += 2)
		if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === "host") count++;
	return count;
}
