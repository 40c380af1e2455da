/**
 * `proposals list|show|accept|reject`: the person's side of proposals on a folder, without the plugin.
 *
 * `list` and `show` only read (the journal's log before its snapshot, the .bak and the note), so they work beside a
 * running host. `accept` and `reject` change the proposal journal, and `accept` writes the note: like
 * `conflicts dismiss`, they take the folder's lock and refuse while a host holds it (two processes must never write
 * one journal, and the running host could not see this process's write). They do not go through the running host's
 * API instead, because agents hold keys too, and no key may decide a proposal, not even its own. With the lock held,
 * they open the folder as a host does and decide through the service as the person: `accept` writes through the
 * guarded writer, over exactly the revision the proposal was made against; a note that changed since is never
 * overwritten (the three-way merge is printed instead, to settle and accept with --text).
 */
import { readFile } from "fs/promises";
import { join, resolve } from "path";
import { unifiedDiff } from "../core/diff/unified";
import { mergeThreeWay, renderMerge } from "../core/merge";
import { PROPOSAL_STATUSES, type ProposalRecord, type ProposalStatus } from "../core/proposals";
import { ProposalLog } from "../service/stores/proposal-log";
import { revisionOf } from "../core/revision";
import { holderRecord } from "../host/running-marker";
import { PROPOSAL_FILES } from "../service/revisions/persistence";
import { withDefaults, type RevisionGuardSettings } from "../settings";
import type { StateStorage } from "../vault/gateway";
import { NodeStateStorage } from "../vault/node-state-storage";
import { commandFolder, splitCommandArgs, vaultOption } from "./command-args";
import { loadSaved } from "./conflicts-command";
import { openFolder, openFolderGuard, STATE_FOLDER } from "./folder-guard";
import { capitalized, holderWords, lockPath, takeoverNote } from "./folder-holders";
import { takeLock } from "./folder-lock";
import { SETTINGS_FILE } from "./host-settings";

export interface ProposalsArgs {
	command: "proposals";
	action: "list" | "show" | "accept" | "reject";
	/** The proposal to show or decide ("" for list). */
	id: string;
	status: ProposalStatus | null;
	json: boolean;
	/** The person's note to the agent (accept, reject). */
	note: string | null;
	/** accept: a file holding the text to write instead of the proposal as sent (the person's edit, or a merge). */
	text: string | null;
	/**
	 * accept --text: the note's revision the text was settled against (printed with the merge). Without it, the
	 * revision the proposal was made against. The text lands only over that revision, never over a later edit.
	 */
	against: string | null;
	vault: string;
}

type Write = (text: string) => void;

const USAGE_LINE =
	"proposals needs list, show ID, accept ID [--text FILE [--against REVISION]] [--note " +
	"TEXT] or reject ID [--note TEXT].";

export function parseProposalsArgs(argv: readonly string[]): ProposalsArgs | { command: "error"; message: string } {
	const args = splitCommandArgs(argv, ["--vault", "--status", "--note", "--text", "--against"], ["--json"]);
	if (typeof args === "string") return { command: "error", message: args };
	const [action, id, ...extra] = args.words;
	const option = (name: string) => {
		const value = args.options.get(name);
		return typeof value === "string" ? value : null;
	};
	const status = option("--status");
	if (status !== null && !PROPOSAL_STATUSES.includes(status as ProposalStatus))
		return { command: "error", message: `--status must be one of ${PROPOSAL_STATUSES.join(", ")}.` };
	const parsed: ProposalsArgs = {
		command: "proposals",
		action: "list",
		id: id ?? "",
		status: status as ProposalStatus | null,
		json: args.options.has("--json"),
		note: option("--note"),
		text: option("--text"),
		against: option("--against"),
		vault: vaultOption(args),
	};
	const only = (allowed: readonly ("status" | "json" | "note" | "text" | "against")[]) =>
		(["status", "json", "note", "text", "against"] as const).every((name) => allowed.includes(name) || !parsed[name]);
	if (action === "list" && id === undefined)
		return only(["status", "json"])
			? parsed
			: { command: "error", message: "proposals list takes --status, --json and --vault." };
	if ((action === "show" || action === "accept" || action === "reject") && id !== undefined && extra.length === 0) {
		const allowed =
			action === "show"
				? (["json"] as const)
				: action === "accept"
					? (["note", "text", "against"] as const)
					: (["note"] as const);
		if (!only(allowed))
			return {
				command: "error",
				message: `proposals ${action} takes only an id${action === "show" ? ", --json" : action === "accept" ? ", --text FILE, --against REVISION, --note TEXT" : ", --note TEXT"} and --vault.`,
			};
		if (parsed.against !== null && parsed.text === null)
			return {
				command: "error",
				message: "--against names the revision a --text FILE was settled against; send it with --text.",
			};
		return { ...parsed, action };
	}
	if (action === "show" || action === "accept" || action === "reject")
		return { command: "error", message: `proposals ${action} needs one proposal id (proposals list shows them).` };
	return { command: "error", message: USAGE_LINE };
}

