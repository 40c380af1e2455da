/** The headless host's command line: serve a folder (serve.ts), or merge three files. */
import { parseArgs, USAGE } from "./args";
import { runMerge } from "./merge-command";
import { serve } from "./serve";

async function main(argv: string[]): Promise<void> {
	const args = parseArgs(argv);
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
		case "serve":
			return serve(args);
	}
}

main(process.argv.slice(2)).catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : String(error));
	process.exitCode = 1;
});
