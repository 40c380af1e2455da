/** Our MCP server object, without HTTP: what each request is answered, how a call is cancelled, how a question is asked. */
import { describe, expect, it } from "vitest";
import { z } from "../../../src/mcp/schema";
import { nodeTimers } from "../../../src/headless/node-timers";
import { McpServer } from "../../../src/mcp/protocol/server";
import type { JsonRpcMessage } from "../../../src/mcp/protocol/types";

function serverWithTools(): McpServer {
	const server = new McpServer({ name: "test", version: "1" }, nodeTimers, "Be careful.");
	server.registerTool(
		"echo",
		{
			title: "Echo",
			description: "Echoes.",
			inputSchema: { text: z.string().min(1) },
			outputSchema: { text: z.string() },
		},
		({ text }) => ({ content: [{ type: "text", text }], structuredContent: { text } }),
	);
	server.registerTool("broken", { description: "Breaks.", inputSchema: {}, outputSchema: { n: z.number() } }, () => ({
		content: [{ type: "text", text: "no structure" }],
	}));
	server.registerTool("throws", { description: "Throws.", inputSchema: {} }, () => {
		throw new Error("it broke");
	});
	return server;
}

const request = (id: number, method: string, params?: Record<string, unknown>) => ({
	jsonrpc: "2.0" as const,
	id,
	method,
	...(params ? { params } : {}),
});

