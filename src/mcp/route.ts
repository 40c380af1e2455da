/**
 * The /mcp entry of the route table. It is there so the table (and the OpenAPI test that mirrors it) lists every
 * path; the server hands /mcp to the MCP endpoint after its Host, Origin and key checks, so these handlers only
 * answer when a server was built without the endpoint.
 */
import { problem } from "../http/problems";
import { exact, type Handler, type Route } from "../http/router";

export const MCP_PATH = "/mcp";

const notMounted: Handler = async () => problem("route-not-found", "The MCP endpoint is not served by this server. See GET /openapi.json.");

export const MCP_ROUTE: Route = { template: MCP_PATH, match: exact(MCP_PATH), handlers: { GET: notMounted, POST: notMounted, DELETE: notMounted } };
