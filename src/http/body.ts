/** Reads a request body with a hard byte cap and strict UTF-8 decoding: a note is never written with replacement characters. */
import type { IncomingMessage } from "http";
import { refuse } from "./problems";

export type BodyResult =
	| { ok: true; text: string; bytes: number }
	| { ok: false; problem: "payload-too-large" | "invalid-utf8" | "aborted" };

/**
 * One decoder for every body (a whole decode keeps no state between calls, and making one per request costs more
 * than many a decode). ignoreBOM keeps a leading BOM in the text, so the .bak of a refused body stays byte-identical.
 */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export async function readTextBody(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
	const declared = Number(request.headers["content-length"]);
	if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, problem: "payload-too-large" };
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of request as AsyncIterable<Buffer>) {
			total += chunk.length;
			if (total > maxBytes) return { ok: false, problem: "payload-too-large" };
			chunks.push(chunk);
		}
	} catch {
		return { ok: false, problem: "aborted" };
	}
	const bytes = Buffer.concat(chunks, total);
	try {
		const text = STRICT_UTF8.decode(bytes);
		return { ok: true, text, bytes: total };
	} catch {
		return { ok: false, problem: "invalid-utf8" };
	}
}

const MB = 1024 * 1024;

/** The body as text, or the request stops with the problem that says why it was not read (for REST and MCP alike). */
export async function bodyTextOrRefuse(request: IncomingMessage, limitMB: number): Promise<string> {
	const result = await readTextBody(request, limitMB * MB);
	if (result.ok) return result.text;
	if (result.problem === "payload-too-large") return refuse("payload-too-large", `The body is over the ${limitMB} MB limit; nothing was read or written.`, {}, { Connection: "close" });
	if (result.problem === "invalid-utf8") return refuse("invalid-utf8", "The body is not valid UTF-8; nothing was read or written. Send the note as UTF-8 text.");
	return refuse("bad-request", "The request body was cut off; nothing was read or written.");
}
