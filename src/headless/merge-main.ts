/**
 * revision-guard-merge (dist/merge.js): the merge command as a program of its own. It loads the merge engine and
 * nothing else (no server, no MCP SDK; test/headless/merge-main.test.ts checks the import graph), so it starts
 * like a small tool and can stand in for `git merge-file -p`.
 */
import { MERGE_USAGE, parseMergeArgs } from "./args";
import { MERGE_ERROR_EXIT, MERGE_USAGE_EXIT, runMerge } from "./merge-command";

async function main(argv: readonly string[]): Promise<number> {
	const args = parseMergeArgs(argv);
	if (args.command === "help") {
		process.stdout.write(`${MERGE_USAGE}\n`);
		return 0;
	}
	if (args.command === "error") {
		process.stderr.write(`${args.message}\n\n${MERGE_USAGE}\n`);
		return MERGE_USAGE_EXIT;
	}
	return runMerge(
		args,
		(text) => process.stdout.write(text),
		(text) => process.stderr.write(text),
	);
}

main(process.argv.slice(2)).then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		process.stderr.write(`merge: ${error instanceof Error ? error.message : String(error)}\n`);
		process.exitCode = MERGE_ERROR_EXIT;
	},
);
