/**
 * `npm start`: serve a folder. The order is the point: everything that can refuse a start (a missing folder, another
 * host on it, Obsidian's plugin on it, a busy port) is checked before anything is created, so a start that fails
 * leaves the folder as it was; then the folder's lock is taken, and only then is its state opened.
 */
import { stat } from "fs/promises";
import { join, resolve } from "path";
import type { ConflictReason } from "../core/conflicts";
import { holderRecord } from "../host/running-marker";
import { startHost } from "../host/start-host";
import type { RevisionGuard } from "../host/revision-guard";
import { makeFolderDurably } from "../vault/new-folders";
import { NodeStateStorage } from "../vault/node-state-storage";
import { recoverTempFiles } from "../vault/temp-recovery";
import type { ServeArgs } from "./args";
import { ensureDemoVault } from "./demo-vault";
import { openFolder, openFolderGuard, STATE_FOLDER } from "./folder-guard";
import { lockPath, pluginRefusal, serveRefusal, SETTINGS_LOCK, takeoverNote } from "./folder-holders";
import { peekLock, takeLock, takeLockWaiting, type HeldLock } from "./folder-lock";
import { loadHostSettings, peekBindAddress, saveHostSettings, SETTINGS_FILE } from "./host-settings";
import { followKeys } from "./key-reload";
import { holdPort, portInUse, type HeldPort } from "./port-hold";
import { pickSampleNote, welcomeText } from "./welcome";
import { scopeProblems } from "../service/scopes/key-scopes";
import { scopeRefusal } from "./scope-refusal";

export async function serve(args: ServeArgs): Promise<void> {
	const folder = resolve(args.vault);
	const exists = await folderProblem(folder, args);
	if (typeof exists === "string") return fail(exists, 2);
	if (exists) {
		const holder = await peekLock(lockPath(folder));
		if (holder !== null) return fail(serveRefusal(folder, holder));
		const obsidian = await pluginRefusal(folder, args.besideObsidian, (line) => console.warn(line));
		if (obsidian !== null) return fail(obsidian);
	}
	const bindAddress = exists ? await peekBindAddress(new NodeStateStorage(join(folder, STATE_FOLDER))) : "127.0.0.1";
	const port = await holdPort(args.port, bindAddress);
	if ("busy" in port) return fail(port.busy);
	try {
		await serveHeld(args, folder, exists, port.held);
	} finally {
		// Let go by the time the API listens; here only when the start failed before that.
		await port.held.release();
	}
}

async function serveHeld(args: ServeArgs, folder: string, exists: boolean, port: HeldPort): Promise<void> {
	if (args.demo && (await ensureDemoVault(folder))) say(`Created a demo vault in ${folder}`);
	else if (!exists) {
		// Durably: the notes agents write into it hang on its entry in its parent.
		await makeFolderDurably(folder);
		say(`Created ${folder}`);
	}
	const locked = await takeLock(lockPath(folder), holderRecord("headless", port.port));
	if ("refused" in locked) return fail(serveRefusal(folder, locked.refused));
	const lock = locked.held;
	// However the process ends (an error included), the lock goes with it; a crash leaves it to be taken over.
	process.on("exit", () => lock.releaseSync());
	if (lock.tookOver !== null) console.warn(takeoverNote(lock.tookOver, lock.path));
	try {
		if (!(await run(args, folder, port, lock))) await lock.release();
	} catch (error) {
		await lock.release();
		throw error;
	}
}

