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
import { join } from "path";
import { NodeStateStorage } from "../vault/node-state-storage";
import { commandFolder } from "./command-args";
import { STATE_FOLDER } from "./folder-guard";
import type { ProposalsArgs } from "./proposals-args";
import { decideProposal } from "./proposals-decide";
import { fail, listProposals, showProposal, type Write } from "./proposals-view";

export async function runProposals(args: ProposalsArgs, out: Write, err: Write): Promise<number> {
	const found = await commandFolder(args.vault);
	if ("problem" in found) return fail(err, found.problem, 2);
	const storage = new NodeStateStorage(join(found.folder, STATE_FOLDER));
	switch (args.action) {
		case "list":
			return listProposals(args, storage, out, err);
		case "show":
			return showProposal(args, found.folder, storage, out, err);
		default:
			return decideProposal(args, found.folder, storage, out, err);
	}
}
