/** `proposals …` words into ProposalsArgs: which action, on which proposal, with which options; or why not. */
import { PROPOSAL_STATUSES, type ProposalStatus } from "../core/proposals";
import { splitCommandArgs, vaultOption } from "./command-args";

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
