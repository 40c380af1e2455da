/** GET / (service status, open to all) and GET /problems/{name} (what each error means). */
import { lraFields, problem, PROBLEM_TYPES, type ProblemName } from "../problems";
import { json, type ApiResponse } from "../response";
import type { RequestContext } from "../router";

export const SERVICE_NAME = "Revision Guard";
declare const __VERSION__: string | undefined;
const VERSION = typeof __VERSION__ === "string" ? __VERSION__ : "dev";

/**
 * What Local REST API clients read from `GET /` (status, versions.obsidian, versions.self, authenticated, manifest),
 * beside our own fields. `service` says which server answers, Revision Guard, and `apiCompatibility` what it speaks:
 * a client that checks for "Obsidian Local REST API" by name is told the truth rather than fooled.
 */
export async function serviceStatus(context: RequestContext): Promise<ApiResponse> {
	return json(200, {
		status: "OK",
		service: SERVICE_NAME,
		apiCompatibility: "Obsidian Local REST API 5.1",
		// Obsidian's own version inside Obsidian, as the Local REST API reports it; a headless host runs without one.
		versions: { obsidian: context.notes.appVersion ?? "headless", self: VERSION },
		manifest: { id: "revision-guard", name: SERVICE_NAME, version: VERSION },
		vault: context.notes.vaultName,
		authenticated: context.agent !== null,
		...(context.agent ? { agent: context.agent.name } : {}),
	});
}

export async function describeProblem(context: RequestContext): Promise<ApiResponse> {
	const name = context.rest as ProblemName;
	const type = Object.prototype.hasOwnProperty.call(PROBLEM_TYPES, name) ? PROBLEM_TYPES[name] : undefined;
	if (!type) return problem("route-not-found", `There is no problem type "${context.rest}".`);
	return json(200, { type: `/problems/${name}`, ...type, errorCode: lraFields(name, "").errorCode });
}
