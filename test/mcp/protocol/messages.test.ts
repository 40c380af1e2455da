/** Which bodies are JSON-RPC messages, which initialize opens a session, and which params a handler may trust. */
import { describe, expect, it } from "vitest";
import { isInitializeRequest, isJsonRpcMessage } from "../../../src/mcp/protocol/messages";
import { paramsProblem } from "../../../src/mcp/protocol/request-params";

describe("a JSON-RPC message", () => {
	it("is a request, a notification, a result or an error, with nothing else in it", () => {
		for (const message of [
			{ jsonrpc: "2.0", id: 1, method: "ping" },
			{ jsonrpc: "2.0", id: "a", method: "ping", params: { _meta: { progressToken: 3 } } },
			{ jsonrpc: "2.0", method: "notifications/initialized" },
			{ jsonrpc: "2.0", id: 1, result: {} },
			{ jsonrpc: "2.0", id: 1, error: { code: 1, message: "x", data: [1] } },
			{ jsonrpc: "2.0", error: { code: 1, message: "x" } },
		])
			expect(isJsonRpcMessage(message), JSON.stringify(message)).toBe(true);
	});

	it("is not anything else (the transport answers -32700)", () => {
		for (const message of [
			null,
			"ping",
			5,
			[],
			{},
			{ foo: 1 },
			{ jsonrpc: "1.0", id: 1, method: "ping" },
			{ jsonrpc: "2.0", id: null, method: "ping" },
			{ jsonrpc: "2.0", id: 1.5, method: "ping" },
			{ jsonrpc: "2.0", id: {}, method: "ping" },
			{ jsonrpc: "2.0", id: 1, method: 5 },
			{ jsonrpc: "2.0", id: 1, method: "ping", params: [] },
			{ jsonrpc: "2.0", id: 1, method: "ping", params: "x" },
			{ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: 1 } },
			{ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { progressToken: {} } } },
			{ jsonrpc: "2.0", id: 1, method: "ping", extra: 1 },
			{ jsonrpc: "2.0", id: 1, result: [] },
			{ jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } },
			{ jsonrpc: "2.0", id: 1, error: "x" },
		])
			expect(isJsonRpcMessage(message), JSON.stringify(message)).toBe(false);
	});

	it("opens a session when it is an initialize naming a version, capabilities and a client", () => {
		const params = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } };
		expect(isInitializeRequest({ jsonrpc: "2.0", id: 1, method: "initialize", params })).toBe(true);
		// As the SDK decided it: the envelope is the transport's to check.
		expect(isInitializeRequest({ jsonrpc: "2.0", method: "initialize", params })).toBe(true);
		expect(isInitializeRequest({ jsonrpc: "2.0", id: 1, method: "initialize" })).toBe(false);
		expect(isInitializeRequest({ method: "initialize", params: { ...params, clientInfo: { name: "c" } } })).toBe(false);
		expect(isInitializeRequest({ method: "ping", params })).toBe(false);
		expect(isInitializeRequest([{ method: "initialize", params }])).toBe(false);
	});
});

describe("the params of a request", () => {
	it("are checked only for the methods we serve, and only for what their handlers read", () => {
		expect(paramsProblem("tools/call", { name: "x" })).toBeNull();
		expect(paramsProblem("tools/list", undefined)).toBeNull();
		expect(paramsProblem("resources/list", { cursor: "c" })).toBeNull();
		expect(paramsProblem("ping", "anything")).toBeNull();
	});

	it("take a method named like an Object property for one they do not check, and never throw", () => {
		for (const method of ["constructor", "__proto__", "toString", "hasOwnProperty"])
			expect(paramsProblem(method, { any: 1 }), method).toBeNull();
	});

	it("say what is wrong in the SDK's words (zod 4's issues, as JSON)", () => {
		expect(JSON.parse(paramsProblem("initialize", { protocolVersion: 5, clientInfo: { name: 1 } })!)).toEqual([
			{
				expected: "string",
				code: "invalid_type",
				path: ["params", "protocolVersion"],
				message: "Invalid input: expected string, received number",
			},
			{
				expected: "object",
				code: "invalid_type",
				path: ["params", "capabilities"],
				message: "Invalid input: expected object, received undefined",
			},
			{
				expected: "string",
				code: "invalid_type",
				path: ["params", "clientInfo", "name"],
				message: "Invalid input: expected string, received number",
			},
			{
				expected: "string",
				code: "invalid_type",
				path: ["params", "clientInfo", "version"],
				message: "Invalid input: expected string, received undefined",
			},
		]);
		expect(JSON.parse(paramsProblem("resources/read", undefined)!)).toEqual([
			{
				expected: "object",
				code: "invalid_type",
				path: ["params"],
				message: "Invalid input: expected object, received undefined",
			},
		]);
		expect((JSON.parse(paramsProblem("resources/list", { cursor: null })!) as { message: string }[])[0]!.message).toBe(
			"Invalid input: expected string, received null",
		);
	});
});
