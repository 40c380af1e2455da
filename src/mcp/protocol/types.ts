/**
 * The MCP messages and results our server sends, typed as far as our code reads or writes them (the protocol's own
 * schema is much wider; what we never build is left open). JSON-RPC's error codes, and McpError, whose message
 * carries its code as the SDK's did ("MCP error -32602: …"), because clients have long seen it that way.
 */

export type RequestId = string | number;

export interface JsonRpcRequest {
	jsonrpc: "2.0";
	id: RequestId;
	method: string;
	params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
	jsonrpc: "2.0";
	method: string;
	params?: Record<string, unknown>;
}

export interface JsonRpcResult {
	jsonrpc: "2.0";
	id: RequestId;
	result: Record<string, unknown>;
}

export interface JsonRpcError {
	jsonrpc: "2.0";
	id: RequestId;
	error: { code: number; message: string; data?: unknown };
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResult | JsonRpcError;

export const ErrorCode = {
	ConnectionClosed: -32000,
	RequestTimeout: -32001,
	ParseError: -32700,
	InvalidRequest: -32600,
	MethodNotFound: -32601,
	InvalidParams: -32602,
	InternalError: -32603,
} as const;

export class McpError extends Error {
	constructor(
		readonly code: number,
		message: string,
		readonly data?: unknown,
	) {
		super(`MCP error ${code}: ${message}`);
		this.name = "McpError";
	}
}

export interface TextContent {
	type: "text";
	text: string;
}

export interface ResourceLink {
	type: "resource_link";
	uri: string;
	name: string;
	title?: string;
	description?: string;
	mimeType?: string;
	_meta?: Record<string, unknown>;
}

export type ContentBlock = TextContent | ResourceLink;

export interface CallToolResult {
	[key: string]: unknown;
	content: ContentBlock[];
	structuredContent?: Record<string, unknown>;
	isError?: boolean;
}

export interface ToolAnnotations {
	title?: string;
	readOnlyHint?: boolean;
	destructiveHint?: boolean;
	idempotentHint?: boolean;
	openWorldHint?: boolean;
}

export interface Resource {
	[key: string]: unknown;
	uri: string;
	name: string;
	title?: string;
	description?: string;
	mimeType?: string;
	size?: number;
	annotations?: { lastModified?: string; [key: string]: unknown };
	_meta?: Record<string, unknown>;
}

export interface ListResourcesResult {
	[key: string]: unknown;
	resources: Resource[];
	nextCursor?: string;
}

export interface ResourceContents {
	[key: string]: unknown;
	uri: string;
	mimeType?: string;
	text: string;
	_meta?: Record<string, unknown>;
}

export interface ReadResourceResult {
	[key: string]: unknown;
	contents: ResourceContents[];
}

/** A form question (elicitation/create, form mode): a flat object of primitive fields. */
export interface ElicitRequestFormParams {
	mode?: "form";
	message: string;
	requestedSchema: {
		type: "object";
		properties: Record<string, Record<string, unknown>>;
		required?: string[];
	};
}

export interface ElicitResult {
	action: "accept" | "decline" | "cancel";
	content?: Record<string, unknown>;
}

export interface ClientCapabilities {
	[key: string]: unknown;
	elicitation?: { form?: Record<string, unknown>; url?: Record<string, unknown> };
}
