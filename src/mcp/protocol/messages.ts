/**
 * What counts as a JSON-RPC message on the 2025 Streamable HTTP transport, as the MCP SDK 1.32 decided it: a request,
 * a notification, a result or an error, each with exactly its own members (no others), `jsonrpc: "2.0"`, an id that
 * is a string or an integer, params (when sent) an object.
 */
import type { JsonRpcMessage, JsonRpcRequest } from "./types";

type Message = Record<string, unknown>;

const isObject = (value: unknown): value is Message =>
	typeof value === "object" && value !== null && !Array.isArray(value);

const isId = (value: unknown) => typeof value === "string" || (typeof value === "number" && Number.isInteger(value));

function onlyKeys(message: Message, allowed: readonly string[]): boolean {
	return Object.keys(message).every((key) => allowed.includes(key));
}

/** `_meta` in params, when sent, is an object whose progress token (if any) is a string or an integer. */
function paramsFit(params: unknown): boolean {
	if (params === undefined) return true;
	if (!isObject(params)) return false;
	const meta = params._meta;
	if (meta === undefined) return true;
	if (!isObject(meta)) return false;
	return meta.progressToken === undefined || isId(meta.progressToken);
}

export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
	if (!isObject(value) || value.jsonrpc !== "2.0") return false;
	if ("method" in value) {
		if (typeof value.method !== "string" || !paramsFit(value.params)) return false;
		return "id" in value
			? isId(value.id) && onlyKeys(value, ["jsonrpc", "id", "method", "params"])
			: onlyKeys(value, ["jsonrpc", "method", "params"]);
	}
	if ("result" in value)
		return isId(value.id) && isObject(value.result) && onlyKeys(value, ["jsonrpc", "id", "result"]);
	if ("error" in value) {
		const error = value.error;
		return (
			(value.id === undefined || isId(value.id)) &&
			isObject(error) &&
			Number.isInteger(error.code) &&
			typeof error.message === "string" &&
			onlyKeys(value, ["jsonrpc", "id", "error"])
		);
	}
	return false;
}

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
	return "method" in message && "id" in message;
}

/**
 * An initialize as the SDK recognised one (so it opens a session): method "initialize", params naming a version,
 * capabilities and the client. Like the SDK, the envelope is not looked at here (the transport checks it).
 */
export function isInitializeRequest(value: unknown): boolean {
	if (!isObject(value) || value.method !== "initialize") return false;
	const params = value.params;
	if (!isObject(params) || typeof params.protocolVersion !== "string" || !isObject(params.capabilities)) return false;
	const client = params.clientInfo;
	return isObject(client) && typeof client.name === "string" && typeof client.version === "string";
}
