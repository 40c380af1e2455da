/** Command-line arguments of the headless host. */
import { DEFAULT_PORT } from "../settings";

/** The flag that lets the headless host serve a vault the Obsidian plugin serves too (see folder-holders.ts). */
export const BESIDE_OBSIDIAN_FLAG = "--beside-obsidian";

export interface ServeArgs {
	command: "serve";
	vault: string;
	port: number;
	apiKey: string | null;
	/** True when --vault was not given: serve (and if needed create) the demo vault. */
	demo: boolean;
	/** --create: a --vault folder that does not exist may be created (otherwise a typo would serve an empty vault). */
	create: boolean;
	/** --beside-obsidian: serve even though Obsidian's Revision Guard runs on the folder (see folder-holders.ts). */
	besideObsidian: boolean;
}

export interface HelpArgs {
	command: "help";
}

export interface MergeArgs {
	command: "merge";
	mine: string;
	base: string;
	theirs: string;
	diff3: boolean;
}

export type CliArgs = ServeArgs | MergeArgs | HelpArgs | { command: "error"; message: string };

/** The merge program's help (dist/merge.js, installed as revision-guard-merge). */
export const MERGE_USAGE = `Usage: revision-guard-merge MINE BASE THEIRS [--diff3]
  Three-way merge of three files, printed to stdout, like git merge-file -p. The exit code is the number of
  conflicts (0 = clean, at most 127), 255 when a file cannot be read or is not UTF-8, 129 for wrong arguments.
  --diff3   show the base between the two sides of each conflict`;

export const USAGE = `Usage:
  npm start                                  serve ./demo-vault (created with a few notes if missing)
  npm start -- --vault DIR [--create] [--port N] [--api-key KEY] [${BESIDE_OBSIDIAN_FLAG}]
                                             serve any folder; external edits are tracked live
Options:
  --vault DIR     folder to serve (default ./demo-vault); it must exist, unless --create is given
  --create        create the --vault folder if it does not exist
  --port N        port on 127.0.0.1 (default ${DEFAULT_PORT}; 0 picks a free one)
  --api-key KEY   accept this key (default: a key generated once and kept in DIR/.revision-guard/settings.json)
  ${BESIDE_OBSIDIAN_FLAG}
                  serve a vault that Obsidian's Revision Guard serves too. Dangerous: this host cannot see
                  typing Obsidian has not saved yet, and the two keep separate conflict records
  --help          this text
One host serves a folder at a time: a second one refuses, naming the first (its pid, start and port).

  npm start --silent -- keys list [--vault DIR]
  npm start --silent -- keys add NAME [--vault DIR]
  npm start --silent -- keys revoke NAME [--vault DIR]
                  the folder's agent keys: list their names, add one (its key is printed once), revoke one.
                  A host serving the folder takes the change within a second

  npm start --silent -- conflicts list [--status open|resolved|dismissed] [--json] [--vault DIR]
  npm start --silent -- conflicts dismiss ID [--vault DIR]
                  the folder's refused writes; dismiss keeps the record (status dismissed) and its .bak note.
                  dismiss refuses while a host serves the folder: stop the host first

  npm start --silent -- proposals list [--status pending|accepted|accepted-with-edits|rejected] [--json] [--vault DIR]
  npm start --silent -- proposals show ID [--json] [--vault DIR]
  npm start --silent -- proposals accept ID [--text FILE [--against REVISION]] [--note TEXT] [--vault DIR]
  npm start --silent -- proposals reject ID [--note TEXT] [--vault DIR]
                  changes agents may only propose: list them, show one against the note now, accept it (as sent,
                  or FILE's text instead) or reject it with a note to the agent. A note that changed since the
                  proposal is never overwritten: accept prints the three-way merge to settle. accept and reject
                  refuse while a host serves the folder: stop the host first

  npm start --silent -- merge MINE BASE THEIRS [--diff3]
                  three-way merge of three files, printed to stdout; the exit code is the number of
                  conflicts (0 = clean), like git merge-file -p. revision-guard-merge (node dist/merge.js)
                  takes the same arguments and starts without building or loading the host`;

export function parseArgs(argv: readonly string[]): CliArgs {
	if (argv[0] === "merge") return parseMergeArgs(argv.slice(1));
	const result: ServeArgs = {
		command: "serve",
		vault: "demo-vault",
		port: DEFAULT_PORT,
		apiKey: null,
		demo: true,
		create: false,
		besideObsidian: false,
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		const [flag, inline] = arg.includes("=")
			? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
			: [arg, undefined];
		const value = () => inline ?? argv[++i];
		switch (flag) {
			case "--help":
			case "-h":
				return { command: "help" };
			case "--vault": {
				const vault = value();
				if (!vault) return { command: "error", message: "--vault needs a folder." };
				result.vault = vault;
				result.demo = false;
				break;
			}
			case "--create":
				if (inline !== undefined) return { command: "error", message: "--create takes no value." };
				result.create = true;
				break;
			case BESIDE_OBSIDIAN_FLAG:
				if (inline !== undefined) return { command: "error", message: `${BESIDE_OBSIDIAN_FLAG} takes no value.` };
				result.besideObsidian = true;
				break;
			case "--port": {
				// Digits only: Number("") is 0 (a random port), and "0x50" or "1e3" are not what anyone types for a port.
				const raw = value();
				const port = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
				if (!Number.isInteger(port) || port < 0 || port > 65535)
					return { command: "error", message: "--port needs a number from 0 to 65535." };
				result.port = port;
				break;
			}
			case "--api-key": {
				const key = value();
				if (!key || key.length < 16)
					return { command: "error", message: "--api-key needs a key of at least 16 characters." };
				result.apiKey = key;
				break;
			}
			default:
				return { command: "error", message: `Unknown argument "${arg}".` };
		}
	}
	return result;
}

/** `merge`'s own arguments (after the word `merge`, or all of them for the revision-guard-merge program). */
export function parseMergeArgs(argv: readonly string[]): MergeArgs | HelpArgs | { command: "error"; message: string } {
	if (argv.includes("--help") || argv.includes("-h")) return { command: "help" };
	const files = argv.filter((arg) => arg !== "--diff3");
	const unknown = files.find((arg) => arg.startsWith("--"));
	if (unknown) return { command: "error", message: `Unknown merge option "${unknown}".` };
	if (files.length !== 3) return { command: "error", message: "merge needs three files: MINE BASE THEIRS." };
	const [mine, base, theirs] = files as [string, string, string];
	return { command: "merge", mine, base, theirs, diff3: argv.includes("--diff3") };
}
