/**
 * A sub-handler the composition root mounts on the API server (MCP on /mcp), so `http/` never depends on what is
 * mounted. The server runs its Host, Origin and key checks first, then hands the request over.
 */
import type { IncomingMessage, ServerResponse } from "http";
import type { AgentKey } from "../settings";
import type { ApiResponse } from "./response";
import type { Route } from "./router";

export interface Mount {
	/** Its entry in the route table (for OPTIONS, 405s and the route listing); its handlers are not called. */
	route: Route;
	/** Answers an authenticated request: an answer for the server to send, or null once it answered on `response`. */
	handle(
		request: IncomingMessage,
		response: ServerResponse,
		agent: AgentKey,
		cors: Record<string, string>,
	): Promise<ApiResponse | null>;
	close(): Promise<void>;
	/**
	 * Its own words for "the host is starting, retry in `retryAfter` seconds" (StartupReadiness), in its protocol;
	 * absent: the server's problem answer.
	 */
	startingUp?(detail: string, retryAfter: number): ApiResponse;
}
