/**
 * One host per folder: the headless host's lock (`.revision-guard/host.lock`) and the plugin's marker, and the words
 * for a person when either stops a start. Two hosts on one folder each keep their own copy of the conflict records
 * and history and write them over each other's, so a refused write's record could vanish.
 */
import { join } from "path";
import { describeHolder, type HolderRecord } from "../host/running-marker";
import { BESIDE_OBSIDIAN_FLAG } from "./args";
import type { LockAttempt } from "./folder-lock";
import { livenessOf } from "./holder-liveness";
import { findPluginMarkers } from "./obsidian-markers";
import { STATE_FOLDER } from "./folder-guard";

/** The lock a headless host (or a command that changes the folder's records) holds while it runs. */
export const HOST_LOCK = `${STATE_FOLDER}/host.lock`;
/** Held for a moment by whoever rewrites settings.json (a keys command, or a host making its first key). */
export const SETTINGS_LOCK = `${STATE_FOLDER}/settings.lock`;

export const lockPath = (folder: string, lock = HOST_LOCK) => join(folder, lock);

type Refused = Extract<LockAttempt, { refused: unknown }>["refused"];

/** Who holds the folder, in words: "a Revision Guard host (pid 1234 on this machine, started …, port 27125)". */
export function holderWords({ holder }: Refused): string {
	if (holder === null) return "a Revision Guard process";
	const what =
		holder.kind === "command"
			? `the Revision Guard command "${holder.command ?? "?"}"`
			: holder.kind === "obsidian"
				? "Obsidian's Revision Guard"
				: "a Revision Guard host";
	return `${what} (${describeHolder(holder)})`;
}

/** Why a host did not start on `folder`, and what to do. */
export function serveRefusal(folder: string, refused: Refused): string {
	const lock = lockPath(folder);
	if (refused.liveness === "unreadable") {
		return (
			`${lock} exists but cannot be read (another host may be writing it this instant), ` +
			`so nothing was served. Try again in a moment; if it stays, and no Revision Guard host serves ${folder}, ` +
			`delete that file.`
		);
	}
	if (refused.holder?.kind === "command")
		return `${holderWords(refused)} is changing the records of ${folder}; nothing was served. Try again in a moment.`;
	const stop =
		refused.liveness === "elsewhere"
			? `A process on another machine cannot be checked from here: if it no longer runs there, delete ${lock} ` +
				`and start again.`
			: `Use that host (the key it printed is in ${join(folder, STATE_FOLDER, "settings.json")}), ` +
				`or stop it (Ctrl+C in its terminal, or kill ${refused.holder?.pid ?? "it"}) and start again.`;
	return (
		`${capitalized(holderWords(refused))} is already serving ${folder}, so this host ` +
		`did not start: two hosts on one folder overwrite each other's conflict records and history. ${stop}`
	);
}

/**
 * Whether the Obsidian plugin runs on `folder`: null when it does not (or `beside` allows it), else the refusal.
 * A marker left by a plugin that is no longer running (Obsidian crashed) is reported through `note` and ignored.
 */
export async function pluginRefusal(
	folder: string,
	beside: boolean,
	note: (line: string) => void,
): Promise<string | null> {
	for (const { path, holder } of await findPluginMarkers(folder)) {
		const liveness = holder === null ? "unreadable" : livenessOf(holder);
		if (liveness === "gone") {
			note(`Ignoring ${path}: the Obsidian process that wrote it (${describeHolder(holder!)}) is no longer running.`);
			continue;
		}
		const who =
			holder === null
				? `Obsidian's Revision Guard may be running on this vault (${path} exists but cannot be read)`
				: `Obsidian's Revision Guard is running on this vault (${describeHolder(holder)}; its marker is ${path})`;
		if (beside) {
			note(
				`${who}; serving beside it, as ${BESIDE_OBSIDIAN_FLAG} asks. Prefer the plugin's own API while Obsidian is open.`,
			);
			continue;
		}
		const stale =
			liveness === "elsewhere" || holder === null
				? ` If Obsidian no longer has this vault open there, delete ${join(folder, path)}.`
				: "";
		return `${who}, so the headless host did not start.
Serving a vault from both is dangerous: this host cannot see what you type in Obsidian until Obsidian saves it, so an agent's write through it can be overwritten by Obsidian's autosave or overwrite typing not yet saved, and each host keeps its own conflict records and history. Give agents the plugin's API instead (its port and keys are in Obsidian's settings for Revision Guard).${stale}
To serve it anyway, start again with ${BESIDE_OBSIDIAN_FLAG}.`;
	}
	return null;
}

/** The line a host prints when it took over a lock whose holder had died. */
export function takeoverNote(tookOver: HolderRecord | "unreadable", lock: string): string {
	if (tookOver === "unreadable")
		return `Took over ${lock}: it could not be read and had not changed for a while (left by a crash).`;
	return (
		`Took over ${lock} from ${tookOver.kind === "command" ? `the command "${tookOver.command ?? "?"}"` : "a host"} ` +
		`that is no longer running (${describeHolder(tookOver)}).`
	);
}

export function capitalized(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
