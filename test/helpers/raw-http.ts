/**
 * Raw HTTP over a TCP socket, for requests no HTTP client would send (bad request lines, lying Content-Length, bytes
 * that are not UTF-8): the bytes go out exactly as given, and the answer is parsed strictly, so a malformed response
 * is caught rather than smoothed over.
 */
import { connect } from "net";

export interface RawExchange {
	/** Everything the server sent before closing the connection. */
	received: Buffer;
	/** True when the server neither answered nor closed within the bound and the test gave up on the socket. */
	gaveUp: boolean;
}

/**
 * Sends `bytes` to 127.0.0.1:`port` and collects the answer until the server closes the connection. With
 * `halfClose` the client ends its side after sending (as a client that sent a short body would); without it the
 * connection is left to the server to close (requests should carry `Connection: close`). `boundMs` is only a safety
 * net against a hang; nothing is asserted about time.
 */
export function sendRaw(
	port: number,
	bytes: Buffer,
	options: { halfClose?: boolean; boundMs?: number } = {},
): Promise<RawExchange> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		const socket = connect({ host: "127.0.0.1", port, allowHalfOpen: true });
		let settled = false;
		const finish = (gaveUp: boolean) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			socket.destroy();
			resolve({ received: Buffer.concat(chunks), gaveUp });
		};
		const timer = setTimeout(() => finish(true), options.boundMs ?? 15_000);
		socket.on("data", (chunk: Buffer) => chunks.push(chunk));
		socket.on("end", () => finish(false));
		socket.on("close", () => finish(false));
		socket.on("error", (error: NodeJS.ErrnoException) => {
			// A reset after the server answered and closed is an ordinary end of the exchange.
			if (error.code === "ECONNRESET" || error.code === "EPIPE") finish(false);
			else if (!settled) {
				settled = true;
				clearTimeout(timer);
				reject(error);
			}
		});
		socket.on("connect", () => {
			socket.write(bytes);
			if (options.halfClose) socket.end();
		});
	});
}

export interface ParsedResponse {
	status: number;
	reason: string;
	/** Header names lower-cased; repeated headers joined with ", ". */
	headers: Record<string, string>;
	body: Buffer;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Parses every HTTP/1.x response in `data`, strictly: a status line, well-formed header lines, CRLF line ends, and a
 * body framed by Content-Length or chunked encoding (or running to the close when neither is given). Throws with a
 * description of the first thing that is not well-formed. `headRequest` says the first final (non-1xx) response
 * answers a HEAD.
 */
export function parseResponses(data: Buffer, headRequest = false): ParsedResponse[] {
	const responses: ParsedResponse[] = [];
	let at = 0;
	while (at < data.length) {
		const end = data.indexOf("\r\n\r\n", at);
		if (end === -1)
			throw new Error(
				`response ${responses.length + 1} has no end of headers: ${JSON.stringify(data.subarray(at, at + 200).toString("latin1"))}`,
			);
		const lines = data.subarray(at, end).toString("latin1").split("\r\n");
		const statusLine = /^HTTP\/1\.[01] ([1-5]\d\d) ([^\r\n]*)$/.exec(lines[0]!);
		if (!statusLine) throw new Error(`malformed status line: ${JSON.stringify(lines[0])}`);
		const headers: Record<string, string> = {};
		for (const line of lines.slice(1)) {
			const colon = line.indexOf(":");
			const name = colon > 0 ? line.slice(0, colon) : "";
			if (!TOKEN.test(name) || /[\r\n\0]/.test(line)) throw new Error(`malformed header line: ${JSON.stringify(line)}`);
			const key = name.toLowerCase();
			const value = line.slice(colon + 1).trim();
			headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
		}
		const status = Number(statusLine[1]);
		at = end + 4;
		let body: Buffer;
		// Interim (1xx) responses come before the one that answers the request.
		const answersHead = headRequest && responses.every((response) => response.status < 200);
		const noBody = (answersHead && status >= 200) || status < 200 || status === 204 || status === 304;
		if (noBody) body = Buffer.alloc(0);
		else if (headers["transfer-encoding"] !== undefined) {
			if (headers["transfer-encoding"].toLowerCase() !== "chunked")
				throw new Error(`unexpected Transfer-Encoding ${headers["transfer-encoding"]}`);
			const parts: Buffer[] = [];
			for (;;) {
				const lineEnd = data.indexOf("\r\n", at);
				if (lineEnd === -1) throw new Error("chunked body cut off");
				const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
				if (!Number.isInteger(size) || size < 0) throw new Error("malformed chunk size");
				at = lineEnd + 2;
				if (size === 0) {
					const trailerEnd = data.indexOf("\r\n", at);
					if (trailerEnd === -1) throw new Error("chunked body has no final CRLF");
					at = trailerEnd + 2;
					break;
				}
				if (at + size + 2 > data.length || data.subarray(at + size, at + size + 2).toString("latin1") !== "\r\n")
					throw new Error("chunk cut off");
				parts.push(data.subarray(at, at + size));
				at += size + 2;
			}
			body = Buffer.concat(parts);
		} else if (headers["content-length"] !== undefined) {
			if (!/^\d+$/.test(headers["content-length"]))
				throw new Error(`malformed Content-Length ${headers["content-length"]}`);
			const length = Number(headers["content-length"]);
			if (at + length > data.length)
				throw new Error(`body cut off: Content-Length ${length}, ${data.length - at} bytes received`);
			body = data.subarray(at, at + length);
			at += length;
		} else {
			body = data.subarray(at);
			at = data.length;
		}
		responses.push({ status, reason: statusLine[2]!, headers, body });
	}
	return responses;
}
