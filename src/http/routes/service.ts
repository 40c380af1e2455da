/** GET / (service status, open to all) and GET /problems/{name} (what each error means). */
import { PROBLEM_TYPES, type ProblemName } from "../problems";
import { json, type ApiResponse } from "../response";
import type { RequestContext } from "../router";
import { problem } from "../problems";

export const SERVICE_NAME = "Revision Guard";
declare const __VERSION__: string | undefined;
const VERSION = typeof __VERSION__ === "string" ? __VERSION__ : "dev";

export async function serviceStatus(context: RequestContext): Promise<ApiResponse> {
	return json(200, {
		status: "OK",
		service: SERVICE_NAME,
		versions: { self: VERSION },
		vault: context.notes.vaultName,
		authenticated: context.agent !== null,
		...(context.agent ? { agent: context.agent.name } : {}),
	});
}

export async function describeProblem(context: RequestContext): Promise<ApiResponse> {
	const name = context.rest as ProblemName;
	const type = Object.prototype.hasOwnProperty.call(PROBLEM_TYPES, name) ? PROBLEM_TYPES[name] : undefined;
	if (!type) return problem("route-not-found", `There is no problem type "${context.rest}".`);
	return json(200, { type: `/problems/${name}`, ...type });
}
