// @ts-check
/**
 * The hook's settings, from environment variables (the agent passes its environment to its hooks):
 *   RG                  the API's address, e.g. http://127.0.0.1:27125 (the line `npm start` prints)
 *   RG_KEY              an agent key of that vault
 *   RG_VAULT            the vault folder, so a file path maps to a note path
 *   RG_NOTE_EXTENSIONS  the note types the host serves (default `md`; comma-separated, as in its settings)
 *   RG_HOOK_WHEN_DOWN   `block` (default) or `allow`: what to do with an edit the host is not there to check
 *   RG_HOOK_STATE_DIR   where sessions' reads are kept (default: a private folder under the OS temp folder)
 * Each problem is named with the variable to fix.
 */
import { defaultStateRoot } from "./session-reads.mjs";

/**
 * @typedef {object} HookSettings
 * @property {string | null} vault the vault folder as given, or null with `vaultProblem` saying why
 * @property {string | null} vaultProblem
 * @property {{ url: string, key: string } | null} api
 * @property {string[]} apiProblems what stands between the hook and the API (variables missing or malformed)
 * @property {readonly string[]} noteExtensions
 * @property {"block" | "allow"} whenDown
 * @property {string} stateRoot
 */

/** @param {NodeJS.ProcessEnv} env @returns {HookSettings} */
export function readSettings(env) {
	const vault = env.RG_VAULT?.trim() ?? "";
	const url = env.RG?.trim().replace(/\/+$/, "") ?? "";
	const key = env.RG_KEY?.trim() ?? "";
	const whenDown = env.RG_HOOK_WHEN_DOWN?.trim().toLowerCase() || "block";
	const apiProblems = [];
	if (url === "") apiProblems.push("RG is not set (the API's address, e.g. RG=http://127.0.0.1:27125).");
	else if (!isHttpUrl(url)) apiProblems.push(`RG is not an http:// address (it is "${url}").`);
	if (key === "") apiProblems.push("RG_KEY is not set (an agent key of the vault).");
	if (whenDown !== "block" && whenDown !== "allow")
		apiProblems.push(`RG_HOOK_WHEN_DOWN must be "block" or "allow" (it is "${whenDown}").`);
	const extensions = (env.RG_NOTE_EXTENSIONS ?? "md")
		.split(",")
		.map((extension) => extension.trim().replace(/^\./, "").toLowerCase())
		.filter((extension) => extension !== "");
	return {
		vault: vault === "" ? null : vault,
		vaultProblem:
			vault === "" ? "RG_VAULT is not set (the vault folder, so the hook knows which files are notes)." : null,
		api: apiProblems.length === 0 ? { url, key } : null,
		apiProblems,
		noteExtensions: extensions.length > 0 ? extensions : ["md"],
		whenDown: whenDown === "allow" ? "allow" : "block",
		stateRoot: env.RG_HOOK_STATE_DIR?.trim() || defaultStateRoot(),
	};
}

function isHttpUrl(/** @type {string} */ text) {
	try {
		const { protocol } = new URL(text);
		return protocol === "http:" || protocol === "https:";
	} catch {
		return false;
	}
}
