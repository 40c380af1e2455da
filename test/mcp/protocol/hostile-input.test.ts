/**
 * Whatever a client POSTs to /mcp (any JSON, any method, any params, deep or huge arguments, wrong types for every
 * tool) is answered without a 5xx and without an unexpected error, in a session, without one, and in 2026-07-28;
 * and the host answers normally afterwards.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CALLABLE_TOOLS } from "../../../src/mcp/tool-visibility";
import { startHeadless, TEST_KEY, type Harness } from "../../helpers/headless-harness";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { writeVaultFile } from "../../helpers/vault-files";
import { postMcp, rawSession } from "../mcp-client";
import { MODERN_META } from "../modern/modern-client";

forbidServerErrors();

const METHODS = [
	"initialize",
	"ping",
	"tools/list",
	"tools/call",
	"resources/list",
	"resources/templates/list",
	"resources/read",
	"resources/subscribe",
	"resources/unsubscribe",
	"notifications/cancelled",
	"notifications/initialized",
	"elicitation/create",
	"no/such",
];
const TOOLS = [...CALLABLE_TOOLS];

let h: Harness;
let session: string;
beforeEach(async () => {
	h = await startHeadless();
	await writeVaultFile(h.dir, "a.md", "# A\n");
	session = await rawSession(h.port, TEST_KEY);
});
afterEach(async () => {
	expect(h.errors).toEqual([]);
	await h.close();
});

type Era = "session" | "stateless" | "modern";

function headersFor(era: Era, method: unknown): Record<string, string> {
	const auth = { Authorization: `Bearer ${TEST_KEY}` };
	if (era === "session") return { ...auth, "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
	if (era === "stateless") return auth;
	return { ...auth, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": typeof method === "string" ? method : "x" };
}

function withMeta(era: Era, params: unknown): unknown {
	if (era !== "modern" || typeof params !== "object" || params === null || Array.isArray(params)) return params;
	return { ...params, _meta: MODERN_META };
}

async function expectAnswered(era: Era, body: unknown): Promise<void> {
	const method = (body as { method?: unknown } | null)?.method;
	const answer = await postMcp(h.port, body, headersFor(era, method));
	expect(answer.status, `${era} ${JSON.stringify(body).slice(0, 300)} → ${answer.text.slice(0, 300)}`).toBeLessThan(
		500,
	);
}

describe("hostile input to /mcp", () => {
	it("answers any JSON-RPC-shaped message, in every era, below 500", async () => {
		const message = fc.record(
			{
				jsonrpc: fc.oneof(fc.constant("2.0"), fc.jsonValue()),
				id: fc.oneof(fc.integer(), fc.string(), fc.jsonValue()),
				method: fc.oneof(fc.constantFrom(...METHODS), fc.jsonValue()),
				params: fc.oneof(
					fc.jsonValue(),
					fc.record({
						name: fc.oneof(fc.constantFrom(...TOOLS), fc.jsonValue()),
						arguments: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
						uri: fc.oneof(fc.constant("revision-guard://note/a.md"), fc.jsonValue()),
						cursor: fc.jsonValue(),
						requestId: fc.jsonValue(),
					}),
				),
			},
			{ requiredKeys: [] },
		);
		const era = fc.constantFrom<Era>("session", "stateless", "modern");
		await fc.assert(
			fc.asyncProperty(era, fc.oneof(message, fc.array(message, { maxLength: 4 }), fc.jsonValue()), (each, body) =>
				expectAnswered(
					each,
					Array.isArray(body) || typeof body !== "object" || body === null
						? body
						: { ...body, params: withMeta(each, (body as { params?: unknown }).params) },
				),
			),
			{ numRuns: 150, seed: 28 },
		);
		expect(
			(await postMcp(h.port, { jsonrpc: "2.0", id: 1, method: "ping" }, headersFor("session", "ping"))).status,
		).toBe(200);
	});

	it("answers deep and huge arguments, and every tool given the wrong type for each of its fields", async () => {
		let deep: unknown = "leaf";
		for (let i = 0; i < 100; i++) deep = { next: deep };
		const huge = Array.from({ length: 20_000 }, (_, i) => ({ old_string: i, new_string: [i] }));
		const wrong = [null, 5, "x", true, [], {}, [[[]]], { a: { b: 1 } }];
		const tools = (value: unknown) =>
			value === deep || value === huge ? ["edit_note", "query_notes", "vault_patch"] : TOOLS;
		for (const era of ["session", "stateless", "modern"] as const) {
			for (const value of [...wrong, deep, huge]) {
				for (const name of tools(value)) {
					const args = { path: value, edits: value, content: value, query: value, logic: value, revision: value };
					await expectAnswered(era, {
						jsonrpc: "2.0",
						id: 9,
						method: "tools/call",
						params: withMeta(era, { name, arguments: args }),
					});
				}
			}
		}
		const read = await postMcp(
			h.port,
			{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_note", arguments: { path: "a.md" } } },
			headersFor("session", "tools/call"),
		);
		expect(read.status).toBe(200);
		expect(read.text).toContain("# A");
	});
});
