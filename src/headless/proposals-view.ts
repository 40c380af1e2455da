/**
 * `proposals list` and `proposals show`: they only read (the journal's log before its snapshot, the .bak and the
 * note), so they work beside a running host; and how the command words a proposal and its failures.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { unifiedDiff } from "../core/diff/unified";
import type { ProposalRecord } from "../core/proposals";
import { revisionOf } from "../core/revision";
import { PROPOSAL_FILES } from "../service/revisions/persistence";
import { ProposalLog } from "../service/stores/proposal-log";
import type { StateStorage } from "../vault/gateway";
import { loadSaved } from "./conflicts-command";
import type { ProposalsArgs } from "./proposals-args";

export type Write = (text: string) => void;

async function readLog(storage: StateStorage, warn: (problem: string) => void): Promise<ProposalLog> {
	const saved = await loadSaved(storage, warn, false, PROPOSAL_FILES);
	const log = ProposalLog.fromSnapshot(saved.snapshot);
	log.replay(saved.changes);
	return log;
}

export async function listProposals(
	args: ProposalsArgs,
	storage: StateStorage,
	out: Write,
	err: Write,
): Promise<number> {
	const log = await readLog(storage, (problem) => err(`${problem}\n`));
	const records = log.list(args.status ? { status: args.status } : {});
	if (args.json) {
		out(`${JSON.stringify({ proposals: records }, null, 2)}\n`);
		return 0;
	}
	if (records.length === 0) out(`No ${args.status ? `${args.status} ` : ""}proposals.\n`);
	for (const record of records) out(`${describeProposal(record)}\n`);
	return 0;
}

/** The proposal against the note as it is now, read from the .bak and the note (only reads: safe beside a host). */
export async function showProposal(
	args: ProposalsArgs,
	folder: string,
	storage: StateStorage,
	out: Write,
	err: Write,
): Promise<number> {
	const record = (await readLog(storage, (problem) => err(`${problem}\n`))).get(args.id);
	if (!record) return fail(err, noSuchProposal(args.id));
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
	out(`${describeProposal(record)}\n`);
	if (record.status === "pending" && changedSince)
		out(
			`The note changed since the proposal was made: accepting it is a three-way merge ` +
				`(proposals accept ${record.id} prints it).\n`,
		);
	out(diff === "" ? "The proposal is the note as it is now.\n" : diff.endsWith("\n") ? diff : `${diff}\n`);
	return 0;
}

async function readText(folder: string, path: string): Promise<string | null> {
	return readFile(join(folder, path), "utf8").catch(() => null);
}

export function describeProposal(record: ProposalRecord): string {
	const decided =
		record.status === "pending"
			? ""
			: ` (${record.status}${record.decidedAt ? ` ${record.decidedAt}` : ""}${record.note ? `: ${JSON.stringify(record.note)}` : ""})`;
	return `${record.id}  ${record.status}  ${record.time}  ${record.path}  from ${record.agent}: ${record.operation}, kept in ${record.backupPath}${decided}`;
}

export function noSuchProposal(id: string): string {
	return `There is no proposal "${id}"; nothing was changed. List them with: proposals list.`;
}

export function fail(err: Write, message: string, code = 1): number {
	err(`${message}\n`);
	return code;
}
