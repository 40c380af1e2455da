/**
 * The 2025 Streamable HTTP transport on a bare HTTP server (the endpoint's own checks, keys and caps are tested in
 * endpoint.test.ts): what each POST, GET and DELETE is answered, and that no body, header or order of requests makes
 * it answer 500 or throw.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "http";
import type { AddressInfo } from "net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeTimers } from "../../../src/headless/node-timers";
import { McpServer } from "../../../src/mcp/protocol/server";
import { isJsonContentType, StreamableHttpTransport } from "../../../src/mcp/protocol/streamable-http";
import { z } from "../../../src/mcp/schema";
import { call } from "../../helpers/http-client";

const ACCEPT = "application/json, text/event-stream";
const INIT = {
	jsonrpc: "2.0",
	id: 1,
	method: "initialize",
	params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
};

let http: Server | null = null;
afterEach(async () => {
	const server = http;
	http = null;
	if (server === null) return;
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

/** One transport (a session's, or a stateless one) behind a server that parses JSON bodies as the endpoint does. */
async function serve(
	sessionId?: string,
): Promise<{ port: number; server: McpServer; transport: StreamableHttpTransport }> {
	const server = new McpServer({ name: "test", version: "1" }, nodeTimers);
	server.registerTool("echo", { description: "Echoes.", inputSchema: { text: z.string() } }, ({ text }) => ({
		content: [{ type: "text", text }],
	}));
	const transport = new StreamableHttpTransport(server, { sessionId });
	http = createServer((request, response) => {
		let text = "";
		request.on("data", (chunk: Buffer) => (text += chunk.toString()));
		request.on("end", () => {
			let body: unknown;
			try {
				body = text === "" ? undefined : (JSON.parse(text) as unknown);
			} catch {
				body = Symbol("not JSON");
			}
			transport.handle(request, response, body).catch(() => {
				response.writeHead(500).end();
			});
		});
	});
	await new Promise<void>((resolve) => http!.listen(0, "127.0.0.1", resolve));
	return { port: (http.address() as AddressInfo).port, server, transport };
}

const post = (port: number, body: unknown, headers: Record<string, string> = {}) =>
	call(port, "/mcp", {
		method: "POST",
		headers: { "Content-Type": "application/json", Accept: ACCEPT, ...headers },
		body: typeof body === "string" ? body : JSON.stringify(body),
	});

describe("a POST", () => {
	it("is answered with JSON, a notification with 202, a batch with one answer per id", async () => {
		const { port } = await serve();
		const ping = await post(port, { jsonrpc: "2.0", id: 1, method: "ping" });
		expect(ping.status).toBe(200);
		expect(ping.headers["content-type"]).toBe("application/json");
		expect(JSON.parse(ping.text)).toEqual({ result: {}, jsonrpc: "2.0", id: 1 });
		expect((await post(port, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
		expect((await post(port, [])).status).toBe(202);
		const batch = await post(port, [
			{ jsonrpc: "2.0", id: 1, method: "ping" },
			{ jsonrpc: "2.0", method: "notifications/x" },
			{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } },
		]);
		expect(JSON.parse(batch.text)).toEqual([
			{ result: {}, jsonrpc: "2.0", id: 1 },
			{ result: { content: [{ type: "text", text: "hi" }] }, jsonrpc: "2.0", id: 2 },
		]);
		const repeated = await post(port, [
			{ jsonrpc: "2.0", id: 3, method: "ping" },
			{ jsonrpc: "2.0", id: 3, method: "ping" },
		]);
		expect(JSON.parse(repeated.text)).toEqual({ result: {}, jsonrpc: "2.0", id: 3 });
	});

	it("is refused, as the SDK refused it, for a wrong Accept or Content-Type, a huge batch, or no JSON-RPC", async () => {
		const { port } = await serve();
		const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
		const refusal = async (answer: Promise<{ status: number; text: string }>) => {
			const { status, text } = await answer;
			return { status, ...(JSON.parse(text) as Record<string, unknown>) };
		};
		expect(await refusal(post(port, ping, { Accept: "application/json" }))).toEqual({
			status: 406,
			jsonrpc: "2.0",
			error: {
				code: -32000,
				message: "Not Acceptable: Client must accept both application/json and text/event-stream",
			},
			id: null,
		});
		expect(await refusal(post(port, ping, { "Content-Type": "text/plain" }))).toMatchObject({
			status: 415,
			error: { code: -32000 },
		});
		expect(
			await refusal(
				post(
					port,
					Array.from({ length: 101 }, () => ping),
				),
			),
		).toMatchObject({
			status: 400,
			error: { code: -32600, message: "Invalid Request: Batch must not exceed 100 messages" },
		});
		for (const body of [{ foo: 1 }, "5", "null", [ping, { bad: 1 }], "{not json"]) {
			expect(await refusal(post(port, body))).toMatchObject({
				status: 400,
				error: { code: -32700, message: "Parse error: Invalid JSON-RPC message" },
			});
		}
	});

	it("opens a session with an initialize, and holds every later request to its id and a version we speak", async () => {
		const { port, transport } = await serve("the-session");
		const early = await post(port, { jsonrpc: "2.0", id: 1, method: "ping" }, { "Mcp-Session-Id": "the-session" });
		expect(early.status).toBe(400);
		expect((JSON.parse(early.text) as { error: { message: string } }).error.message).toBe(
			"Bad Request: Server not initialized",
		);
		const init = await post(port, INIT);
		expect(init.status).toBe(200);
		expect(init.headers["mcp-session-id"]).toBe("the-session");
		expect(transport.sessionId).toBe("the-session");
		expect((await post(port, INIT, { "Mcp-Session-Id": "the-session" })).status).toBe(400);
		const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
		expect((await post(port, ping)).status).toBe(400);
		expect((await post(port, ping, { "Mcp-Session-Id": "other" })).status).toBe(404);
		const version = await post(port, ping, { "Mcp-Session-Id": "the-session", "MCP-Protocol-Version": "1999-01-01" });
		expect(version.status).toBe(400);
		expect((JSON.parse(version.text) as { error: { message: string } }).error.message).toContain(
			"Unsupported protocol version: 1999-01-01",
		);
		expect((await post(port, ping, { "Mcp-Session-Id": "the-session" })).status).toBe(200);
	});
});

describe("a cancelled call", () => {
	it("gets no answer: its POST ends with 202 (the SDK's transport left it open)", async () => {
		const { port, server } = await serve();
		let started: () => void = () => undefined;
		const running = new Promise<void>((resolve) => (started = resolve));
		server.registerTool("wait", { description: "Waits.", inputSchema: {} }, (_args, extra) => {
			started();
			return new Promise((resolve) => extra.signal.addEventListener("abort", () => resolve({ content: [] })));
		});
		const call = post(port, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "wait" } });
		await running;
		const cancel = await post(port, {
			jsonrpc: "2.0",
			method: "notifications/cancelled",
			params: { requestId: 5, reason: "changed my mind" },
		});
		expect(cancel.status).toBe(202);
		const answered = await call;
		expect(answered.status).toBe(202);
		expect(answered.text).toBe("");
	});
});

