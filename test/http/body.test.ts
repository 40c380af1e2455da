/**
 * readTextBody on real sockets: bodies in many chunks (a UTF-8 character split between two), over the cap without a
 * declared length, cut off by the client, and bytes that are not UTF-8.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "http";
import type { AddressInfo } from "net";
import { afterEach, describe, expect, it } from "vitest";
import { readTextBody, type BodyResult } from "../../src/http/body";

let server: Server | null = null;

afterEach(async () => {
	await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
	server = null;
});

/** A server that reads each request's body with `maxBytes` and hands the result (and the request) to the test. */
async function bodyServer(
	maxBytes: number,
): Promise<{ port: number; next: () => Promise<{ result: BodyResult; request: IncomingMessage }> }> {
	const waiting: ((value: { result: BodyResult; request: IncomingMessage }) => void)[] = [];
	const results: { result: BodyResult; request: IncomingMessage }[] = [];
	server = createServer((request, response) => {
		void readTextBody(request, maxBytes).then((result) => {
			const entry = { result, request };
			const waiter = waiting.shift();
			if (waiter) waiter(entry);
			else results.push(entry);
			if (!response.destroyed) response.end("ok");
		});
	});
	await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		port,
		next: () =>
			results.length > 0 ? Promise.resolve(results.shift()!) : new Promise((resolve) => waiting.push(resolve)),
	};
}

/** Sends `chunks` one by one (chunked encoding), each after the previous was flushed. */
function sendChunks(port: number, chunks: Buffer[], options: { end?: boolean } = {}): ReturnType<typeof httpRequest> {
	const request = httpRequest({ host: "127.0.0.1", port, method: "PUT", path: "/" });
	request.on("error", () => undefined);
	const write = (index: number): void => {
		if (index === chunks.length) {
			if (options.end !== false) request.end();
			return;
		}
		request.write(chunks[index], () => setTimeout(() => write(index + 1), 5));
	};
	write(0);
	return request;
}

describe("readTextBody", () => {
	it("joins a body sent in many chunks, a character split between two of them", async () => {
		const { port, next } = await bodyServer(1024);
		const bytes = Buffer.from("héllo — wörld 😀 end");
		const cut = bytes.indexOf(Buffer.from("😀")) + 2;
		sendChunks(port, [bytes.subarray(0, 3), bytes.subarray(3, cut), bytes.subarray(cut)]);
		const { result } = await next();
		expect(result).toEqual({ ok: true, text: "héllo — wörld 😀 end", bytes: bytes.length });
	});

	it("reads an empty body as empty text", async () => {
		const { port, next } = await bodyServer(1024);
		sendChunks(port, []);
		expect((await next()).result).toEqual({ ok: true, text: "", bytes: 0 });
	});

	it("stops collecting a body without a declared length once it passes the cap, and still answers", async () => {
		const { port, next } = await bodyServer(10);
		const answered = new Promise<number>((resolve) =>
			sendChunks(port, [Buffer.from("12345678"), Buffer.from("90abc"), Buffer.from("never kept")]).on(
				"response",
				(response) => resolve(response.statusCode ?? 0),
			),
		);
		expect((await next()).result).toEqual({ ok: false, problem: "payload-too-large" });
		expect(await answered).toBe(200);
	});

	it("refuses a declared length over the cap before reading anything", async () => {
		const { port, next } = await bodyServer(10);
		const request = httpRequest({
			host: "127.0.0.1",
			port,
			method: "PUT",
			path: "/",
			headers: { "Content-Length": "11" },
		});
		request.on("error", () => undefined);
		request.end("12345678901");
		expect((await next()).result).toEqual({ ok: false, problem: "payload-too-large" });
	});

	it("answers aborted when the client goes away mid-body", async () => {
		const { port, next } = await bodyServer(1024);
		const request = sendChunks(port, [Buffer.from("half a no")], { end: false });
		setTimeout(() => request.destroy(), 50);
		expect((await next()).result).toEqual({ ok: false, problem: "aborted" });
	});

	it("refuses bytes that are not UTF-8 rather than decoding them with replacement characters", async () => {
		const { port, next } = await bodyServer(1024);
		sendChunks(port, [Buffer.from([0x61, 0xff, 0x62])]);
		expect((await next()).result).toEqual({ ok: false, problem: "invalid-utf8" });
	});

	it("answers at once for a request whose body was already read", async () => {
		const { port, next } = await bodyServer(1024);
		sendChunks(port, [Buffer.from("once")]);
		const { result, request } = await next();
		expect(result).toMatchObject({ ok: true, text: "once" });
		expect(await readTextBody(request, 1024)).toEqual({ ok: true, text: "", bytes: 0 });
	});
});
