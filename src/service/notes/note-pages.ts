/**
 * Every note agents may read, a page at a time in path order (MCP's resources/list): the path policy of list_notes,
 * so hidden, private and config folders never appear. A page starts after a path, never at an offset, so notes
 * created or deleted between pages neither repeat nor shift what follows.
 */
import { validateVaultPath, type PathPolicy } from "../../core/path";
import type { NoteStat, VaultGateway } from "../../vault/gateway";

export interface NotePage {
	notes: { path: string; stat: NoteStat | null }[];
	/** Notes after the last one listed. */
	more: boolean;
}

/** `visible`: the notes the caller's key may see; no other is listed or counted. */
export async function notePage(
	gateway: VaultGateway,
	policy: PathPolicy,
	after: string | null,
	limit: number,
	visible: (path: string) => boolean = () => true,
): Promise<NotePage> {
	const paths = (await gateway.listNotes(policy.noteExtensions))
		.filter((path) => validateVaultPath(path, policy, "note").ok && visible(path))
		// Code-unit order, the same on every machine, so a cursor means the same thing on every call.
		.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	const start = after === null ? 0 : paths.findIndex((path) => path > after);
	const page = start === -1 ? [] : paths.slice(start, start + limit);
	const notes = await Promise.all(
		page.map(async (path) => ({ path, stat: await gateway.stat(path).catch(() => null) })),
	);
	return { notes, more: start !== -1 && start + limit < paths.length };
}
