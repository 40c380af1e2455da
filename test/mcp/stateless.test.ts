/**
 * MCP without a session (the 2026 drafts drop Mcp-Session-Id): every tool works, a replace needs the revision
 * because nothing read is remembered, edit_note needs none, the request's server is closed with it, and the gates
 * and caps in front of /mcp are the same as for sessions.
 */
import { changeTagOf, partTokenOf } from "../../src/core/revision-tokens";
import { readFile } from "fs/promises";
import { request } from "http";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Mount } from "../../src/http/mount";
import { ApiServer } from "../../src/http/server";
import { McpEndpoint } from "../../src/mcp/endpoint";
import { MCP_ROUTE } from "../../src/mcp/route";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { sha256Token, visibleFiles, writeVaultFile } from "../helpers/vault-files";
import { connectStateless, MCP_ACCEPT, postMcp, toolCall, toolResults, type Connected } from "./mcp-client";

const NOTE = "# Plan\n\n- one\n- two\n";
const AUTH = { Authorization: `Bearer ${TEST_KEY}` };
const PROTOCOL = { "Mcp-Protocol-Version": "2025-11-25" };

let h: Harness;
let endpoint: McpEndpoint;
let server: ApiServer;
let port: number;
beforeEach(async () => {
	h = await startHeadless();
	await writeVaultFile(h.dir, "Plan.md", NOTE);
	// Our own server around an endpoint we hold, so the test can see its sessions and its stateless servers.
	endpoint = new McpEndpoint(h.guard.notes, { onError: (error) => h.errors.push(error) });
	const mount: Mount = {
		route: MCP_ROUTE,
		handle: (request, response, agent, cors) => endpoint.handle(request, response, agent, cors),
		close: () => endpoint.close(),
	};
	server = new ApiServer({ notes: h.guard.notes, mounts: [mount], onError: (error) => h.errors.push(error) });
	port = await server.listen(0);
});
afterEach(async () => {
	await server.close();
	await h.close();
	expect(h.errors).toEqual([]);
});

/** Each request's server is closed when its response closes, which the client may see a moment after the answer. */
const allClosed = () => vi.waitFor(() => expect(endpoint.stateless.size).toBe(0), { timeout: 2000, interval: 5 });
const onDisk = async (path: string) => (await readFile(join(h.dir, path))).toString("utf8");

describe("an MCP client without a session", () => {
	let mcp: Connected;
	beforeEach(async () => {
		mcp = await connectStateless(port, TEST_KEY);
	});
	afterEach(async () => {
		await mcp.close();
	});

	it("reads, then writes with the revision; a tokenless replace is refused, since nothing it read is remembered", async () => {
		expect(mcp.transport.sessionId).toBeUndefined();
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		expect(read.structured).toEqual({ path: "Plan.md", content: NOTE, revision: sha256Token(NOTE) });

		const tokenless = await mcp.tool("write_note", { path: "Plan.md", content: "replaced\n" });
		expect(tokenless.isError).toBe(true);
		expect(tokenless.details).toMatchObject({
			error: "precondition-required",
			changeTag: changeTagOf(sha256Token(NOTE)),
		});
		expect(tokenless.prose).toContain("you passed no revision");
		expect(tokenless.prose).toContain("edit_note needs no revision");
		expect(await onDisk("Plan.md")).toBe(NOTE);
		expect(await visibleFiles(h.dir)).toEqual(["Plan.md"]);

		const written = await mcp.tool("write_note", {
			path: "Plan.md",
			content: "replaced\n",
			revision: read.structured!.revision,
		});
		expect(written.structured).toEqual({ path: "Plan.md", revision: sha256Token("replaced\n"), created: false });
		expect(await onDisk("Plan.md")).toBe("replaced\n");
		// Its own write is not remembered either: the next replace needs the revision it returned.
		expect((await mcp.tool("write_note", { path: "Plan.md", content: "again\n" })).details).toMatchObject({
			error: "precondition-required",
		});
	});

	it("edits and appends without a revision, patches with the part token they return, and deletes only after a read", async () => {
		const edited = await mcp.tool("edit_note", {
			path: "Plan.md",
			edits: [{ old_string: "- two", new_string: "- 2" }],
		});
		expect(edited.isError).toBe(false);
		const appended = await mcp.tool("append_note", { path: "Plan.md", content: "- three\n" });
		// It never read the note: what it is handed names only the part it wrote.
		expect(appended.structured).toEqual({
			path: "Plan.md",
			revision: partTokenOf(sha256Token("# Plan\n\n- one\n- 2\n- three\n")),
		});
		const patch = { path: "Plan.md", target_type: "heading", target: "Plan", operation: "prepend", content: "Intro" };
		expect((await mcp.tool("patch_note", patch)).details).toMatchObject({ error: "precondition-required" });
		const patched = await mcp.tool("patch_note", { ...patch, revision: appended.structured!.revision });
		expect(patched.isError).toBe(false);
		expect(await onDisk("Plan.md")).toBe("# Plan\nIntro\n\n- one\n- 2\n- three\n");
		const blind = await mcp.tool("delete_note", { path: "Plan.md", revision: patched.structured!.revision });
		expect(blind.details).toMatchObject({ error: "precondition-required", sentToken: "part-token" });
		expect(await onDisk("Plan.md")).toBe("# Plan\nIntro\n\n- one\n- 2\n- three\n");
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		expect(
			(await mcp.tool("delete_note", { path: "Plan.md", revision: read.structured!.revision })).structured,
		).toEqual({ path: "Plan.md", deleted: true });
		expect(await visibleFiles(h.dir)).toEqual([]);
	});

	it("can read the resources a stale write links to, but is offered no subscriptions (nothing could be sent to it later)", async () => {
		await writeVaultFile(h.dir, "Plan.md", NOTE + "- the person's line\n");
		const stale = (await mcp.client.callTool({
			name: "write_note",
			arguments: { path: "Plan.md", content: "mine\n", revision: sha256Token(NOTE) },
		})) as CallToolResult;
		expect(stale.isError).toBe(true);
		const backup = stale.content.find((block) => block.type === "resource_link" && block.uri.includes(".bak"));
		expect(backup).toBeDefined();
		const read = await mcp.client.readResource({ uri: (backup as { uri: string }).uri });
		expect(read.contents[0]).toMatchObject({ text: "mine\n" });
		await expect(mcp.client.subscribeResource({ uri: (backup as { uri: string }).uri })).rejects.toThrow();
	});

	it("leaves no server behind once each request is answered, and uses none of the session its initialize opened", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		await mcp.client.listTools();
		await allClosed();
		// The initialize opened a session (a 2025-11-25 client expects one); this client never names it, so it idles out.
		expect(endpoint.sessions.size).toBe(1);
	});
});

