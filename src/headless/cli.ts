/** The headless host's command line: serve a folder (serve.ts), or one of its commands, each in its own file. */
import { parseArgs, USAGE } from "./args";
import { parseConflictsArgs, runConflicts } from "./conflicts-command";
import { parseKeysArgs, runKeys } from "./keys-command";
import { parseProposalsArgs } from "./proposals-args";
import { runProposals } from "./proposals-command";
import { runMerge } from "./merge-command";
import { serve } from "./serve";

/** The folder commands parse their own words; everything else (serve, merge, help) is args.ts's. */
function parse(argv: string[]) {
	if (argv[0] !== "keys" && argv[0] !== "conflicts" && argv[0] !== "proposals") return parseArgs(argv);
	if (argv.includes("--help") || argv.includes("-h")) return { command: "help" as const };
	if (argv[0] === "proposals") return parseProposalsArgs(argv.slice(1));
	return argv[0] === "keys" ? parseKeysArgs(argv.slice(1)) : parseConflictsArgs(argv.slice(1));
}

async function main(argv: string[]): Promise<void> {
	const args = parse(argv);
	const out = (text: string) => void process.stdout.write(text);
	const err = (text: string) => void process.stderr.write(text);
	switch (args.command) {
		case "help":
			return out(`${USAGE}\n`);
		case "error":
			err(`${args.message}\n\n${USAGE}\n`);
			process.exitCode = 2;
			return;
		case "merge":
			process.exitCode = await runMerge(args, out, err);
			return;
		case "keys":
			process.exitCode = await runKeys(args, out, err);
			return;
		case "conflicts":
			process.exitCode = await runConflicts(args, out, err);
			return;
		case "proposals":
			process.exitCode = await runProposals(args, out, err);
			return;
		case "serve":
			return serve(args);
	}
}

main(process.argv.slice(2)).catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : String(error));
	process.exitCode = 1;
});
