/**
 * The API server as every host serves it: the REST routes plus MCP mounted on /mcp. Built here, at the composition
 * root, so that `http/` never imports `mcp/`.
 */
import { ROUTES } from "../http/routes";
import { ApiServer, type ApiServerOptions } from "../http/server";
import type { Route } from "../http/router";
import { mcpMount } from "../mcp/mount";
import { MCP_ROUTE } from "../mcp/route";
import type { AgentNotes } from "../service/notes/agent-notes";

/** Every route a host serves, /mcp included (the OpenAPI document lists them all). */
export const HOST_ROUTES: readonly Route[] = [...ROUTES, MCP_ROUTE];

export function createApiServer(
	notes: AgentNotes,
	options: Omit<ApiServerOptions, "notes" | "mounts"> = {},
): ApiServer {
	return new ApiServer({
		...options,
		notes,
		mounts: [mcpMount(notes, { ...(options.onError ? { onError: options.onError } : {}) })],
	});
}
