/** What the headless host prints at start: where it listens, the key, how to connect an agent, and three curl lines to try. */
import { isBackupPath } from "../core/conflicts";

export interface WelcomeInfo {
	folder: string;
	port: number;
	key: string;
	notes: number;
	changed: number;
	/** The note the curl lines use (a vault path from pickSampleNote), or null when the folder has no notes. */
	sampleNote: string | null;
}

/** Stands in for a note's path in the curl lines when the folder has none. */
export const NOTE_PLACEHOLDER = "YOUR-NOTE.md";

/**
 * A real note of the served folder for the examples: the shallowest, then the first by name (the demo's Welcome.md).
 * Never a refused write's `.bak` (`Welcome.20261127-145516.bak.md` sorts before `Welcome.md`) or a note in the
 * backup folder: the examples would write to an agent's kept text.
 */
export function pickSampleNote(notePaths: readonly string[], backupFolder: string): string | null {
	const depth = (path: string) => path.split("/").length;
	const notes = notePaths.filter((path) => !isBackupPath(path, backupFolder));
	const sorted = notes.sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
	return sorted[0] ?? null;
}

/** Percent-encodes each segment, including !'()*, so the URL is safe unquoted in bash. */
function urlPath(path: string): string {
	return path
		.split("/")
		.map((segment) =>
			encodeURIComponent(segment).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`),
		)
		.join("/");
}

export function welcomeText({ folder, port, key, notes, changed, sampleNote }: WelcomeInfo): string {
	const base = `http://127.0.0.1:${port}`;
	const note = `${base}/vault/${sampleNote === null ? NOTE_PLACEHOLDER : urlPath(sampleNote)}`;
	const placeholder =
		sampleNote === null
			? `\n  # This folder has no notes yet: add one and put its path in place of ${NOTE_PLACEHOLDER}.`
			: "";
	return `Revision Guard is serving ${folder}
  ${notes} notes tracked${changed > 0 ? `, ${changed} changed since last run` : ""}
  REST API: ${base}/
  MCP:      ${base}/mcp
  API key:  ${key}

Connect an agent:
  Claude Code:
    ${claudeCommand(base, key)}
  Any MCP client (Streamable HTTP), in its JSON configuration:
    ${mcpClientJson(base, key)}

Try it (bash):${placeholder}
  export RG=${base} RG_KEY=${key}
  # 1. Read a note; the ETag header is its revision:
  curl -i -H "Authorization: Bearer $RG_KEY" ${note}
  # 2. Update it with that revision (saves the ETag for step 3):
  ETAG=$(curl -s -D - -o /dev/null -H "Authorization: Bearer $RG_KEY" ${note} | tr -d '\\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p'); curl -i -X PUT -H "Authorization: Bearer $RG_KEY" -H "If-Match: $ETAG" --data-binary $'# Updated\\n\\nUpdated by an agent.\\n' ${note}
  # 3. Send the same, now stale, revision again: 412, and the body is kept as a .bak note:
  curl -i -X PUT -H "Authorization: Bearer $RG_KEY" -H "If-Match: $ETAG" --data-binary $'stale copy\\n' ${note}

Press Ctrl+C to stop.`;
}

/** The line that adds this host to Claude Code, ready to paste. */
export function claudeCommand(base: string, key: string): string {
	return `claude mcp add --transport http revision-guard ${base}/mcp --header "Authorization: Bearer ${key}"`;
}

/** The usual `mcpServers` entry of MCP clients' JSON configuration, on one line. */
export function mcpClientJson(base: string, key: string): string {
	return JSON.stringify({
		mcpServers: { "revision-guard": { type: "http", url: `${base}/mcp`, headers: { Authorization: `Bearer ${key}` } } },
	});
}
