/**
 * One JSON-RPC request handed to an MCP server inside this process, its answer awaited: how a 2026-07-28 request
 * reaches the same tools and resources a 2025 session uses, without the SDK's HTTP transport (whose version list
 * stops at 2025-11-25, so it refuses every modern request before reading it).
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export class OneRequestTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	private settle: ((message: JSONRPCMessage) => void) | null = null;

	start(): Promise<void> {
		return Promise.resolve();
	}

	/** The server's answer to `message` (any notification it sends on the way is dropped: nothing listens for it). */
	exchange(message: JSONRPCMessage): Promise<JSONRPCMessage> {
		const answer = new Promise<JSONRPCMessage>((resolve) => {
			this.settle = resolve;
		});
		this.onmessage?.(message);
		return answer;
	}

	send(message: JSONRPCMessage): Promise<void> {
		if ("result" in message || "error" in message) this.settle?.(message);
		return Promise.resolve();
	}

	/** Closing first (the client went away) answers the pending request with an error nobody reads. */
	close(): Promise<void> {
		this.settle?.({
			jsonrpc: "2.0",
			id: 0,
			error: { code: -32603, message: "The request ended before it was answered." },
		});
		this.settle = null;
		this.onclose?.();
		return Promise.resolve();
	}
}