describe("a session's event stream and its end", () => {
	it("carries what the server sends unasked, one stream at a time, and DELETE ends the session", async () => {
		const { port, server } = await serve("s");
		await post(port, INIT);
		const headers = { "Mcp-Session-Id": "s", Accept: "text/event-stream" };
		expect(
			(await call(port, "/mcp", { method: "GET", headers: { ...headers, Accept: "application/json" } })).status,
		).toBe(406);
		const received = new Promise<string>((resolve) => {
			const request = httpRequest(
				{ host: "127.0.0.1", port, path: "/mcp", method: "GET", headers },
				(response: IncomingMessage) => {
					expect(response.statusCode).toBe(200);
					expect(response.headers["content-type"]).toBe("text/event-stream");
					response.setEncoding("utf8");
					response.on("data", (chunk: string) => {
						if (chunk.includes("data:")) {
							resolve(chunk);
							request.destroy();
						}
					});
					void server.sendResourceUpdated({ uri: "revision-guard://note/A.md" });
				},
			);
			request.end();
		});
		expect(await received).toBe(
			'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"revision-guard://note/A.md"}}\n\n',
		);
		const ended = await call(port, "/mcp", { method: "DELETE", headers: { "Mcp-Session-Id": "s" } });
		expect(ended.status).toBe(200);
		const after = await post(port, { jsonrpc: "2.0", id: 1, method: "ping" }, { "Mcp-Session-Id": "s" });
		expect(after.status).toBe(404);
		expect(JSON.parse(after.text)).toEqual({
			jsonrpc: "2.0",
			error: { code: -32001, message: "Session not found" },
			id: null,
		});
	});

	it("drops what the server sends while nobody listens, and answers another method with 405", async () => {
		const { port, server } = await serve();
		await expect(server.sendResourceUpdated({ uri: "x" })).resolves.toBeUndefined();
		const put = await call(port, "/mcp", { method: "PUT", headers: {} });
		expect(put.status).toBe(405);
		expect(put.headers.allow).toBe("GET, POST, DELETE");
	});
});

describe("the Content-Type of a POST", () => {
	it("is JSON with or without parameters, in any case, and nothing else", () => {
		for (const value of ["application/json", "Application/JSON; charset=utf-8", "application/json;"])
			expect(isJsonContentType(value), value).toBe(true);
		for (const value of [undefined, "", "text/plain", "application/json, text/plain", "application/jsonx"])
			expect(isJsonContentType(value), String(value)).toBe(false);
	});
});
