/**
 * The longest the main thread is blocked while the guard does its heaviest work in-process, as it does inside
 * Obsidian: a stale write to a 5 MB note (its .bak, record and diff) and the merge preview of that conflict. Read
 * from Node's event-loop delay histogram (1 ms resolution) while the work runs.
 */
import { mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { monitorEventLoopDelay } from "perf_hooks";
import { parseEntityTagCondition, revisionOf } from "../src/core/revision";
import { openFolder, openFolderGuard } from "../src/headless/folder-guard";
import { DEFAULT_SETTINGS } from "../src/settings";
import { hugeNoteText } from "./vault-fixture";

export interface MainThreadFigures {
	/** Longest single block, in milliseconds. */
	longestBlockMs: number;
	noteMB: number;
}

export async function measureMainThread(): Promise<MainThreadFigures> {
	const dir = await mkdtemp(join(tmpdir(), "rg-main-thread-"));
	try {
		const original = hugeNoteText("original");
		const rewritten = hugeNoteText("rewritten");
		await writeFile(join(dir, "Huge.md"), original);
		const settings = structuredClone(DEFAULT_SETTINGS);
		const guard = await openFolderGuard(await openFolder(dir), () => settings);
		await guard.tracker.served({ path: "Huge.md", content: original });
		await writeFile(join(dir, "Huge.md"), rewritten);
		const histogram = monitorEventLoopDelay({ resolution: 1 });
		histogram.enable();
		const refused = await guard.writer.write({
			path: "Huge.md",
			operation: { kind: "replace", body: original + "agent\n" },
			ifMatch: parseEntityTagCondition(`"${revisionOf(original)}"`),
			ifNoneMatch: { kind: "absent" },
			agent: "bench",
			merge: "auto",
		});
		if (refused.kind !== "refused" || !refused.conflict) throw new Error("expected a refusal with a conflict");
		await guard.resolver.preview(refused.conflict.id);
		histogram.disable();
		await guard.close();
		return { longestBlockMs: histogram.max / 1e6, noteMB: Buffer.byteLength(original) / (1024 * 1024) };
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}
