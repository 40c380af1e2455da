/** Arguments of the folder commands (`keys`, `conflicts`): words, then `--flag value` or `--flag=value` options. */
import { stat } from "fs/promises";
import { resolve } from "path";

export interface CommandArgs {
	words: string[];
	options: Map<string, string | true>;
}

/** Splits `argv`; `valued` options take a value, `switches` take none; anything else is an error sentence. */
export function splitCommandArgs(
	argv: readonly string[],
	valued: readonly string[],
	switches: readonly string[] = [],
): CommandArgs | string {
	const words: string[] = [];
	const options = new Map<string, string | true>();
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (!arg.startsWith("--")) {
			words.push(arg);
			continue;
		}
		const equals = arg.indexOf("=");
		const flag = equals === -1 ? arg : arg.slice(0, equals);
		if (switches.includes(flag)) {
			if (equals !== -1) return `${flag} takes no value.`;
			options.set(flag, true);
		} else if (valued.includes(flag)) {
			const value = equals === -1 ? argv[++i] : arg.slice(equals + 1);
			if (value === undefined || value === "") return `${flag} needs a value.`;
			options.set(flag, value);
		} else {
			return `Unknown option "${flag}".`;
		}
	}
	return { words, options };
}

/** The folder a command works on: --vault, else ./demo-vault (as `npm start` serves by default). */
export function vaultOption(args: CommandArgs): string {
	const vault = args.options.get("--vault");
	return typeof vault === "string" ? vault : "demo-vault";
}

/** The folder a command works on, resolved; or why it cannot (a command never creates the folder). */
export async function commandFolder(vault: string): Promise<{ folder: string } | { problem: string }> {
	const folder = resolve(vault);
	const stats = await stat(folder).catch(() => null);
	if (stats === null)
		return { problem: `The folder ${folder} does not exist. Give --vault the folder the host serves.` };
	if (!stats.isDirectory())
		return { problem: `${folder} is a file, not a folder. Give --vault the folder the host serves.` };
	return { folder };
}
