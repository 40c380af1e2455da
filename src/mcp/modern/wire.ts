/**
 * The 2026-07-28 wire contract, as pure checks over a POST's headers and body: which era a request speaks, and
 * whether a modern one is well formed (its `_meta`, its MCP-Protocol-Version, Mcp-Method and Mcp-Name headers).
 * Nothing here reads the vault; the endpoint answers what these functions decide.
 */

/** The stateless revision we serve without a session. */
export const MODERN_VERSION = "2026-07-28";
/** What an initialize may still open a session for (the SDK's own list, newest first). */
export const LEGACY_VERSIONS: readonly string[] = [
	"2025-11-25",
	"2025-06-18",
	"2025-03-26",
	"2024-11-05",
	"2024-10-07",
];
/** Every version this endpoint speaks, as server/discover and UnsupportedProtocolVersion list them. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/** The error codes the 2026 specification reserves (-32020..-32099), and JSON-RPC's own. */
export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
export const INVALID_PARAMS = -32602;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;

/** The methods whose Mcp-Name header mirrors a body field. */
const NAMED_BY: Readonly<Record<string, "name" | "uri">> = {
	"tools/call": "name",
	"prompts/get": "name",
	"resources/read": "uri",
};

export type Headers = Record<string, string | string[] | undefined>;

export interface ModernRequest {
	id: string | number | null;
	method: string;
	params: Record<string, unknown>;
	version: string;
	clientCapabilities: Record<string, unknown>;
}

export interface WireRefusal {
	status: number;
	code: number;
	message: string;
	data?: Record<string, unknown>;
	id: string | number | null;
}

export type ModernCheck = { ok: true; request: ModernRequest } | { ok: false; refusal: WireRefusal };

/**
 * Whether a POST speaks the stateless revision: its `_meta` names a protocol version that is not a legacy one, or
 * its MCP-Protocol-Version header does. Everything else (an initialize, a 2025 client with or without its session)
 * is served by the legacy stack exactly as before.
 */
export function isModern(headers: Headers, body: unknown): boolean {
	const declared = metaOf(body)?.[META_PROTOCOL_VERSION];
	const header = headerOf(headers, "mcp-protocol-version");
	const modern = (version: unknown) =>
		version !== undefined && (typeof version !== "string" || !LEGACY_VERSIONS.includes(version));
	return modern(declared) || modern(header);
}

/** A modern POST checked in the order a client can act on: shape, version, required `_meta`, then mirrored headers. */
export function checkModern(headers: Headers, body: unknown): ModernCheck {
	if (typeof body !== "object" || body === null || Array.isArray(body)) {
		return refuse(
			400,
			INVALID_REQUEST,
			"Invalid Request: a 2026-07-28 POST carries exactly one JSON-RPC message (no batches).",
			null,
		);
	}
	const message = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
	const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
	if ("id" in message && id === null)
		return refuse(400, INVALID_REQUEST, "Invalid Request: a request's id is a string or a number.", null);
	if (message.jsonrpc !== "2.0" || typeof message.method !== "string")
		return refuse(400, INVALID_REQUEST, 'Invalid Request: expected {"jsonrpc":"2.0","method":…}.', id);
	const params = isRecord(message.params) ? message.params : {};
	const meta = isRecord(params._meta) ? params._meta : {};
	const header = headerOf(headers, "mcp-protocol-version");
	const declared = meta[META_PROTOCOL_VERSION];
	if (declared !== undefined && header !== undefined && declared !== header) {
		return refuse(
			400,
			HEADER_MISMATCH,
			`Header mismatch: MCP-Protocol-Version ${JSON.stringify(header)} does not match _meta ${META_PROTOCOL_VERSION} ${JSON.stringify(declared)}.`,
			id,
		);
	}
	const requested = typeof declared === "string" ? declared : header;
	if (requested !== undefined && requested !== MODERN_VERSION) {
		return refuse(400, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", id, {
			supported: [...SUPPORTED_VERSIONS],
			requested,
		});
	}
	const capabilities = meta[META_CLIENT_CAPABILITIES];
	const missing = [
		typeof declared === "string" ? null : META_PROTOCOL_VERSION,
		isRecord(capabilities) ? null : META_CLIENT_CAPABILITIES,
	].filter((key) => key !== null);
	if (missing.length > 0) {
		return refuse(
			400,
			INVALID_PARAMS,
			`Invalid params: every 2026-07-28 request carries ${missing.join(" and ")} in params._meta (the ${missing.length === 1 ? "field is" : "fields are"} ` +
				`missing or not of the right type).`,
			id,
			{ missing },
		);
	}
	const mismatch = headerMismatch(headers, message.method, params, header);
	if (mismatch !== null) return refuse(400, HEADER_MISMATCH, `Header mismatch: ${mismatch}`, id);
	return {
		ok: true,
		request: {
			id,
			method: message.method,
			params,
			version: MODERN_VERSION,
			clientCapabilities: capabilities as Record<string, unknown>,
		},
	};
}

/** What is wrong with the headers that mirror the body, or null when they all match. */
function headerMismatch(
	headers: Headers,
	method: string,
	params: Record<string, unknown>,
	version: string | undefined,
): string | null {
	if (version === undefined) return "the MCP-Protocol-Version header is missing.";
	const sentMethod = headerOf(headers, "mcp-method");
	if (sentMethod === undefined) return "the Mcp-Method header is missing.";
	if (sentMethod !== method)
		return `Mcp-Method ${JSON.stringify(sentMethod)} does not match the body's method ${JSON.stringify(method)}.`;
	// Own keys only: a method named "constructor" or "toString" names nothing (Object's prototype is not a table of ours).
	const field = Object.hasOwn(NAMED_BY, method) ? NAMED_BY[method] : undefined;
	if (field === undefined) return null;
	const sentName = headerOf(headers, "mcp-name");
	if (sentName === undefined) return `the Mcp-Name header is missing (${method} needs it, mirroring params.${field}).`;
	const name = decodeHeaderValue(sentName);
	if (name === null) return "the Mcp-Name header is not a valid header value.";
	if (name !== params[field]) return `Mcp-Name ${JSON.stringify(name)} does not match the body's params.${field}.`;
	return null;
}

/** A header value as sent, or its Base64 sentinel form (`=?base64?…?=`) decoded; null when the encoding is broken. */
export function decodeHeaderValue(value: string): string | null {
	if (/[^\x20-\x7e\t]/.test(value)) return null;
	const encoded = /^=\?base64\?(.*)\?=$/.exec(value);
	if (!encoded) return value;
	const base64 = encoded[1]!;
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) return null;
	const bytes = Buffer.from(base64, "base64");
	const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
	return Buffer.from(text, "utf8").equals(bytes) ? text : null;
}

export function headerOf(headers: Headers, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

function metaOf(body: unknown): Record<string, unknown> | undefined {
	if (!isRecord(body)) return undefined;
	const params = body.params;
	return isRecord(params) && isRecord(params._meta) ? params._meta : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refuse(
	status: number,
	code: number,
	message: string,
	id: string | number | null,
	data?: Record<string, unknown>,
): ModernCheck {
	return { ok: false, refusal: { status, code, message, id, ...(data ? { data } : {}) } };
}