export async function runProposals(args: ProposalsArgs, out: Write, err: Write): Promise<number> {
	const found = await commandFolder(args.vault);
	if ("problem" in found) return fail(err, found.problem, 2);
	const storage = new NodeStateStorage(join(found.folder, STATE_FOLDER));
	switch (args.action) {
		case "list":
			return list(args, storage, out, err);
		case "show":
			return show(args, found.folder, storage, out, err);
		default:
			return decide(args, found.folder, storage, out, err);
	}
}

async function readLog(storage: StateStorage, warn: (problem: string) => void): Promise<ProposalLog> {
	const saved = await loadSaved(storage, warn, false, PROPOSAL_FILES);
	const log = ProposalLog.fromSnapshot(saved.snapshot);
	log.replay(saved.changes);
	return log;
}

async function list(args: ProposalsArgs, storage: StateStorage, out: Write, err: Write): Promise<number> {
	const log = await readLog(storage, (problem) => err(`${problem}\n`));
	const records = log.list(args.status ? { status: args.status } : {});
	if (args.json) {
		out(`${JSON.stringify({ proposals: records }, null, 2)}\n`);
		return 0;
	}
	if (records.length === 0) out(`No ${args.status ? `${args.status} ` : ""}proposals.\n`);
	for (const record of records) out(`${describe(record)}\n`);
	return 0;
}

/** The proposal against the note as it is now, read from the .bak and the note (only reads: safe beside a host). */
async function show(
	args: ProposalsArgs,
	folder: string,
	storage: StateStorage,
	out: Write,
	err: Write,
): Promise<number> {
	const record = (await readLog(storage, (problem) => err(`${problem}\n`))).get(args.id);
	if (!record) return fail(err, missing(args.id));
	const proposed = await readText(folder, record.backupPath);
	if (proposed === null || revisionOf(proposed) !== record.proposedRevision)
		return fail(err, `The proposed text is no longer available: ${record.backupPath} was changed or removed.`);
	const note = await readText(folder, record.path);
	const changedSince = (note === null ? null : revisionOf(note)) !== record.baseRevision;
	const diff = unifiedDiff(note ?? "", proposed, {
		fromLabel: `a/${record.path} (now)`,
		toLabel: `b/${record.path} (proposed)`,
	});
	if (args.json) {
		out(`${JSON.stringify({ proposal: record, changedSince, diff }, null, 2)}\n`);
		return 0;
	}
	out(`${describe(record)}\n`);
	if (record.status === "pending" && changedSince)
		out(
			`The note changed since the proposal was made: accepting it is a three-way merge ` +
				`(proposals accept ${record.id} prints it).\n`,
		);
	out(diff === "" ? "The proposal is the note as it is now.\n" : diff.endsWith("\n") ? diff : `${diff}\n`);
	return 0;
}

async function decide(
	args: ProposalsArgs,
	folder: string,
	storage: StateStorage,
	out: Write,
	err: Write,
): Promise<number> {
	const text = args.text === null ? null : await readFile(resolve(args.text), "utf8").catch(() => null);
	if (args.text !== null && text === null)
		return fail(err, `Could not read ${resolve(args.text)}; nothing was changed.`, 2);
	const locked = await takeLock(lockPath(folder), holderRecord("command", null, `proposals ${args.action}`));
	if ("refused" in locked) {
		const host =
			locked.refused.holder?.kind === "command"
				? ""
				: " Stop it first (Ctrl+C in its terminal), then run this again; meanwhile its proposals " +
					"are listed with: proposals list.";
		return fail(
			err,
			`${capitalized(holderWords(locked.refused))} holds ${folder}, and proposals are decided ` +
				`by one process at a time, so nothing was changed.${host}`,
		);
	}
	const lock = locked.held;
	try {
		if (lock.tookOver !== null) err(`${takeoverNote(lock.tookOver, lock.path)}\n`);
		const settings = await readSettings(storage);
		if (settings === null)
			return fail(
				err,
				`${join(STATE_FOLDER, SETTINGS_FILE)} cannot be read as JSON; nothing was changed. ` +
					`Start the host once (it keeps the damaged file aside), then run this again.`,
			);
		const opened = await openFolder(folder);
		const guard = await openFolderGuard(opened, () => settings);
		try {
			const record = guard.notes.proposals.get(args.id);
			if (!record) return fail(err, missing(args.id));
			if (record.status !== "pending") {
				out(`Proposal ${record.id} is already ${record.status}; nothing was changed.\n`);
				return 0;
			}
			return args.action === "reject"
				? await reject(args, guard.notes.proposals, record, out, err)
				: await accept(args, text, guard.notes.proposals, record, out, err);
		} finally {
			await guard.close();
			await opened.gateway.close();
		}
	} finally {
		await lock.release();
	}
}

