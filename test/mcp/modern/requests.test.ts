/**
 * MCP 2026-07-28 at /mcp, on the raw wire, over both gateways: server/discover, tools and resources answered with
 * resultType, serverInfo and cache hints; every malformed request refused with the code the specification names;
 * writes that need a revision because there is no session; and 2025-11-25 sessions served beside it unchanged.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../../src/mcp/tools";
import { TEST_KEY } from "../../helpers/headless-harness";
import { sha256Token } from "../../helpers/vault-files";
import { call } from "../../helpers/http-client";
import { connect } from "../mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "../subjects";
import { headerSafe, MODERN, MODERN_META, modern, modernCall, modernTool } from "./modern-client";

const NOTE = "# Plan\n\n- one\n- two\n";

describe.each(SUBJECT_NAMES)("MCP 2026-07-28 over the %s gateway", (name) => {
	let s: Subject;
	eachMcpSubject(name, { "Plan.md": NOTE, "Überblick.md": "# Ü\n" }, (subject) => {
		s = subject;
	});
	const onDisk = async (path: string) => (await readFile(join(s.dir, path))).toString("utf8");

	it("answers server/discover with the versions of both eras, its capabilities, who it is, and cache hints", async () => {
		const answer = await modern(s.port, "server/discover");
		expect(answer.status).toBe(200);
		expect(answer.raw.headers["mcp-session-id"]).toBeUndefined();
		expect(answer.result).toMatchObject({
			resultType: "complete",
			supportedVersions: [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"],
			capabilities: { tools: {}, resources: {} },
			ttlMs: 3_600_000,
			cacheScope: "public",
			_meta: { "io.modelcontextprotocol/serverInfo": { name: "revision-guard" } },
		});
		expect(answer.result!.instructions).toContain("read_note");
	});

	it("lists the same tools a 2025 session sees, privately cached for five minutes", async () => {
		const answer = await modern(s.port, "tools/list");
		expect(answer.result).toMatchObject({ resultType: "complete", ttlMs: 300_000, cacheScope: "private" });
		const names = (answer.result!.tools as { name: string }[]).map((tool) => tool.name);
		expect(names).toEqual(expect.arrayContaining([...TOOL_NAMES]));
		const session = await connect(s.port, TEST_KEY);
		expect((await session.client.listTools()).tools.map((tool) => tool.name)).toEqual(names);
		await session.close();
	});

	it("lists and reads notes as resources, never cacheable past a change, and a missing one is -32602", async () => {
		const list = await modern(s.port, "resources/list");
		expect(list.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
		expect((list.result!.resources as { uri: string }[]).map((resource) => resource.uri)).toContain(
			"revision-guard://note/Plan.md",
		);
		const templates = await modern(s.port, "resources/templates/list");
		expect(templates.result).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "public" });
		const read = await modern(s.port, "resources/read", { uri: "revision-guard://note/Plan.md" });
		expect(read.result).toMatchObject({
			resultType: "complete",
			ttlMs: 0,
			cacheScope: "private",
			contents: [{ text: NOTE, _meta: { revision: sha256Token(NOTE) } }],
		});
		// A URI that is not a plain header value travels in the Base64 sentinel form.
		const encoded = await modern(s.port, "resources/read", { uri: "revision-guard://note/Überblick.md" });
		expect(encoded.raw.status).toBe(200);
		expect(encoded.result).toMatchObject({ contents: [{ text: "# Ü\n" }] });
		const missing = await modern(s.port, "resources/read", { uri: "revision-guard://note/Gone.md" });
		expect(missing.error).toMatchObject({ code: -32602 });
		expect(missing.result).toBeUndefined();
	});

	it("needs a revision to replace a note, since nothing it read is remembered, and says so", async () => {
		const read = await modernTool(s.port, "read_note", { path: "Plan.md" });
		expect(read.resultType).toBe("complete");
		expect(read.structured).toEqual({ path: "Plan.md", content: NOTE, revision: sha256Token(NOTE) });
		const tokenless = await modernTool(s.port, "write_note", { path: "Plan.md", content: "replaced\n" });
		expect(tokenless.resultType).toBe("complete");
		expect(tokenless.isError).toBe(true);
		expect(tokenless.details).toMatchObject({ error: "precondition-required" });
		expect(tokenless.prose).toContain("without a session");
		expect(await onDisk("Plan.md")).toBe(NOTE);
		const written = await modernTool(s.port, "write_note", {
			path: "Plan.md",
			content: "replaced\n",
			revision: read.structured!.revision,
		});
		expect(written.structured).toEqual({ path: "Plan.md", revision: sha256Token("replaced\n"), created: false });
		expect(await onDisk("Plan.md")).toBe("replaced\n");
	});

	it("says in the descriptions of the tools that need one that a client without a session passes revision", async () => {
		const tools = (await modern(s.port, "tools/list")).result!.tools as { name: string; description: string }[];
		for (const tool of ["write_note", "patch_note", "delete_note", "move_note"]) {
			expect(tools.find((candidate) => candidate.name === tool)?.description, tool).toMatch(/without a session/i);
		}
	});

	it("refuses a request missing a required _meta field with HTTP 400 and -32602", async () => {
		for (const missing of ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"]) {
			const meta: Record<string, unknown> = { ...MODERN_META };
			delete meta[missing];
			const answer = await modern(s.port, "tools/list", {}, { meta });
			expect(answer.status, missing).toBe(400);
			expect(answer.error, missing).toMatchObject({ code: -32602, data: { missing: [missing] } });
		}
	});

	it("refuses headers that do not match the body with HTTP 400 and -32020", async () => {
		const cases: [string, Record<string, unknown>, Record<string, string | undefined>][] = [
			["tools/list", {}, { "Mcp-Method": "tools/call" }],
			["tools/list", {}, { "Mcp-Method": undefined }],
			["tools/list", {}, { "MCP-Protocol-Version": undefined }],
			["tools/call", { name: "read_note", arguments: { path: "Plan.md" } }, { "Mcp-Name": "write_note" }],
			["tools/call", { name: "read_note", arguments: { path: "Plan.md" } }, { "Mcp-Name": undefined }],
			["resources/read", { uri: "revision-guard://note/Plan.md" }, { "Mcp-Name": "revision-guard://note/Other.md" }],
			["resources/read", { uri: "revision-guard://note/Plan.md" }, { "Mcp-Name": "=?base64?not base64?=" }],
		];
		for (const [method, params, headers] of cases) {
			const answer = await modern(s.port, method, params, { headers });
			expect(answer.status, JSON.stringify(headers)).toBe(400);
			expect(answer.error?.code, JSON.stringify(headers)).toBe(-32020);
		}
		const versions = await modern(s.port, "tools/list", {}, { headers: { "MCP-Protocol-Version": "2025-11-25" } });
		expect(versions.error?.code).toBe(-32020);
		expect(await onDisk("Plan.md")).toBe(NOTE);
	});

	it("refuses a version it does not speak with HTTP 400, -32022 and what it supports", async () => {
		const meta = { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" };
		const answer = await modern(s.port, "tools/list", {}, { meta, headers: { "MCP-Protocol-Version": "2099-01-01" } });
		expect(answer.status).toBe(400);
		expect(answer.error).toMatchObject({
			code: -32022,
			data: { requested: "2099-01-01", supported: expect.arrayContaining([MODERN, "2025-11-25"]) },
		});
	});

	it("answers an unknown method with 404 and -32601, and a batch with 400 and -32600", async () => {
		for (const method of ["ping", "prompts/list", "logging/setLevel"]) {
			const answer = await modern(s.port, method);
			expect(answer.status, method).toBe(404);
			expect(answer.error?.code, method).toBe(-32601);
		}
		const batch = await call(s.port, "/mcp", {
			method: "POST",
			headers: {
				Authorization: `Bearer ${TEST_KEY}`,
				"Content-Type": "application/json",
				"MCP-Protocol-Version": MODERN,
				"Mcp-Method": "tools/list",
			},
			body: JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN_META } }]),
		});
		expect(batch.status).toBe(400);
		expect(batch.json<{ error: { code: number } }>().error.code).toBe(-32600);
	});

	it("ignores a session id on a modern request, and serves a 2025 session beside it exactly as before", async () => {
		const session = await connect(s.port, TEST_KEY);
		const sessionId = session.transport.sessionId!;
		const read = await modernCall(
			s.port,
			"tools/call",
			{ name: "read_note", arguments: { path: "Plan.md" } },
			{ headers: { "Mcp-Session-Id": sessionId } },
		);
		expect(read.status).toBe(200);
		expect(read.headers["mcp-session-id"]).toBeUndefined();
		// The modern read was not this session's read: its tokenless replace is still refused.
		const tokenless = await session.tool("write_note", { path: "Plan.md", content: "x\n" });
		expect(tokenless.details).toMatchObject({ error: "precondition-required" });
		const sessionRead = await session.tool("read_note", { path: "Plan.md" });
		expect(sessionRead.structured).toMatchObject({ revision: sha256Token(NOTE) });
		await session.close();
	});

	it("answers a 2026-07-28 GET or DELETE with 405 (no stream, no session), while a 2025 session's still work", async () => {
		for (const method of ["GET", "DELETE"]) {
			const answer = await call(s.port, "/mcp", {
				method,
				headers: { Authorization: `Bearer ${TEST_KEY}`, Accept: "text/event-stream", "MCP-Protocol-Version": MODERN },
			});
			expect(answer.status, method).toBe(405);
			expect(answer.headers.allow, method).toBe("POST");
			expect(answer.json<{ error: { message: string } }>().error.message, method).toContain("subscriptions/listen");
		}
		const session = await connect(s.port, TEST_KEY);
		const sessionId = session.transport.sessionId!;
		const ended = await call(s.port, "/mcp", {
			method: "DELETE",
			headers: {
				Authorization: `Bearer ${TEST_KEY}`,
				"Mcp-Session-Id": sessionId,
				"MCP-Protocol-Version": "2025-11-25",
			},
		});
		expect(ended.status).toBe(200);
		await session.close();
	});

	it("serves the Local REST API's tool set at /mcp/lra and the names a header cannot carry plainly", async () => {
		const answer = await modern(s.port, "tools/list", {}, { path: "/mcp/lra" });
		expect((answer.result!.tools as { name: string }[]).map((tool) => tool.name)).not.toContain("write_note");
		expect(headerSafe("Überblick")).toMatch(/^=\?base64\?.*\?=$/);
	});
});
