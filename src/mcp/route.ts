/**
 * The /mcp entry of the route table. It is there so the table (and the OpenAPI test that mirrors it) lists every
 * path; the server hands /mcp to the MCP endpoint after its Host, Origin and key checks, so these handlers only
 * answer when a server was built without the endpoint.
 */
import { problem } from "../http/problems";
import type { Handler, Route } from "../http/router";

export const MCP_PATH = "/mcp";

const notMounted: Handler = async () =>
	problem("route-not-found", "The MCP endpoint is not served by this server. See GET /openapi.json.");

/**
 * `/mcp`, and `/mcp/` as Local REST API 5.x clients spell it, and `/mcp/lra` (with or without its slash), where the
 * Local REST API's tool set is the one listed: one route, so all reach the same endpoint (tool-visibility.ts).
 */
export function matchMcp(raw: string): string | null {
	return raw === MCP_PATH || raw === `${MCP_PATH}/` || raw === `${MCP_PATH}/lra` || raw === `${MCP_PATH}/lra/`
		? ""
		: null;
}

export const MCP_ROUTE: Route = {
	template: MCP_PATH,
	match: matchMcp,
	handlers: { GET: notMounted, POST: notMounted, DELETE: notMounted },
};
