/**
 * The Local REST API's `glob` operator: a pattern translated to a regular expression exactly as `glob-to-regexp`
 * 0.4 translates it by default (the library the Local REST API calls), then run by the search's own linear-time
 * matcher. So `*` is any run of characters except line breaks, the whole value must match, `?`, `[`, `]`, `{`, `}`
 * and `,` are plain characters, and a backslash passes through to the regular expression as it does there.
 */
import { compileRegExp, MAX_PATTERN_LENGTH, UnsupportedPattern, type CompiledRegExp } from "./regexp-machine";

const ESCAPED = new Set(["/", "$", "^", "+", ".", "(", ")", "=", "!", "|", "?", "[", "]", "{", "}", ","]);

export function globSource(glob: string): string {
	let source = "";
	for (let at = 0; at < glob.length; at++) {
		const char = glob[at]!;
		if (char === "*") {
			// Any run of stars is one.
			while (glob[at + 1] === "*") at++;
			source += ".*";
		} else source += ESCAPED.has(char) ? "\\" + char : char;
	}
	return `^${source}$`;
}

export function compileGlob(glob: string): CompiledRegExp {
	// The translation at most doubles the pattern; the glob itself is held to the regular expression's bound.
	if (glob.length > MAX_PATTERN_LENGTH)
		throw new UnsupportedPattern(`it is longer than ${MAX_PATTERN_LENGTH} characters`);
	return compileRegExp(globSource(glob), 2 * MAX_PATTERN_LENGTH + 2);
}
