/**
 * The servers the benchmark compares, each run in its own child process so the load generator does not share
 * an event loop with them:
 * - `revision-guard`: the real stack (NodeFsGateway + guard + ApiServer), as `npm start` runs it.
 * - `bare`: a plain Node http server (bench/bare-server.ts): GET reads the file and hashes it for its ETag, PUT
 *   writes with the same durability as ours and checks nothing.
 */
import { openFolder, openFolderGuard } from "../src/headless/folder-guard";
import { createApiServer } from "../src/host/api-server";
import { DEFAULT_SETTINGS } from "../src/settings";
import { startBareServer } from "./bare-server";

export const BENCH_KEY = "bench-key-0123456789abcdef0123456789abcdef";

/**
 * The lists of the scoped key (`revision-guard-scoped`): several globs per list, the one that matches the bench's notes
 * last, and a propose list that is checked first and matches none of them, so every PUT pays for a full check.
 */
export const SCOPED_LISTS = {
	read: ["Private/**", "Archive/**", "**/*.md"],
	write: ["Journal/**", "Inbox/*.md", "folder-*/note-*.md"],
	propose: ["Drafts/**", "Private/**"],
};

export async function startServer(kind: string, vault: string): Promise<number> {
	if (kind === "bare") return startBareServer(vault);
	const scope = kind === "revision-guard-scoped" ? SCOPED_LISTS : {};
	const settings = {
		...structuredClone(DEFAULT_SETTINGS),
		keys: [{ name: "bench", key: BENCH_KEY, created: "2026-01-01", ...scope }],
	};
	const guard = await openFolderGuard(await openFolder(vault), () => settings);
	guard.tracker.start();
	await guard.tracker.reconcile();
	const server = createApiServer(guard.notes);
	return server.listen(0);
}