describe("a client that never initializes (the 2026 drafts' shape)", () => {
	it("calls tools with no session at all; no session is opened and no Mcp-Session-Id is announced", async () => {
		const res = await postMcp(port, toolCall(1, "read_note", { path: "Plan.md" }), { ...AUTH, ...PROTOCOL });
		expect(res.status).toBe(200);
		expect(res.headers["mcp-session-id"]).toBeUndefined();
		expect(toolResults(res.json())[0]!.structured).toMatchObject({ revision: sha256Token(NOTE) });
		const written = await postMcp(
			port,
			toolCall(2, "write_note", { path: "Plan.md", content: "new\n", revision: sha256Token(NOTE) }),
			AUTH,
		);
		expect(toolResults(written.json())[0]!.isError).toBe(false);
		expect(await onDisk("Plan.md")).toBe("new\n");
		expect(endpoint.sessions.size).toBe(0);
		await allClosed();
	});

	it("meets the same gates and caps: a wrong key 401, a foreign Origin 403, an oversized body 413; nothing is written", async () => {
		const write = toolCall(1, "write_note", { path: "New.md", content: "x".repeat(5000) });
		expect((await postMcp(port, write, { Authorization: "Bearer not-the-key-not-the-key-not-the-key" })).status).toBe(
			401,
		);
		expect((await postMcp(port, write, {})).status).toBe(401);
		expect((await postMcp(port, write, { ...AUTH, Origin: "https://evil.example" })).status).toBe(403);
		h.settings.maxBodyMB = 0.001;
		const tooBig = await postMcp(port, write, AUTH);
		expect(tooBig.status).toBe(413);
		expect(tooBig.json()).toMatchObject({ type: "/problems/payload-too-large" });
		expect(await visibleFiles(h.dir)).toEqual(["Plan.md"]);
		await allClosed();
	});

	it("stops a long-poll, and closes its server, when the client goes away", async () => {
		await writeVaultFile(h.dir, "Plan.md", NOTE + "- the person's line\n");
		const stale = await postMcp(
			port,
			toolCall(1, "write_note", { path: "Plan.md", content: "mine\n", revision: sha256Token(NOTE) }),
			AUTH,
		);
		const conflictId = toolResults(stale.json())[0]!.details!.conflictId as string;
		const body = JSON.stringify(toolCall(2, "conflict_status", { id: conflictId, wait: 60 }));
		const waiting = request({
			host: "127.0.0.1",
			port,
			method: "POST",
			path: "/mcp",
			headers: { ...AUTH, Host: `127.0.0.1:${port}`, "Content-Type": "application/json", Accept: MCP_ACCEPT },
		});
		waiting.on("error", () => undefined);
		waiting.end(body);
		await vi.waitFor(() => expect(h.guard.waits.pending).toBe(1), { timeout: 2000, interval: 5 });
		expect(endpoint.stateless.size).toBe(1);
		waiting.destroy();
		await vi.waitFor(() => expect(h.guard.waits.pending).toBe(0), { timeout: 2000, interval: 5 });
		await allClosed();
	});

	it("answers an unsupported protocol version and a message that is not JSON-RPC with JSON-RPC errors", async () => {
		const version = await postMcp(port, toolCall(1, "read_note", { path: "Plan.md" }), {
			...AUTH,
			"Mcp-Protocol-Version": "1999-01-01",
		});
		expect(version.status).toBe(400);
		// Any version but a legacy one is answered as 2026-07-28 says (it was the SDK's -32000 before): what we support.
		expect(version.json()).toMatchObject({
			jsonrpc: "2.0",
			id: 1,
			error: {
				code: -32022,
				data: { requested: "1999-01-01", supported: expect.arrayContaining(["2026-07-28", "2025-11-25"]) },
			},
		});
		const junk = await postMcp(port, { hello: "world" }, AUTH);
		expect(junk.status).toBe(400);
		expect(junk.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
		await allClosed();
	});
});
