/** The headless host: serves a plain folder with the same guarded API as the plugin, no Obsidian needed. */
import { mkdir, stat } from "fs/promises";
import { join, resolve } from "path";
import type { ConflictReason } from "../core/conflicts";
import { startHost } from "../host/start-host";
import { recoverTempFiles } from "../vault/temp-recovery";
import { parseArgs, USAGE, type ServeArgs } from "./args";
import { ensureDemoVault } from "./demo-vault";
import { openFolder, openFolderGuard, STATE_FOLDER } from "./folder-guard";
import { runMerge } from "./merge-command";
import { loadHostSettings, saveHostSettings } from "./host-settings";
import { pickSampleNote, welcomeText } from "./welcome";

async function serve(args: ServeArgs): Promise<void> {
	const folder = resolve(args.vault);
	if (args.demo && (await ensureDemoVault(folder))) say(`Created a demo vault in ${folder}`);
	if (!args.demo) {
		const problem = await vaultFolderProblem(folder, args.create);
		if (problem !== null) {
			console.error(problem);
			process.exitCode = 2;
			return;
		}
	}
	const opened = await openFolder(folder);
	const { gateway, storage } = opened;
	const recovered = await recoverTempFiles(gateway.root, join(gateway.root, STATE_FOLDER, "recovered"));
	if (recovered.length > 0) {
		console.warn(`Found ${recovered.length} unfinished write(s) from an earlier crash; the notes themselves are whole. The partial files were moved, not deleted:`);
		for (const path of recovered) console.warn(`  ${path}`);
	}
	const settings = await loadHostSettings(storage, args.apiKey, args.port);
	const host = await startHost({
		settings: () => settings,
		saveSettings: () => saveHostSettings(storage, settings, args.apiKey),
		openGuard: () => openFolderGuard(opened, () => settings),
		opened: (guard) =>
			guard.conflicts.onChange((record) => {
				if (record.status !== "open") return;
				const kept = record.backupPath ? `kept in ${record.backupPath}` : "could NOT be kept";
				say(`[${record.time}] refused ${REFUSALS[record.reason]} to ${record.path} from ${record.agent}; its content is ${kept}`);
			}),
		warn: (message) => console.warn(message),
		portInUse: (port) => `Port ${port} is in use; pick another with --port N.`,
		onError: (error) => console.error("request failed:", error),
	});
	const port = host?.listener.port ?? null;
	if (!host || port === null) {
		await host?.close();
		await gateway.close();
		process.exitCode = 1;
		return;
	}
	const report = host.reconcile;
	// Handlers first: the welcome text says Ctrl+C stops the host, so it must be true once that text is out.
	let stopping = false;
	const stop = async (signal: string) => {
		if (stopping) return;
		stopping = true;
		say(`\n${signal}: stopping…`);
		await host.close();
		await gateway.close();
		process.exit(0);
	};
	process.on("SIGINT", () => void stop("SIGINT"));
	process.on("SIGTERM", () => void stop("SIGTERM"));

	const sampleNote = pickSampleNote(await gateway.listNotes(settings.noteExtensions), settings.backupFolder);
	say(welcomeText({ folder, port, key: settings.keys[0]!.key, notes: report.checked, changed: report.changed, sampleNote }));
}

/** How the log names each kind of refused write. */
const REFUSALS: Record<ConflictReason, string> = {
	stale: "a stale write",
	exists: "a write over an existing note",
	"read-expired": "a write based on an expired read",
	"content-loss": "a write that would have erased most of the note",
	"note-in-use": "a write to a note being edited",
};

/** Why `folder` cannot be served (null when it can): missing without --create, or not a folder at all. */
async function vaultFolderProblem(folder: string, create: boolean): Promise<string | null> {
	const stats = await stat(folder).catch(() => null);
	if (stats === null) {
		if (!create) return `The folder ${folder} does not exist, so nothing was served. Check the path, or add --create to start a new vault there.`;
		await mkdir(folder, { recursive: true });
		say(`Created ${folder}`);
		return null;
	}
	return stats.isDirectory() ? null : `${folder} is a file, not a folder. Give --vault the folder that holds your notes.`;
}

async function main(argv: string[]): Promise<void> {
	const args = parseArgs(argv);
	if (args.command === "help") return say(USAGE);
	if (args.command === "error") {
		console.error(`${args.message}\n\n${USAGE}`);
		process.exitCode = 2;
		return;
	}
	if (args.command === "merge") {
		process.exitCode = await runMerge(args, (text) => process.stdout.write(text), (text) => process.stderr.write(text));
		return;
	}
	await serve(args);
}

main(process.argv.slice(2)).catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : String(error));
	process.exitCode = 1;
});

/** The host's own output, on stdout (its UI; Obsidian's linters reserve console.log for debugging). */
function say(text: string): void {
	process.stdout.write(`${text}\n`);
}
