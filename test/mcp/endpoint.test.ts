/**
 * /mcp behind the same gates as REST (Host 421, Origin 403, key 401, all problem+json), sessions bound to the key that
 * opened them, DELETE ending a session (and its implicit tokens), and the body cap and JSON checks.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clientIdOf } from "../../src/http/security";
import { ApiServer } from "../../src/http/server";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { call, type CallResult } from "../helpers/http-client";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { sha256Token, writeVaultFile } from "../helpers/vault-files";
import { connect, INITIALIZE, MCP_ACCEPT, postMcp, rawSession } from "./mcp-client";
import { modernCall } from "./modern/modern-client";
import { mcpMount } from "../../src/mcp/mount";
import { TOOL_NAMES } from "../../src/mcp/tools";

forbidServerErrors();

const OTHER_KEY = "other-key-0123456789abcdef0123456789abcdef";
const PROTOCOL = { "Mcp-Protocol-Version": "2025-06-18" };

let h: Harness;
beforeEach(async () => {
	h = await startHeadless({
		keys: [
			{ name: "test-agent", key: TEST_KEY, created: "2026-01-01" },
			{ name: "other-agent", key: OTHER_KEY, created: "2026-01-01" },
		],
	});
	await writeVaultFile(h.dir, "a.md", "one\n");
});
afterEach(async () => {
	expect(h.errors).toEqual([]);
	await h.close();
});

function expectProblem(res: CallResult, status: number, type: string): void {
	expect(res.status).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({ type: `/problems/${type}`, status });
}

function expectJsonRpcError(res: CallResult, status: number, code: number): void {
	expect(res.status).toBe(status);
	expect(res.json()).toMatchObject({ jsonrpc: "2.0", error: { code }, id: null });
}

const callTool = (name: string, args: Record<string, unknown>) => ({
	jsonrpc: "2.0",
	id: 7,
	method: "tools/call",
	params: { name, arguments: args },
});

describe("the gates in front of /mcp", () => {
	it("answers a wrong key or none with 401 problem+json, and the SDK client cannot connect", async () => {
		for (const headers of [{ Authorization: "Bearer not-the-key-not-the-key-not-the-key" }, {}] as Record<
			string,
			string
		>[]) {
			const res = await postMcp(h.port, INITIALIZE, headers);
			expectProblem(res, 401, "unauthorized");
			expect(res.headers["www-authenticate"]).toBe('Bearer realm="revision-guard"');
			expect(res.headers["mcp-session-id"]).toBeUndefined();
		}
		await expect(connect(h.port, "not-the-key-not-the-key-not-the-key")).rejects.toThrow();
		for (const method of ["GET", "DELETE"]) expectProblem(await call(h.port, "/mcp", { method }), 401, "unauthorized");
	});

	it("refuses a request from a web page (a foreign Origin) with 403, even with the right key", async () => {
		const res = await postMcp(h.port, INITIALIZE, {
			Authorization: `Bearer ${TEST_KEY}`,
			Origin: "https://evil.example",
		});
		expectProblem(res, 403, "forbidden-origin");
		await expect(connect(h.port, TEST_KEY, { Origin: "https://evil.example" })).rejects.toThrow();
	});

	it("serves exactly its own origin (MCP's DNS-rebinding scenario sends it) in both eras; a rebound page stays refused", async () => {
		for (const origin of [`http://127.0.0.1:${h.port}`, `http://localhost:${h.port}`]) {
			const legacy = await postMcp(h.port, INITIALIZE, { Authorization: `Bearer ${TEST_KEY}`, Origin: origin });
			expect(legacy.status, origin).toBe(200);
			const session = await connect(h.port, TEST_KEY, { Origin: origin });
			expect((await session.tool("list_notes", {})).isError).toBe(false);
			await session.close();
			const modern = await modernCall(h.port, "server/discover", {}, { headers: { Origin: origin } });
			expect(modern.status, origin).toBe(200);
		}
		for (const origin of [
			`http://127.0.0.1:${h.port + 1}`,
			`https://127.0.0.1:${h.port}`,
			`http://localhost:${h.port}/`,
			`http://[::1]:${h.port}`,
			`http://evil.example:${h.port}`,
		]) {
			expectProblem(
				await postMcp(h.port, INITIALIZE, { Authorization: `Bearer ${TEST_KEY}`, Origin: origin }),
				403,
				"forbidden-origin",
			);
			expectProblem(
				await modernCall(h.port, "server/discover", {}, { headers: { Origin: origin } }),
				403,
				"forbidden-origin",
			);
		}
		// A page rebound to 127.0.0.1 names its own domain as Host (and Origin): the Host check refuses it first.
		const rebound = await postMcp(h.port, INITIALIZE, {
			Authorization: `Bearer ${TEST_KEY}`,
			Host: `evil.example:${h.port}`,
			Origin: `http://evil.example:${h.port}`,
		});
		expect(rebound.status).toBe(421);
	});

	it("serves an explicitly allowed origin, exposing Mcp-Session-Id to it", async () => {
		h.settings.allowedOrigins = ["app://allowed"];
		const res = await postMcp(h.port, INITIALIZE, { Authorization: `Bearer ${TEST_KEY}`, Origin: "app://allowed" });
		expect(res.status).toBe(200);
		expect(res.headers["access-control-allow-origin"]).toBe("app://allowed");
		expect(res.headers["access-control-expose-headers"]).toContain("Mcp-Session-Id");
		const preflight = await call(h.port, "/mcp", { method: "OPTIONS", headers: { Origin: "app://allowed" } });
		expect(preflight.status).toBe(204);
		expect(preflight.headers["access-control-allow-headers"]).toContain("Mcp-Session-Id");
		expect(preflight.headers["access-control-allow-methods"]).toContain("POST");
	});

	it("refuses a Host that is not ours with 421 (DNS rebinding)", async () => {
		const res = await postMcp(h.port, INITIALIZE, {
			Authorization: `Bearer ${TEST_KEY}`,
			Host: `evil.example:${h.port}`,
		});
		expectProblem(res, 421, "misdirected-request");
	});

	it("answers methods MCP does not use with 405 and an Allow list", async () => {
		for (const method of ["PUT", "PATCH"]) {
			const res = await call(h.port, "/mcp", { method, headers: { Authorization: `Bearer ${TEST_KEY}` }, body: "{}" });
			expectProblem(res, 405, "method-not-allowed");
			expect(res.headers.allow).toContain("POST");
		}
		const head = await call(h.port, "/mcp", { method: "HEAD", headers: { Authorization: `Bearer ${TEST_KEY}` } });
		expect(head.status).toBe(405);
		expect(head.headers.allow).toBe("GET, POST, DELETE");
	});
});

describe("bodies", () => {
	const auth = { Authorization: `Bearer ${TEST_KEY}` };

	it("answers a body that is not JSON with a JSON-RPC parse error, and opens no session", async () => {
		const res = await postMcp(h.port, "{not json", auth);
		expectJsonRpcError(res, 400, -32700);
		expect(res.headers["mcp-session-id"]).toBeUndefined();
	});

	it("refuses a body over the size limit with 413 before anything runs", async () => {
		h.settings.maxBodyMB = 0.001;
		const id = await rawSession(h.port, TEST_KEY);
		const res = await postMcp(h.port, callTool("write_note", { path: "big.md", content: "x".repeat(5000) }), {
			...auth,
			...PROTOCOL,
			"Mcp-Session-Id": id,
		});
		expectProblem(res, 413, "payload-too-large");
		await expect(readFile(join(h.dir, "big.md"))).rejects.toThrow();
	});

	it("refuses a body that is not UTF-8 with 400 invalid-utf8", async () => {
		const res = await call(h.port, "/mcp", {
			method: "POST",
			headers: { ...auth, "Content-Type": "application/json", Accept: MCP_ACCEPT },
			body: Buffer.from([0x7b, 0xff, 0x7d]),
		});
		expectProblem(res, 400, "invalid-utf8");
	});

	it("answers a POST without Mcp-Session-Id statelessly; GET without one is 405 (no stream), DELETE 400; an unknown session is 404", async () => {
		const stateless = await postMcp(h.port, { jsonrpc: "2.0", id: 1, method: "tools/list" }, auth);
		expect(stateless.status).toBe(200);
		expect(stateless.headers["mcp-session-id"]).toBeUndefined();
		// Our note tools and periodic_note (the Local REST API's set is listed at /mcp/lra only).
		expect(stateless.json<{ result: { tools: unknown[] } }>().result.tools).toHaveLength(TOOL_NAMES.length + 1);
		expectJsonRpcError(
			await postMcp(
				h.port,
				{ jsonrpc: "2.0", id: 1, method: "tools/list" },
				{ ...auth, ...PROTOCOL, "Mcp-Session-Id": "no-such-session" },
			),
			404,
			-32001,
		);
		const get = await call(h.port, "/mcp", { headers: { ...auth, Accept: "text/event-stream" } });
		expectJsonRpcError(get, 405, -32000);
		expect(get.headers.allow).toBe("POST");
		expect(get.json<{ error: { message: string } }>().error.message).toContain("Send each request as a POST");
		expectJsonRpcError(await call(h.port, "/mcp", { method: "DELETE", headers: auth }), 400, -32000);
	});
});

describe("sessions", () => {
	it("belong to the key that opened them: another key gets 404 (as for an unknown id) and nothing runs; no key gets 401", async () => {
		const id = await rawSession(h.port, TEST_KEY);
		const own = await postMcp(h.port, callTool("read_note", { path: "a.md" }), {
			Authorization: `Bearer ${TEST_KEY}`,
			...PROTOCOL,
			"Mcp-Session-Id": id,
		});
		expect(own.status).toBe(200);
		expect(own.json<{ result: { structuredContent: { revision: string } } }>().result.structuredContent.revision).toBe(
			sha256Token("one\n"),
		);

		const write = callTool("write_note", { path: "a.md", content: "hijacked\n" });
		const foreign = await postMcp(h.port, write, {
			Authorization: `Bearer ${OTHER_KEY}`,
			...PROTOCOL,
			"Mcp-Session-Id": id,
		});
		expectJsonRpcError(foreign, 404, -32001);
		const unknown = await postMcp(h.port, write, {
			Authorization: `Bearer ${OTHER_KEY}`,
			...PROTOCOL,
			"Mcp-Session-Id": "x".repeat(43),
		});
		expect(foreign.text).toBe(unknown.text);
		expectProblem(await postMcp(h.port, write, { ...PROTOCOL, "Mcp-Session-Id": id }), 401, "unauthorized");
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("one\n");
		expect(
			await call(h.port, "/mcp", {
				method: "DELETE",
				headers: { Authorization: `Bearer ${OTHER_KEY}`, ...PROTOCOL, "Mcp-Session-Id": id },
			}),
		).toMatchObject({ status: 404 });

		// The owner's session is untouched by all that: its implicit token still works.
		const mine = await postMcp(h.port, write, {
			Authorization: `Bearer ${TEST_KEY}`,
			...PROTOCOL,
			"Mcp-Session-Id": id,
		});
		expect(mine.json<{ result: { isError?: boolean } }>().result.isError).toBeUndefined();
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("hijacked\n");
	});

	it("end on DELETE: the id is refused afterwards and what the session read is forgotten", async () => {
		const mcp = await connect(h.port, TEST_KEY);
		const sessionId = mcp.transport.sessionId!;
		const client = `${clientIdOf(TEST_KEY)}:${sessionId}`;
		await mcp.tool("read_note", { path: "a.md" });
		expect(h.guard.reads.lastRead(client, "a.md")?.revision).toBe(sha256Token("one\n"));

		await mcp.transport.terminateSession();
		expect(h.guard.reads.lastRead(client, "a.md")).toBeUndefined();
		const after = await postMcp(h.port, callTool("write_note", { path: "a.md", content: "late\n" }), {
			Authorization: `Bearer ${TEST_KEY}`,
			...PROTOCOL,
			"Mcp-Session-Id": sessionId,
		});
		expectJsonRpcError(after, 404, -32001);
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("one\n");
		await mcp.close();
	});

	it("stop working at once when their key is revoked", async () => {
		const mcp = await connect(h.port, OTHER_KEY);
		h.settings.keys = h.settings.keys.filter((key) => key.key !== OTHER_KEY);
		await expect(mcp.tool("read_note", { path: "a.md" })).rejects.toThrow();
		await mcp.close();
	});

	it("credit writes to the key's current name", async () => {
		const mcp = await connect(h.port, TEST_KEY);
		await mcp.tool("read_note", { path: "a.md" });
		h.settings.keys = h.settings.keys.map((key) => (key.key === TEST_KEY ? { ...key, name: "renamed-agent" } : key));
		await mcp.tool("write_note", { path: "a.md", content: "two\n" });
		expect(h.guard.history.latest("a.md")?.source).toEqual({ kind: "agent", agent: "renamed-agent" });
		await mcp.close();
	});
});

describe("session bookkeeping behind the endpoint", () => {
	it("keeps no session for an initialize the transport refused, one per accepted initialize, none after DELETE", async () => {
		const mcp = mcpMount(h.guard.notes, { onError: (error) => h.errors.push(error) });
		const server = new ApiServer({ notes: h.guard.notes, mounts: [mcp], onError: (error) => h.errors.push(error) });
		const port = await server.listen(0);
		try {
			const auth = { Authorization: `Bearer ${TEST_KEY}` };
			const refused = await postMcp(port, INITIALIZE, { ...auth, Accept: "application/json" });
			expect(refused.status).toBe(406);
			expect(refused.headers["mcp-session-id"]).toBeUndefined();
			expect(await mcp.sessionCount()).toBe(0);

			const id = await rawSession(port, TEST_KEY);
			expect(await mcp.sessionCount()).toBe(1);
			const ended = await call(port, "/mcp", {
				method: "DELETE",
				headers: { ...auth, ...PROTOCOL, "Mcp-Session-Id": id },
			});
			expect(ended.status).toBe(200);
			expect(await mcp.sessionCount()).toBe(0);
		} finally {
			await server.close();
		}
	});
});
