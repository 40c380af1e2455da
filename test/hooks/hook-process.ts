/**
 * Runs hooks/revision-guard-hook.mjs as an agent runs it: a new Node process, the tool call as JSON on stdin, the
 * settings in its environment (and none of the test runner's own RG variables). Builders make the JSON Claude Code
 * and Gemini CLI send.
 */
import { spawn } from "child_process";
import { join } from "path";

export const HOOK = join(__dirname, "../../hooks/revision-guard-hook.mjs");

export interface HookRun {
	code: number | null;
	stdout: string;
	stderr: string;
	/** stdout parsed, when the hook wrote JSON there. */
	json: Record<string, unknown> | null;
	/** What the model is told after a tool ran (hookSpecificOutput.additionalContext), if anything. */
	context: string | null;
}

export type HookEnv = Record<string, string | undefined>;

/** The test runner's environment without any RG setting: each test gives the hook exactly its own. */
function cleanEnv(): NodeJS.ProcessEnv {
	return Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "RG" && !name.startsWith("RG_")));
}

export function runHook(input: unknown, env: HookEnv): Promise<HookRun> {
	const child = spawn(process.execPath, [HOOK], { env: { ...cleanEnv(), ...env }, stdio: ["pipe", "pipe", "pipe"] });
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
	child.stdin.end(typeof input === "string" ? input : JSON.stringify(input));
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) => {
			let json: Record<string, unknown> | null = null;
			try {
				json = stdout.trim() === "" ? null : (JSON.parse(stdout) as Record<string, unknown>);
			} catch {
				json = null;
			}
			const specific = json?.hookSpecificOutput as { additionalContext?: string } | undefined;
			resolve({ code, stdout, stderr, json, context: specific?.additionalContext ?? null });
		});
	});
}

export interface CallOptions {
	session?: string;
	cwd?: string;
	toolInput?: Record<string, unknown>;
	toolResponse?: Record<string, unknown>;
}

/** What Claude Code sends: PreToolUse or PostToolUse for Read, Write, Edit or MultiEdit. */
export function claudeCall(
	event: "PreToolUse" | "PostToolUse",
	tool: string,
	file: string,
	options: CallOptions = {},
): Record<string, unknown> {
	return {
		session_id: options.session ?? "session-1",
		transcript_path: "/nowhere/transcript.jsonl",
		cwd: options.cwd ?? "/",
		permission_mode: "default",
		hook_event_name: event,
		tool_name: tool,
		tool_input: { file_path: file, ...options.toolInput },
		...(event === "PostToolUse" ? { tool_response: options.toolResponse ?? {} } : {}),
		tool_use_id: "toolu_test",
	};
}

/** What Gemini CLI sends: BeforeTool or AfterTool for read_file, write_file or replace. */
export function geminiCall(
	event: "BeforeTool" | "AfterTool",
	tool: string,
	file: string,
	options: CallOptions = {},
): Record<string, unknown> {
	return {
		session_id: options.session ?? "gemini-session-1",
		transcript_path: "/nowhere/transcript.json",
		cwd: options.cwd ?? "/",
		hook_event_name: event,
		timestamp: "2026-01-01T00:00:00.000Z",
		tool_name: tool,
		tool_input: { file_path: file, ...options.toolInput },
		...(event === "AfterTool" ? { tool_response: options.toolResponse ?? { llmContent: "", returnDisplay: "" } } : {}),
	};
}
