/**
 * `proposals accept` and `proposals reject`: they change the proposal journal, and `accept` writes the note, so they
 * take the folder's lock and refuse while a host holds it. With the lock held, they open the folder as a host does
 * and decide through the service as the person (see proposals-command.ts for why not through the running host).
 */
import { readFile } from "fs/promises";
import { join, resolve } from "path";
import { mergeThreeWay, renderMerge } from "../core/merge";
import type { ProposalRecord } from "../core/proposals";
import { holderRecord } from "../host/running-marker";
import { withDefaults, type RevisionGuardSettings } from "../settings";
import type { StateStorage } from "../vault/gateway";
import { openFolder, openFolderGuard, STATE_FOLDER } from "./folder-guard";
import { capitalized, holderWords, lockPath, takeoverNote } from "./folder-holders";
import { takeLock } from "./folder-lock";
import { SETTINGS_FILE } from "./host-settings";
import type { ProposalsArgs } from "./proposals-args";
import { fail, noSuchProposal, type Write } from "./proposals-view";

export async function decideProposal(
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
			if (!record) return fail(err, noSuchProposal(args.id));
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
