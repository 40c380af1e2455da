// @ts-check
/**
 * The tool call a hook was run for, in one shape whichever agent sent it: Claude Code (PreToolUse / PostToolUse;
 * Read, Write, Edit, MultiEdit) or Gemini CLI (BeforeTool / AfterTool; read_file, write_file, replace). Anything
 * else is none of the hook's business.
 */

/**
 * @typedef {object} ToolCall
 * @property {"before" | "after"} when
 * @property {"read" | "write" | "edit"} tool `write` replaces the whole file; `edit` changes part of it
 * @property {string} eventName the agent's own name for the event (its answers must repeat it)
 * @property {string} toolName the agent's own name for the tool
 * @property {string} file the path the tool was given
 * @property {string} cwd where a relative path is resolved
 * @property {string} sessionId
 * @property {boolean} partialRead a read of part of the file (an offset or limit, or a read the tool cut short)
 * @property {string | null} writtenContent the whole text a `write` saved
 * @property {boolean} failed the tool reported an error (after the call)
 */

const EVENTS = /** @type {Record<string, "before" | "after">} */ ({
	PreToolUse: "before",
	BeforeTool: "before",
	PostToolUse: "after",
	AfterTool: "after",
});
const TOOLS = /** @type {Record<string, "read" | "write" | "edit">} */ ({
	Read: "read",
	read_file: "read",
	Write: "write",
	write_file: "write",
	Edit: "edit",
	MultiEdit: "edit",
	replace: "edit",
});

/**
 * @param {unknown} input the JSON the agent wrote to the hook's stdin
 * @param {string} fallbackCwd
 * @returns {ToolCall | null}
 */
export function toolCallOf(input, fallbackCwd) {
	if (!isRecord(input)) return null;
	const eventName = typeof input.hook_event_name === "string" ? input.hook_event_name : "";
	const when = Object.hasOwn(EVENTS, eventName) ? EVENTS[eventName] : undefined;
	const toolName = typeof input.tool_name === "string" ? input.tool_name : "";
	const tool = Object.hasOwn(TOOLS, toolName) ? TOOLS[toolName] : undefined;
	const toolInput = isRecord(input.tool_input) ? input.tool_input : {};
	const file = [toolInput.file_path, toolInput.absolute_path, toolInput.path].find(
		(value) => typeof value === "string" && value !== "",
	);
	if (!when || !tool || typeof file !== "string") return null;
	const response = isRecord(input.tool_response) ? input.tool_response : {};
	return {
		when,
		tool,
		eventName,
		toolName,
		file,
		cwd: typeof input.cwd === "string" && input.cwd !== "" ? input.cwd : fallbackCwd,
		sessionId: typeof input.session_id === "string" ? input.session_id : "",
		partialRead: tool === "read" && readPartOnly(toolInput, response),
		writtenContent: tool === "write" && typeof toolInput.content === "string" ? toolInput.content : null,
		failed: Boolean(response.error) || response.success === false,
	};
}

/**
 * Claude Code's Read answers with the lines it showed (`file.startLine`, `numLines`, `totalLines`; it stops at 2000
 * lines unless told otherwise). Without those numbers, an offset or a limit is taken as a read of part of the file.
 */
function readPartOnly(
	/** @type {Record<string, unknown>} */ toolInput,
	/** @type {Record<string, unknown>} */ response,
) {
	const file = isRecord(response.file) ? response.file : {};
	const { startLine, numLines, totalLines } = file;
	if (typeof numLines === "number" && typeof totalLines === "number")
		return numLines < totalLines || (typeof startLine === "number" && startLine > 1);
	return toolInput.offset !== undefined || toolInput.limit !== undefined;
}

/** @returns {value is Record<string, unknown>} */
function isRecord(/** @type {unknown} */ value) {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