describe("answering requests", () => {
	it("initializes with the version asked for when it is one we speak, else the newest", async () => {
		const server = serverWithTools();
		const params = { capabilities: { elicitation: { form: {} } }, clientInfo: { name: "c", version: "1" } };
		expect(await server.answer(request(1, "initialize", { protocolVersion: "2025-06-18", ...params }))).toEqual({
			jsonrpc: "2.0",
			id: 1,
			result: {
				protocolVersion: "2025-06-18",
				capabilities: { tools: { listChanged: true } },
				serverInfo: { name: "test", version: "1" },
				instructions: "Be careful.",
			},
		});
		const old = await server.answer(request(2, "initialize", { protocolVersion: "1999-01-01", ...params }));
		expect(old).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
		expect(server.getClientCapabilities()).toEqual({ elicitation: { form: {} } });
	});

	it("answers ping, an unknown method, an unknown tool, and params of the wrong type as the SDK did", async () => {
		const server = serverWithTools();
		expect(await server.answer(request(1, "ping"))).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
		expect(await server.answer(request(2, "prompts/list"))).toEqual({
			jsonrpc: "2.0",
			id: 2,
			error: { code: -32601, message: "Method not found" },
		});
		expect(await server.answer(request(3, "tools/call", { name: "nope", arguments: [] }))).toEqual({
			jsonrpc: "2.0",
			id: 3,
			error: { code: -32602, message: "Unknown tool: nope" },
		});
		const wrong = await server.answer(request(4, "tools/call", { name: "echo", arguments: "x" }));
		expect(wrong).toMatchObject({ error: { code: -32603 } });
		expect(JSON.parse((wrong as { error: { message: string } }).error.message)).toEqual([
			{
				expected: "record",
				code: "invalid_type",
				path: ["params", "arguments"],
				message: "Invalid input: expected record, received string",
			},
		]);
	});

	it("answers a tool's failures as tool results: bad input, a thrown error, a result that breaks its schema", async () => {
		const server = serverWithTools();
		const text = async (name: string, args: unknown) =>
			(
				(await server.answer(request(1, "tools/call", { name, arguments: args }))) as unknown as {
					result: { content: { text: string }[]; isError?: boolean };
				}
			).result;
		expect(await text("echo", { text: "" })).toEqual({
			content: [
				{
					type: "text",
					text: "MCP error -32602: Input validation error: Invalid arguments for tool echo: String must contain at least 1 character(s) at text",
				},
			],
			isError: true,
		});
		expect(await text("throws", {})).toEqual({ content: [{ type: "text", text: "it broke" }], isError: true });
		expect((await text("broken", {})).content[0]!.text).toBe(
			"MCP error -32602: Output validation error: Tool broken has an output schema but no structured content was provided",
		);
		expect(await text("echo", { text: "hi", extra: 1 })).toEqual({
			content: [{ type: "text", text: "hi" }],
			structuredContent: { text: "hi" },
		});
	});

	it("lists only the tools it is told to, with their schemas", async () => {
		const server = serverWithTools();
		server.listed = (name) => name === "echo";
		const listed = (await server.answer(request(1, "tools/list"))) as unknown as {
			result: { tools: { name: string }[] };
		};
		expect(listed.result.tools).toEqual([
			{
				name: "echo",
				title: "Echo",
				description: "Echoes.",
				inputSchema: {
					type: "object",
					properties: { text: { type: "string", minLength: 1 } },
					required: ["text"],
					additionalProperties: false,
					$schema: "http://json-schema.org/draft-07/schema#",
				},
				execution: { taskSupport: "forbidden" },
				outputSchema: {
					type: "object",
					properties: { text: { type: "string" } },
					required: ["text"],
					additionalProperties: false,
					$schema: "http://json-schema.org/draft-07/schema#",
				},
			},
		]);
	});

	it("sends no answer to a call the client cancelled, and stops it", async () => {
		const server = new McpServer({ name: "test", version: "1" }, nodeTimers);
		let aborted = false;
		server.registerTool("wait", { description: "Waits.", inputSchema: {} }, (_args, extra) => {
			return new Promise((resolve) =>
				extra.signal.addEventListener("abort", () => {
					aborted = true;
					resolve({ content: [] });
				}),
			);
		});
		const answer = server.answer(request(7, "tools/call", { name: "wait" }));
		server.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } });
		expect(await answer).toBeNull();
		expect(aborted).toBe(true);
	});

	it("stops every call under way when it closes, and cancels every call of an id, even when a client reuses the id", async () => {
		const server = new McpServer({ name: "test", version: "1" }, nodeTimers);
		let stopped = 0;
		server.registerTool("wait", { description: "Waits.", inputSchema: {} }, (_args, extra) => {
			return new Promise((resolve) =>
				extra.signal.addEventListener("abort", () => {
					stopped++;
					resolve({ content: [] });
				}),
			);
		});
		const cancelled = [
			server.answer(request(3, "tools/call", { name: "wait" })),
			server.answer(request(3, "tools/call", { name: "wait" })),
		];
		const other = server.answer({ jsonrpc: "2.0", id: "3", method: "tools/call", params: { name: "wait" } });
		server.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } });
		expect(await Promise.all(cancelled)).toEqual([null, null]);
		expect(stopped).toBe(2);
		const closed = [
			server.answer(request(4, "tools/call", { name: "wait" })),
			server.answer(request(4, "tools/call", { name: "wait" })),
		];
		server.close();
		expect(await Promise.all([...closed, other])).toEqual([null, null, null]);
		expect(stopped).toBe(5);
	});

	it("turns whatever a handler throws into an error answer, never a crash", async () => {
		const server = new McpServer({ name: "test", version: "1" }, nodeTimers);
		server.setRequestHandler("resources/list", () => Promise.reject(new Error("boom")));
		server.setRequestHandler("resources/templates/list", () => {
			// eslint-disable-next-line @typescript-eslint/only-throw-error -- what a handler throws is not ours to choose
			throw null;
		});
		server.setRequestHandler("resources/read", () => Promise.reject(Object.assign(new Error("x"), { code: 1.5 })));
		expect(await server.answer(request(1, "resources/list"))).toEqual({
			jsonrpc: "2.0",
			id: 1,
			error: { code: -32603, message: "boom" },
		});
		expect(await server.answer(request(2, "resources/templates/list"))).toMatchObject({
			error: { code: -32603, message: "Internal error" },
		});
		expect(await server.answer(request(3, "resources/read", { uri: "x" }))).toMatchObject({
			error: { code: -32603, message: "x" },
		});
	});

	it("ignores notifications and answers it never asked for", () => {
		const server = new McpServer({ name: "test", version: "1" }, nodeTimers);
		for (const message of [
			{ jsonrpc: "2.0", method: "notifications/initialized" },
			{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: { no: 1 } } },
			{ jsonrpc: "2.0", id: 99, result: {} },
			{ jsonrpc: "2.0", id: "x", error: { code: 1, message: "x" } },
		] as JsonRpcMessage[])
			expect(() => server.receive(message)).not.toThrow();
	});
});

