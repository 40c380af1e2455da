/**
 * Some suites need what a fresh clone may lack: the shared merge corpus beside the clone (`../shared`), Debian's
 * Chromium. Without it they skip, saying why, so `npm test` passes for a contributor who has just cloned the project;
 * under CI they run anyway and fail on what is missing, so they can never stop running there unnoticed.
 */

/** Whether this is a CI run: `CI` set to anything but "", "0" or "false" (CI services set it; so does .ci/run). */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
	const ci = env.CI?.trim().toLowerCase();
	return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false";
}

/**
 * The note to skip a suite with, given why its prerequisite is missing (`missing`, null when it is there): null, so
 * the suite runs, when nothing is missing, and also under CI, where the suite then fails on what is missing.
 */
export function skipNote(missing: string | null, env: NodeJS.ProcessEnv = process.env): string | null {
	if (missing === null || inCi(env)) return null;
	return `${missing}; skipped outside CI (under CI=true this fails)`;
}
