/**
 * Which tools an agent sees. Every MCP server carries our tools and the Local REST API's, but tools/list shows one
 * set: ours at /mcp (and /mcp/, as Local REST API 5.x clients spell it), the Local REST API's at /mcp/lra. The other
 * set can still be called by name, so a script pinned to `vault_write` works at /mcp without an agent seeing every
 * tool twice. Our own Obsidian-only tools are listed only inside Obsidian, and the command tools only for a key the
 * person allowed to run commands.
 */
import type { McpServer } from "./protocol/server";
import type { AgentActor } from "../service/notes/actor";
import type { AgentNotes } from "../service/notes/agent-notes";
import { LRA_TOOL_NAMES } from "./lra";
import { TOOL_NAMES } from "./tools";
import { WORKSPACE_TOOL_NAMES } from "./tools/workspace-tools";

export type ToolSet = "revision-guard" | "lra";

/** The Local REST API's set, listed. */
export const LRA_MCP_PATH = "/mcp/lra";

export function toolSetOf(url: string | undefined): ToolSet {
	const path = (url ?? "").split("?")[0]!;
	return path === LRA_MCP_PATH || path === `${LRA_MCP_PATH}/` ? "lra" : "revision-guard";
}

/** Whether tools/list shows `name` to this caller, decided when the list is asked for (settings may have changed). */
export function listedTools(toolSet: ToolSet, notes: AgentNotes, actor: () => AgentActor): (name: string) => boolean {
	if (toolSet === "lra") return (name) => (LRA_TOOL_NAMES as readonly string[]).includes(name);
	return (name) => {
		if ((TOOL_NAMES as readonly string[]).includes(name) || name === "periodic_note") return true;
		if (!(WORKSPACE_TOOL_NAMES as readonly string[]).includes(name) || notes.hostName !== "obsidian") return false;
		return name === "active_note" || name === "open_note" || notes.commands.allowed(actor());
	};
}

/**
 * Every tool a server of ours registers (tools/index.ts registers all of them, listed or not). A call naming any
 * other is a protocol error, as the MCP specification says (-32602 "Unknown tool"), not a tool result, which a
 * client may hand its model to retry (protocol/server.ts answers it).
 */
export const CALLABLE_TOOLS: ReadonlySet<string> = new Set<string>([
	...TOOL_NAMES,
	"periodic_note",
	...WORKSPACE_TOOL_NAMES,
	...LRA_TOOL_NAMES,
]);

/** Shows only the `listed` tools in every tools/list answer of `server`. */
export function listOnly(server: McpServer, listed: (name: string) => boolean): void {
	server.listed = listed;
}
