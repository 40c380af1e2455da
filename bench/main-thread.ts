/**
 * The longest the main thread is blocked while the guard does its heaviest work in-process, as it does inside
 * Obsidian: the start-up reconcile (hashing every note, a 5 MB one among them), an accepted 5 MB write, and a stale
 * write to a 5 MB note (its .bak, record and diff) with the merge preview of that conflict. Read from Node's
 * event-loop delay histogram (1 ms resolution) while each runs.
 */
import { mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { monitorEventLoopDelay } from "perf_hooks";
import { parseEntityTagCondition, revisionOf } from "../src/core/revision";
import { openFolder, openFolderGuard } from "../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../src/settings";
import { hugeNoteText, makeVault } from "./vault-fixture";
import { agentActor } from "../src/service/notes/actor";

export interface MainThreadFigures {
	/** Longest single block, in milliseconds, during the stale write and its merge preview. */
	longestBlockMs: number;
	/** The same during the start-up reconcile of `notes` notes, the huge one included. */
	reconcileBlockMs: number;
	notes: number;
	/** The same during an accepted write of the huge note. */
	bigWriteBlockMs: number;
	noteMB: number;
}

/** Runs `work` and gives the longest event-loop block seen meanwhile, in milliseconds. */
export async function longestBlock(work: () => Promise<unknown>): Promise<number> {
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	histogram.enable();
	await work();
	histogram.disable();
	return histogram.max / 1e6;
}

export async function measureMainThread(): Promise<MainThreadFigures> {
	const dir = await mkdtemp(join(tmpdir(), "rg-main-thread-"));
	try {
		const original = hugeNoteText("original");
		const rewritten = hugeNoteText("rewritten");
		await writeFile(join(dir, "Huge.md"), original);
		const notes = await makeVault(join(dir, "notes"), 1_000, 10 * 1024);
		const settings = structuredClone(DEFAULT_SETTINGS);
		const guard = await openFolderGuard(await openFolder(dir), () => settings);
		const reconcileBlockMs = await longestBlock(() => guard.tracker.reconcile());
		const served = await guard.gateway.read("Huge.md");
		const bigWriteBlockMs = await longestBlock(() =>
			guard.writer.write({
				path: "Huge.md",
				operation: { kind: "replace", body: rewritten },
				ifMatch: parseEntityTagCondition(`"${revisionOf(served!.content)}"`),
				ifNoneMatch: { kind: "absent" },
				actor: agentActor("bench"),
			}),
		);
		await writeFile(join(dir, "Huge.md"), original);
		await guard.tracker.served({ path: "Huge.md", content: original });
		await writeFile(join(dir, "Huge.md"), rewritten);
		const longestBlockMs = await longestBlock(async () => {
			const refused = await guard.writer.write({
				path: "Huge.md",
				operation: { kind: "replace", body: original + "agent\n" },
				ifMatch: parseEntityTagCondition(`"${revisionOf(original)}"`),
				ifNoneMatch: { kind: "absent" },
				actor: agentActor("bench"),
				merge: "auto",
			});
			if (refused.kind !== "refused" || !refused.conflict) throw new Error("expected a refusal with a conflict");
			await guard.resolver.preview(refused.conflict.id);
		});
		await guard.close();
		return {
			longestBlockMs,
			reconcileBlockMs,
			notes: notes.length + 1,
			bigWriteBlockMs,
			noteMB: Buffer.byteLength(original) / (1024 * 1024),
		};
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}