type Proposals = Awaited<ReturnType<typeof openFolderGuard>>["notes"]["proposals"];

async function reject(
	args: ProposalsArgs,
	proposals: Proposals,
	record: ProposalRecord,
	out: Write,
	err: Write,
): Promise<number> {
	const outcome = await proposals.rejectAsPerson(record.id, args.note ?? undefined);
	if (outcome.kind === "failed") return fail(err, outcome.message);
	out(
		`Rejected proposal ${record.id} from ${record.agent}: ${record.path} stays as it ` +
			`is; the proposed text stays in ${record.backupPath}.${outcome.record.note ? " Your note goes to the agent." : ""}\n`,
	);
	return 0;
}

async function accept(
	args: ProposalsArgs,
	text: string | null,
	proposals: Proposals,
	record: ProposalRecord,
	out: Write,
	err: Write,
): Promise<number> {
	// Your text (an edit, or a merge you settled) replaces only the revision you settled it against: the one printed
	// with the merge (--against), else the one the proposal was made against. An edit made since is never replaced.
	const against = text === null ? undefined : (args.against ?? record.baseRevision);
	const outcome = await proposals.acceptAsPerson(record.id, {
		...(text === null ? {} : { text, against }),
		...(args.note === null ? {} : { note: args.note }),
	});
	switch (outcome.kind) {
		case "accepted":
			out(
				`Accepted proposal ${record.id} from ${record.agent}${outcome.record.status === "accepted" ? " as sent" : " with your edits"}: wrote ${record.path}.\n`,
			);
			return 0;
		case "failed":
			return fail(err, outcome.message);
		case "changed": {
			const { review } = outcome;
			if (review.theirs === null)
				return fail(err, `The proposed text is no longer available: ${record.backupPath} was changed or removed.`);
			out(renderMerge(mergeThreeWay(review.base ?? "", review.mine ?? "", review.theirs)));
			const settle = `proposals accept ${record.id} --text FILE${review.mineRevision === null ? "" : ` --against ${review.mineRevision}`}`;
			return fail(
				err,
				`${record.path} changed since ${text === null ? "the proposal was made" : "the revision your text was settled against"}, ` +
					`so nothing was written. The three-way merge (your note now, the agent's proposal) ` +
					`is printed above: settle it, save it to a file and run: ${settle}. Or reject it: ` +
					`proposals reject ${record.id}.`,
			);
		}
	}
}

/** settings.json as the host would read it, without writing anything; null when it is not JSON. */
async function readSettings(storage: StateStorage): Promise<RevisionGuardSettings | null> {
	const text = await storage.read(SETTINGS_FILE);
	try {
		return withDefaults(text === null ? null : (JSON.parse(text) as unknown));
	} catch {
		return null;
	}
}

async function readText(folder: string, path: string): Promise<string | null> {
	return readFile(join(folder, path), "utf8").catch(() => null);
}

function describe(record: ProposalRecord): string {
	const decided =
		record.status === "pending"
			? ""
			: ` (${record.status}${record.decidedAt ? ` ${record.decidedAt}` : ""}${record.note ? `: ${JSON.stringify(record.note)}` : ""})`;
	return `${record.id}  ${record.status}  ${record.time}  ${record.path}  from ${record.agent}: ${record.operation}, kept in ${record.backupPath}${decided}`;
}

function missing(id: string): string {
	return `There is no proposal "${id}"; nothing was changed. List them with: proposals list.`;
}

function fail(err: Write, message: string, code = 1): number {
	err(`${message}\n`);
	return code;
}
