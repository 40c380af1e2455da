/**
 * Keeping a refused body (service/write/refused-body.ts): a failure to save the conflict record or to keep the body as a
 * merge base is never swallowed: the body is still kept as a .bak, the record is still made, and the failure is
 * reported (the host logs it) and returned, so the caller knows the record may not outlive a crash.
 */
import { describe, expect, it } from "vitest";
import { BaseStore, type BlobStorage } from "../../../src/service/stores/base-store";
import { ConflictLog } from "../../../src/service/stores/conflict-log";
import { BackupNames } from "../../../src/service/write/backup-names";
import { keepRefusedBody } from "../../../src/service/write/refused-body";
import { MemoryGateway } from "../../helpers/memory-gateway";

/** A base store whose retain fails (its eviction could not remove a blob, say). */
const failingBases = {
	retain: async () => Promise.reject(new Error("disk full")),
	get: async () => null,
} as unknown as BaseStore;

function deps(overrides: { conflictsSaved?: () => Promise<void>; bases?: BaseStore } = {}) {
	const errors: unknown[] = [];
	const gateway = new MemoryGateway({ "n.md": "now\n" });
	return {
		errors,
		gateway,
		deps: {
			gateway,
			bases: overrides.bases ?? new BaseStore(memoryBlobs(), 1024 * 1024, 0),
			conflicts: new ConflictLog(),
			backupFolder: () => "",
			now: () => Date.UTC(2026, 10, 27, 12, 0, 0),
			conflictsSaved: overrides.conflictsSaved ?? (async () => undefined),
			backupNames: new BackupNames(),
			onError: (error: unknown) => errors.push(error),
		},
	};
}

function memoryBlobs(): BlobStorage {
	const blobs = new Map<string, string>();
	return {
		read: async (key) => blobs.get(key) ?? null,
		write: async (key, content) => void blobs.set(key, content),
		remove: async (key) => void blobs.delete(key),
	};
}

const REFUSED = {
	path: "n.md",
	body: "agent\n",
	reason: "stale" as const,
	sentRevision: null,
	currentRevision: null,
	agent: "claude",
};

describe("keeping a refused body", () => {
	it("reports a conflict record that could not be saved, and still keeps the body and the record", async () => {
		const {
			deps: d,
			errors,
			gateway,
		} = deps({ conflictsSaved: async () => Promise.reject(new Error("state folder is read-only")) });
		const kept = await keepRefusedBody(d, REFUSED);
		expect(kept.recordError).toContain("state folder is read-only");
		expect(errors).toHaveLength(1);
		expect(gateway.notes.get(kept.conflict.backupPath!)).toBe("agent\n");
		expect(d.conflicts.list()).toHaveLength(1);
	});

	it("reports a body that could not be kept as a merge base (the .bak still holds it)", async () => {
		const { deps: d, errors, gateway } = deps({ bases: failingBases });
		const kept = await keepRefusedBody(d, REFUSED);
		expect(kept.recordError).toBeNull();
		expect(gateway.notes.get(kept.conflict.backupPath!)).toBe("agent\n");
		expect(errors.map(String).join(" ")).toContain("disk full");
	});
});