describe("asking the person through the client", () => {
	const form = {
		message: "Which?",
		requestedSchema: { type: "object" as const, properties: { choice: { type: "string" } }, required: ["choice"] },
	};
	const initialized = async (capabilities: Record<string, unknown>) => {
		const server = new McpServer({ name: "test", version: "1" }, nodeTimers);
		const sent: JsonRpcMessage[] = [];
		server.outbox = (message) => sent.push(message);
		await server.answer(
			request(1, "initialize", {
				protocolVersion: "2025-11-25",
				capabilities,
				clientInfo: { name: "c", version: "1" },
			}),
		);
		return { server, sent };
	};

	it("sends elicitation/create on its outbox and returns the checked answer", async () => {
		const { server, sent } = await initialized({ elicitation: { form: {} } });
		const asked = server.elicitInput(form, { timeout: 5000, validate: () => null });
		expect(sent).toEqual([{ jsonrpc: "2.0", id: 0, method: "elicitation/create", params: { ...form, mode: "form" } }]);
		server.receive({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: { choice: "merge" } } });
		expect(await asked).toEqual({ action: "accept", content: { choice: "merge" } });
	});

	it("refuses an answer that does not fit the form, a client that cannot be asked, and a question never answered", async () => {
		const { server } = await initialized({ elicitation: { form: {} } });
		const misfit = server.elicitInput(form, { timeout: 5000, validate: () => "choice must be a string" });
		server.receive({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: { choice: 1 } } });
		await expect(misfit).rejects.toMatchObject({ code: -32602 });
		const refused = server.elicitInput(form, { timeout: 5000, validate: () => null });
		server.receive({ jsonrpc: "2.0", id: 1, error: { code: -1, message: "no" } });
		await expect(refused).rejects.toMatchObject({ code: -1 });
		const late = server.elicitInput(form, { timeout: 10, validate: () => null });
		await expect(late).rejects.toMatchObject({ code: -32001 });
		const pending = server.elicitInput(form, { timeout: 5000, validate: () => null });
		server.close();
		await expect(pending).rejects.toMatchObject({ code: -32000 });
		const { server: plain } = await initialized({});
		await expect(plain.elicitInput(form, { timeout: 10, validate: () => null })).rejects.toThrow(/does not support/);
	});

	it("fails a question its outbox could not send at once, leaving no timer and nothing pending", async () => {
		const scheduled = new Set<number>();
		let next = 0;
		const timers = {
			schedule: () => {
				scheduled.add(++next);
				return next;
			},
			cancel: (handle: unknown) => void scheduled.delete(handle as number),
		};
		const server = new McpServer({ name: "test", version: "1" }, timers);
		await server.answer(
			request(1, "initialize", {
				protocolVersion: "2025-11-25",
				capabilities: { elicitation: { form: {} } },
				clientInfo: { name: "c", version: "1" },
			}),
		);
		server.outbox = () => false;
		const asked = server.elicitInput(form, { timeout: 50_000, validate: () => null });
		const settled = await Promise.race([
			asked.then(
				() => "answered",
				(error: unknown) => error,
			),
			new Promise((resolve) => setImmediate(() => resolve("still waiting"))),
		]);
		expect(settled).toMatchObject({ code: -32000 });
		expect(scheduled.size).toBe(0);
		// An answer the client sends anyway for that id finds nothing to settle.
		expect(() => server.receive({ jsonrpc: "2.0", id: 0, result: { action: "accept" } })).not.toThrow();
	});
});
