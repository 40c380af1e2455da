/**
 * A 2026-07-28 client on the raw wire: every request a POST with its `_meta` and the headers that mirror it, so tests
 * can send exactly what a conforming client sends, and then break one thing at a time.
 */
import { call, type CallResult } from "../../helpers/http-client";
import { TEST_KEY } from "../../helpers/headless-harness";

export const MODERN = "2026-07-28";
export const MODERN_META = {
	"io.modelcontextprotocol/protocolVersion": MODERN,
	"io.modelcontextprotocol/clientInfo": { name: "revision-guard-modern-test", version: "1.0.0" },
	"io.modelcontextprotocol/clientCapabilities": {},
};

export interface ModernOptions {
	/** Headers added to (or, with undefined, taken from) what a conforming client sends. */
	headers?: Record<string, string | undefined>;
	/** Replaces params._meta. */
	meta?: Record<string, unknown>;
	key?: string;
	path?: string;
	id?: number | string;
}

let nextId = 1;

/** The headers a conforming client sends for `method` (Mcp-Name from params.name or params.uri). */
export function modernHeaders(method: string, params: Record<string, unknown>, key = TEST_KEY): Record<string, string> {
	const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
	return {
		Authorization: `Bearer ${key}`,
		"Content-Type": "application/json",
		Accept: "application/json, text/event-stream",
		"MCP-Protocol-Version": MODERN,
		"Mcp-Method": method,
		...(name !== undefined ? { "Mcp-Name": headerSafe(name) } : {}),
	};
}

/** A value as a header carries it: plain when it is visible ASCII, else in the Base64 sentinel form. */
export function headerSafe(value: string): string {
	return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !/^=\?base64\?.*\?=$/.test(value)
		? value
		: `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

export async function modernCall(
	port: number,
	method: string,
	params: Record<string, unknown> = {},
	options: ModernOptions = {},
): Promise<CallResult> {
	const headers: Record<string, string> = { ...modernHeaders(method, params, options.key) };
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		if (value === undefined) delete headers[name];
		else headers[name] = value;
	}
	const body = {
		jsonrpc: "2.0",
		id: options.id ?? nextId++,
		method,
		params: { ...params, _meta: options.meta ?? MODERN_META },
	};
	return call(port, options.path ?? "/mcp", { method: "POST", headers, body: JSON.stringify(body) });
}

export interface ModernAnswer {
	status: number;
	result: Record<string, unknown> | undefined;
	error: { code: number; message: string; data?: Record<string, unknown> } | undefined;
	raw: CallResult;
}

export async function modern(
	port: number,
	method: string,
	params: Record<string, unknown> = {},
	options: ModernOptions = {},
): Promise<ModernAnswer> {
	const raw = await modernCall(port, method, params, options);
	const body = raw.json<{ result?: Record<string, unknown>; error?: ModernAnswer["error"] }>();
	return { status: raw.status, result: body.result, error: body.error, raw };
}

/** A tools/call, its result's prose and JSON facts as mcp-client.ts's toolResult reads them. */
export async function modernTool(
	port: number,
	name: string,
	args: Record<string, unknown>,
	options: ModernOptions = {},
) {
	const answer = await modern(port, "tools/call", { name, arguments: args }, options);
	const result = answer.result as
		| {
				isError?: boolean;
				content: { type: string; text: string }[];
				structuredContent?: Record<string, unknown>;
				resultType?: string;
		  }
		| undefined;
	if (!result) throw new Error(`tools/call ${name} answered ${answer.raw.text}`);
	const texts = result.content.filter((block) => block.type === "text").map((block) => block.text);
	return {
		answer,
		resultType: result.resultType,
		isError: result.isError === true,
		prose: texts[0] ?? "",
		structured: result.structuredContent,
		details: result.isError && texts[1] !== undefined ? (JSON.parse(texts[1]) as Record<string, unknown>) : undefined,
	};
}
