/** Reads a request body with a hard byte cap and strict UTF-8 decoding: a note is never written with replacement characters. */
import type { IncomingMessage } from "http";
import { refuse } from "./problems";

export type BodyResult =
	{ ok: true; text: string; bytes: number } | { ok: false; problem: "payload-too-large" | "invalid-utf8" | "aborted" };

/**
 * One decoder for every body (a whole decode keeps no state between calls, and making one per request costs more
 * than many a decode). ignoreBOM keeps a leading BOM in the text, so the .bak of a refused body stays byte-identical.
 */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Listens for the body's chunks directly: an async iterator over the request costs several times more per small body
 * (its promise per chunk), and most bodies are one chunk.
 */
export function readTextBody(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
	const declared = Number(request.headers["content-length"]);
	if (Number.isFinite(declared) && declared > maxBytes)
		return Promise.resolve({ ok: false, problem: "payload-too-large" });
	// Nothing more will come on a request already ended or stopped (an async iterator answered these at once too).
	if (request.readableEnded) return Promise.resolve(decodeBody(Buffer.alloc(0)));
	if (request.destroyed) return Promise.resolve({ ok: false, problem: "aborted" });
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let total = 0;
		let settled = false;
		const settle = (result: BodyResult) => {
			if (settled) return;
			settled = true;
			// The error listener stays (answering nothing now): a request that fails after a 413 must not be an error
			// nobody listens for.
			request.off("data", onData).off("end", onEnd).off("close", onAborted);
			resolve(result);
		};
		const onData = (chunk: Buffer) => {
			total += chunk.length;
			if (total <= maxBytes) return void chunks.push(chunk);
			// The rest is discarded as it comes (the stream keeps flowing without a listener), and the 413 is sent with
			// Connection: close, after which the server closes the connection.
			settle({ ok: false, problem: "payload-too-large" });
		};
		const onEnd = () => settle(decodeBody(Buffer.concat(chunks, total)));
		// An error, or a close before the end: the client went away mid-body.
		const onAborted = () => settle({ ok: false, problem: "aborted" });
		request.on("data", onData).on("end", onEnd).on("error", onAborted).on("close", onAborted);
	});
}

function decodeBody(bytes: Buffer): BodyResult {
	try {
		return { ok: true, text: STRICT_UTF8.decode(bytes), bytes: bytes.length };
	} catch {
		return { ok: false, problem: "invalid-utf8" };
	}
}

const MB = 1024 * 1024;

/** The body as text, or the request stops with the problem that says why it was not read (for REST and MCP alike). */
export async function bodyTextOrRefuse(request: IncomingMessage, limitMB: number): Promise<string> {
	const result = await readTextBody(request, limitMB * MB);
	if (result.ok) return result.text;
	if (result.problem === "payload-too-large")
		return refuse(
			"payload-too-large",
			`The body is over the ${limitMB} MB limit; nothing was read or written.`,
			{},
			{ Connection: "close" },
		);
	if (result.problem === "invalid-utf8")
		return refuse(
			"invalid-utf8",
			"The body is not valid UTF-8; nothing was read or written. Send the note as UTF-8 text.",
		);
	return refuse("bad-request", "The request body was cut off; nothing was read or written.");
}
