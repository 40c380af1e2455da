// @ts-check
/**
 * What the hook decides for one tool call on one vault note, given the host and this session's reads:
 *   - after a Read: remember the revision the session saw (and whether it saw all of it);
 *   - after its own Write or Edit: remember the new revision, so its next edit is not taken for someone else's;
 *   - before a Write or Edit: allow it only on the revision the session last saw, else refuse with what changed.
 * A note that does not exist yet is always allowed; a file the host does not serve is not this hook's business.
 */
import { access } from "node:fs/promises";
import { changesSince, currentNote, HostUnreachable, sameRevision } from "./host-api.mjs";
import { messages } from "./messages.mjs";

/** @typedef {import("./hook-call.mjs").ToolCall} ToolCall */
/** @typedef {import("./vault-path.mjs").VaultNote} VaultNote */
/** @typedef {import("./host-api.mjs").Host} Host */
/** @typedef {Awaited<ReturnType<typeof import("./session-reads.mjs").openSessionReads>>} SessionReads */
/** @typedef {{ call: ToolCall, note: VaultNote, host: Host, reads: SessionReads, whenDown: "block" | "allow" }} GuardContext */

/**
 * `block` refuses the call (before it runs), `warn` lets it run and tells the person, `tell` adds a note for the
 * model to what a tool that already ran answered.
 * @typedef {{ kind: "allow" } | { kind: "block", message: string } | { kind: "warn", message: string } | { kind: "tell", message: string }} Verdict
 */

/** @type {Verdict} */
export const ALLOW = { kind: "allow" };
const block = (/** @type {string} */ message) => /** @type {Verdict} */ ({ kind: "block", message });
const tell = (/** @type {string} */ message) => /** @type {Verdict} */ ({ kind: "tell", message });

/** Before a Write or Edit. */
export async function beforeChange(/** @type {GuardContext} */ { call, note, host, reads, whenDown }) {
	const remembered = await reads.get(note.path);
	// A note that is not there yet has nothing anyone could lose.
	if (!remembered && !(await exists(note.absolute))) return ALLOW;
	try {
		if (!remembered) return await unreadNote(host, note);
		const verdict = await changedSince(host, note, remembered.revision, call.toolName);
		if (verdict.kind === "allow" && call.tool === "write" && remembered.part)
			return block(messages.partRead(note.path));
		return verdict;
	} catch (error) {
		if (!(error instanceof HostUnreachable)) throw error;
		if (whenDown === "allow")
			return /** @type {Verdict} */ ({
				kind: "warn",
				message: messages.hostDownAllowed(note.path, host.url, error.message),
			});
		return block(messages.hostDown(note.path, host.url, error.message));
	}
}

/** After a Read: the revision the host serves now is the one the session saw. */
export async function afterRead(/** @type {GuardContext} */ { call, note, host, reads }) {
	return record(host, note, reads, (current) =>
		reads.remember(note.path, { revision: current.revision, part: call.partialRead }),
	);
}

/** After the session's own Write or Edit: its new revision is one the session knows. */
export async function afterChange(/** @type {GuardContext} */ { call, note, host, reads }) {
	const before = await reads.get(note.path);
	return record(host, note, reads, async (current) => {
		// A Write says what it saved: anything else on disk now came from someone else, after it. (A tool may keep the
		// note's line endings or byte-order mark as they were: that is not someone else's edit.)
		if (call.writtenContent !== null && plain(current.content) !== plain(call.writtenContent)) {
			await reads.forget(note.path);
			return tell(messages.writtenDiffers(note.path));
		}
		// An Edit changes only what it names, so a session that had read part of the note still has only that part.
		await reads.remember(note.path, {
			revision: current.revision,
			part: call.tool === "edit" && before !== null && before.part,
		});
		return undefined;
	});
}

/**
 * Asks the host for the note as it is now and hands it to `keep`. Whatever goes wrong, the session's record of the
 * note is dropped (a later edit is then refused until a new read), and the model is told why.
 * @param {Host} host @param {VaultNote} note @param {SessionReads} reads
 * @param {(current: { revision: string, content: string }) => Promise<Verdict | undefined | void>} keep
 * @returns {Promise<Verdict>}
 */
async function record(host, note, reads, keep) {
	try {
		const current = await currentNote(host, note.urlPath);
		if (current.kind === "note") return (await keep(current)) ?? ALLOW;
		await reads.forget(note.path);
		// Gone, or a file the host does not serve to this key: not a note this hook guards.
		if (current.kind !== "refused") return ALLOW;
		return tell(
			messages.notRecorded(
				note.path,
				current.status === 401
					? "the host did not accept the hook's key (RG_KEY)."
					: `the host answered ${current.status} (${current.detail}).`,
			),
		);
	} catch (error) {
		if (!(error instanceof HostUnreachable)) throw error;
		await reads.forget(note.path);
		return tell(messages.notRecorded(note.path, `its host at ${host.url} did not answer (${error.message}).`));
	}
}

/** The note exists and the session never read it: refused, unless the host does not serve it. */
async function unreadNote(/** @type {Host} */ host, /** @type {VaultNote} */ note) {
	const answer = await sameRevision(host, note.urlPath, null);
	if (answer.kind === "other") return block(messages.readFirst(note.path));
	if (answer.kind === "refused") return block(messages.refused(note.path, answer.status, answer.detail));
	return ALLOW;
}

/** @returns {Promise<Verdict>} */
async function changedSince(
	/** @type {Host} */ host,
	/** @type {VaultNote} */ note,
	/** @type {string} */ revision,
	/** @type {string} */ tool,
) {
	const changes = await changesSince(host, note.urlPath, revision);
	switch (changes.kind) {
		case "unchanged":
			return ALLOW;
		case "changed":
			return block(messages.changed(note.path, tool, changes.diff, changes.truncated));
		case "not-retained": {
			// The host no longer keeps that revision's text: it can still say whether the note is that revision now.
			const same = await sameRevision(host, note.urlPath, revision);
			if (same.kind === "same") return ALLOW;
			if (same.kind === "other") return block(messages.changedNoDiff(note.path, tool));
			if (same.kind === "refused") return block(messages.refused(note.path, same.status, same.detail));
			return ALLOW;
		}
		case "refused":
			return block(messages.refused(note.path, changes.status, changes.detail));
		default:
			// Deleted since it was read (a Write makes it anew), or no longer served to this key.
			return ALLOW;
	}
}

/** The text with CRLF line endings as LF and without a byte-order mark. */
function plain(/** @type {string} */ text) {
	return text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
}

async function exists(/** @type {string} */ file) {
	return access(file).then(
		() => true,
		() => false,
	);
}
