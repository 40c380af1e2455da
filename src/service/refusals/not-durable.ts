/**
 * A change that is in place but that the disk failed to make durable: the folder fsync after its rename (or after a
 * move's link, or a delete's move into the trash) reported an I/O error (EIO, ENOSPC, EDQUOT...). It is not a
 * refusal (something was written) and not a success (a crash or power loss could still undo it): the writer answers
 * it with this, and REST, MCP and the CLI render it as "not-durable" (vault-refusals.ts), telling the caller to read
 * the note back and the person to check the disk. Never acknowledged as durable: the promise is never to acknowledge what the disk refused.
 */

/** What the request did before the disk failed to make it durable. */
export type NotDurableChange =
	/** This request's text is in place (revision). */
	| { kind: "written"; revision: string }
	/** The note already held this request's text, put there by an earlier write the disk failed to make durable. */
	| { kind: "unchanged"; revision: string }
	/**
	 * The note was moved to the trash (at `trashedTo`, vault-relative, when the host chose the place), and the disk
	 * failed to make durable the delete itself (`failed: "delete"`: a crash could bring the note back) or an earlier
	 * write of the note it stood on (`failed: "earlier-write"`).
	 */
	| { kind: "deleted"; trashedTo: string | null; failed: "delete" | "earlier-write" }
	/** The note is at its new path (`to`), the old one gone, or an earlier write there was not made durable. */
	| { kind: "moved"; to: string };

export class NotDurableError extends Error {
	constructor(
		readonly path: string,
		readonly change: NotDurableChange,
		/** The disk's error code (EIO, ENOSPC...), or null when it gave none. */
		readonly diskError: string | null,
	) {
		super(describeNotDurable(path, change, diskError));
		this.name = "NotDurableError";
	}
}

/** The writer's answer to a durability step that failed: `error` is what the disk (fsync) reported. */
export function notDurable(path: string, change: NotDurableChange, error: unknown): NotDurableError {
	const code = (error as NodeJS.ErrnoException | null)?.code;
	return new NotDurableError(path, change, typeof code === "string" ? code : null);
}

function describeNotDurable(path: string, change: NotDurableChange, diskError: string | null): string {
	const reported = `the disk reported an error${diskError === null ? "" : ` (${diskError})`}`;
	const undone = "a crash or power loss could still undo it.";
	switch (change.kind) {
		case "written":
			return `"${path}" was written, but ${reported} while making the change durable: ${undone}`;
		case "unchanged":
			return `"${path}" already holds this text, but ${reported} while making the earlier write that put it there durable: ${undone}`;
		case "deleted": {
			const trashed = `"${path}" was moved to the trash${change.trashedTo === null ? "" : `, at "${change.trashedTo}"`}`;
			return change.failed === "delete"
				? `${trashed}, but ${reported} while making the delete durable: a crash or power loss could still bring the note back.`
				: `${trashed}, but ${reported} while making an earlier write of it durable: a crash or power loss could still undo that write.`;
		}
		case "moved":
			return `"${path}" was moved to "${change.to}", but ${reported} while making the move durable: ${undone}`;
	}
}