/** Opens the folder and serves it; false when it did not start (the reason was printed). */
async function run(args: ServeArgs, folder: string, port: HeldPort, lock: HeldLock): Promise<boolean> {
	const opened = await openFolder(folder);
	const { gateway, storage } = opened;
	const recovered = await recoverTempFiles(gateway.root, join(gateway.root, STATE_FOLDER, "recovered"));
	if (recovered.length > 0) {
		console.warn(
			`Found ${recovered.length} unfinished write(s) from an earlier crash; the notes themselves ` +
				`are whole. The partial files were moved, not deleted:`,
		);
		for (const path of recovered) console.warn(`  ${path}`);
	}
	// A keys command rewriting settings.json right now is waited for, so the first key made here cannot undo its change.
	const settingsLock = await takeLockWaiting(
		lockPath(folder, SETTINGS_LOCK),
		holderRecord("command", null, "settings"),
		5_000,
	);
	if ("refused" in settingsLock) {
		await gateway.close();
		fail(
			`${lockPath(folder, SETTINGS_LOCK)} is held, so settings.json could not be read safely. ` +
				`Try again in a moment; if it stays, delete that file.`,
		);
		return false;
	}
	const settings = await loadHostSettings(storage, args.apiKey, port.port).finally(() => settingsLock.held.release());
	const scopeProblem = scopeProblems(settings.keys)[0];
	if (scopeProblem !== undefined) {
		await gateway.close();
		fail(scopeRefusal(scopeProblem, join(gateway.root, STATE_FOLDER, SETTINGS_FILE)));
		return false;
	}
	const host = await startHost({
		settings: () => settings,
		saveSettings: () => saveHostSettings(storage, settings, args.apiKey),
		openGuard: () => openFolderGuard(opened, () => settings),
		opened: (guard) => {
			guard.conflicts.onChange((record) => {
				if (record.status !== "open" || record.resolvedAt !== undefined) return;
				const kept = record.backupPath ? `kept in ${record.backupPath}` : "could NOT be kept";
				if (record.source === "outside")
					say(
						`[${record.time}] another program saved ${record.path} without ${LOGGED[record.reason]}; that text is ${kept}`,
					);
				else
					say(
						`[${record.time}] refused ${LOGGED[record.reason]} to ${record.path} from ${record.agent}; ` +
							`its content is ${kept}`,
					);
			});
			announceProposals(guard, folder);
		},
		warn: (message) => console.warn(message),
		portInUse,
		beforeListen: () => port.release(),
		onError: (error) => console.error("request failed:", error),
	});
	const listening = host?.listener.port ?? null;
	if (!host || listening === null) {
		await host?.close();
		await gateway.close();
		process.exitCode = 1;
		return false;
	}
	const stopFollowing = followKeys(join(gateway.root, STATE_FOLDER, SETTINGS_FILE), settings, args.apiKey, {
		say,
		warn: (line) => console.warn(line),
	});
	// Handlers first: the welcome text says Ctrl+C stops the host, so it must be true once that text is out.
	let stopping = false;
	const stop = async (signal: string) => {
		if (stopping) return;
		stopping = true;
		say(`\n${signal}: stopping…`);
		stopFollowing();
		await host.close();
		await gateway.close();
		await lock.release();
		process.exit(0);
	};
	for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stop(signal));

	const sampleNote = pickSampleNote(await gateway.listNotes(settings.noteExtensions), settings.backupFolder);
	say(
		welcomeText({
			folder,
			port: listening,
			key: settings.keys[0]!.key,
			notes: host.reconcile.checked,
			changed: host.reconcile.changed,
			sampleNote,
		}),
	);
	return true;
}

/**
 * Says once when a proposal arrives (a move of its note announces nothing new), with the command that shows it.
 * Deciding takes the folder's lock, so the line says the host must be stopped first.
 */
function announceProposals(guard: RevisionGuard, folder: string): void {
	const announced = new Set<string>();
	guard.notes.proposals.onChange((record) => {
		if (record.status !== "pending") {
			announced.delete(record.id);
			return;
		}
		if (announced.has(record.id)) return;
		announced.add(record.id);
		say(
			`[${record.time}] ${record.agent} proposed a change to ${record.path}; it waits for you (kept in ${record.backupPath}). ` +
				`See it with: npm start --silent -- proposals show ${record.id} --vault ${shellWord(folder)} ` +
				`(accept or reject it once this host is stopped)`,
		);
	});
}

/** The folder as one shell word: bare when it is plain, else single-quoted. */
function shellWord(text: string): string {
	return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** How the log names each conflict: the write refused, or (a save made outside) what the save went without. */
const LOGGED: Record<ConflictReason, string> = {
	stale: "a stale write",
	exists: "a write over an existing note",
	"read-expired": "a write based on an expired read",
	"content-loss": "a write that would have erased most of the note",
	"note-in-use": "a write to a note being edited",
	"outside-save": "the changes saved before it",
	"outside-over-typing": "the typing in the open editor",
};

/**
 * Whether `folder` exists (true), may be created (false: the demo vault, or --create), or why it cannot be served
 * (missing without --create, or a file). Nothing is created here: that waits until the port is held.
 */
async function folderProblem(folder: string, args: ServeArgs): Promise<boolean | string> {
	const stats = await stat(folder).catch(() => null);
	if (stats === null) {
		if (args.demo || args.create) return false;
		return (
			`The folder ${folder} does not exist, so nothing was served. Check the path, or add ` +
			`--create to start a new vault there.`
		);
	}
	return stats.isDirectory()
		? true
		: `${folder} is a file, not a folder. Give --vault the folder that holds your notes.`;
}

function fail(message: string, code = 1): void {
	console.error(message);
	process.exitCode = code;
}

/** The host's own output, on stdout (its UI; Obsidian's linters reserve console.log for debugging). */
function say(text: string): void {
	process.stdout.write(`${text}\n`);
}
