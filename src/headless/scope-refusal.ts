/** What the headless host says when a key's scope lists in settings.json are malformed: it does not start. */
import type { ScopeProblem } from "../core/key-scope";

export function scopeRefusal(problem: ScopeProblem, settingsPath: string): string {
	const example = problem.field === "propose" ? '"propose": ["Drafts/**"]' : `"${problem.field}": ["Projects/**"]`;
	return (
		`${settingsPath}: ${problem.message}\n` +
		(`The host did not start, so no key was served with limits other than the ones you ` +
			`wrote. Fix the "${problem.field}" field of the key "${problem.key}" `) +
		`(a list of globs, for example ${example}; leave the field out for its default), then start again.`
	);
}
