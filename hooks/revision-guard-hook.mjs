#!/usr/bin/env node
// @ts-check
/**
 * Revision Guard's hook for an agent's own file tools (docs/cli.md: "Guarding the agent's own file tools"). Claude Code
 * runs it before Write/Edit/MultiEdit and after Read/Write/Edit/MultiEdit; Gemini CLI before write_file/replace and
 * after read_file/write_file/replace. It refuses an edit of a vault note that changed since this agent session last
 * read (or wrote) it, with what changed, and an edit of a note the session never read.
 *
 * Input: the agent's hook JSON on stdin. Output: exit 2 with the reason on stderr refuses a call; a note for the
 * model after a tool ran is `hookSpecificOutput.additionalContext` on stdout; a warning for the person is
 * `systemMessage`. Plain Node (20 or later), no dependencies, no build step. Settings: lib/settings.mjs.
 */
import { stat } from "node:fs/promises";
import { afterChange, afterRead, ALLOW, beforeChange } from "./lib/guard.mjs";
import { toolCallOf } from "./lib/hook-call.mjs";
import { messages } from "./lib/messages.mjs";
import { openSessionReads, StateFolderError } from "./lib/session-reads.mjs";
import { readSettings } from "./lib/settings.mjs";
import { placeInVault, realVaultRoot } from "./lib/vault-path.mjs";

/** Each question to the host; the host is on this machine, so a slower answer means it is stuck. */
const HOST_TIMEOUT_MS = 5000;

/** @typedef {import("./lib/guard.mjs").Verdict} Verdict */
/** @typedef {import("./lib/hook-call.mjs").ToolCall} ToolCall */

async function main() {
	if (process.stdin.isTTY) {
		process.stderr.write(
			'This is a hook: the agent runs it with the tool call as JSON on stdin. See docs/cli.md, "Guarding the agent\'s own file tools".\n',
		);
		process.exitCode = 1;
		return;
	}
	const text = await readStdin();
	let input;
	try {
		input = /** @type {unknown} */ (JSON.parse(text));
	} catch {
		process.stderr.write(
			"Revision Guard's hook: stdin was not the JSON of a tool call, so there was nothing to check.\n",
		);
		process.exitCode = 1;
		return;
	}
	const call = toolCallOf(input, process.cwd());
	if (!call || (call.when === "before" && call.tool === "read") || (call.when === "after" && call.failed)) return;
	try {
		answer(call, await judge(call));
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		if (call.when === "before") answer(call, { kind: "block", message: messages.hookFailed(reason) });
		else {
			process.stderr.write(`Revision Guard's hook failed: ${reason}\n`);
			process.exitCode = 1;
		}
	}
}

/** @returns {Promise<Verdict>} */
async function judge(/** @type {ToolCall} */ call) {
	const settings = readSettings(process.env);
	const unset = (/** @type {string[]} */ problems) => misconfigured(call, problems);
	if (settings.vault === null) return unset([settings.vaultProblem ?? "RG_VAULT is not set."]);
	const root = await realVaultRoot(settings.vault).catch(() => null);
	if (root === null || !(await stat(root)).isDirectory())
		return unset([`RG_VAULT is not a folder that exists (it is "${settings.vault}").`]);
	const note = await placeInVault(call.file, call.cwd, root, settings.noteExtensions);
	// Files outside the vault, hidden ones and other types are never held up, whatever else is wrong.
	if (note.kind !== "note") return ALLOW;
	if (settings.api === null) return unset(settings.apiProblems);
	let reads;
	try {
		// One session's records, apart for each host and vault it might be pointed at.
		reads = await openSessionReads(settings.stateRoot, `${call.sessionId}\0${settings.api.url}\0${root}`);
	} catch (error) {
		if (!(error instanceof StateFolderError)) throw error;
		return unset([`${error.message}`]);
	}
	const context = {
		call,
		note,
		host: { ...settings.api, timeoutMs: HOST_TIMEOUT_MS },
		reads,
		whenDown: settings.whenDown,
	};
	if (call.when === "before") return beforeChange(context);
	return call.tool === "read" ? afterRead(context) : afterChange(context);
}

/** @returns {Verdict} */
function misconfigured(/** @type {ToolCall} */ call, /** @type {string[]} */ problems) {
	return call.when === "before"
		? { kind: "block", message: messages.misconfigured(problems, "refused") }
		: { kind: "tell", message: messages.misconfigured(problems, "unrecorded") };
}

function answer(/** @type {ToolCall} */ call, /** @type {Verdict} */ verdict) {
	if (verdict.kind === "block") {
		process.stderr.write(`${verdict.message}\n`);
		process.exitCode = 2;
	} else if (verdict.kind === "warn") {
		process.stdout.write(`${JSON.stringify({ systemMessage: verdict.message })}\n`);
	} else if (verdict.kind === "tell") {
		process.stdout.write(
			`${JSON.stringify({ hookSpecificOutput: { hookEventName: call.eventName, additionalContext: verdict.message } })}\n`,
		);
	}
}

async function readStdin() {
	const chunks = [];
	for await (const chunk of process.stdin) chunks.push(/** @type {Buffer} */ (chunk));
	return Buffer.concat(chunks).toString("utf8");
}

await main();
