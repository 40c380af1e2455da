import { describe, expect, it } from "vitest";
import { noteStateOf } from "../../../src/core/guard";
import { revisionOf } from "../../../src/core/revision";
import { agentActor } from "../../../src/service/notes/actor";
import { ReadLedger } from "../../../src/service/stores/read-ledger";
import { carryOut, type Basis, type CarryOutDeps } from "../../../src/service/write/carry-out";
import type { WriteBookkeeping } from "../../../src/service/write/write-bookkeeping";
import type { WriteRequest } from "../../../src/service/write/write-request";

const before = noteStateOf("# Old\n")!;
const after = "# New\n";
const afterRevision = revisionOf(after);

function harness() {
	const told: string[] = [];
	const reads = new ReadLedger(100);
	const bookkeeping = {
		afterWrite: async (path: string) => void told.push(`write ${path}`),
		afterDelete: async (path: string) => void told.push(`delete ${path}`),
		watchLanded: () => ({ writes: [], stop: () => undefined }),
	} as unknown as WriteBookkeeping;
	const deps = { reads, now: () => 1_000, after: bookkeeping, tracker: {} } as unknown as CarryOutDeps;
	return { deps, told, reads };
}

const request = (actor = agentActor("bot", "bot:s1", "bot")): WriteRequest => ({
	path: "a.md",
	operation: { kind: "replace", body: after },
	ifMatch: { kind: "absent" },
	ifNoneMatch: { kind: "absent" },
	actor,
});
/** Writing `after` over `before`. */
const WRITE_PLAN = {
	kind: "write",
	content: after,
	revision: afterRevision,
	created: false,
	replaced: before,
	merge: null,
} as const;
const basis: Basis = { sent: { kind: "absent" }, held: null, implicit: false };

describe("carryOut", () => {
	it("tells the bookkeeping of a write before answering, and answers awaiting-disk while the disk is not done", async () => {
		const { deps, told } = harness();
		const durable = new Promise<void>(() => undefined);
		const outcome = await carryOut(deps, request(), basis, WRITE_PLAN, { stat: null, durable });
		expect(told).toEqual(["write a.md"]);
		expect(outcome).toMatchObject({
			kind: "awaiting-disk",
			answer: { kind: "written", revision: afterRevision, merged: false },
			inPlace: { kind: "written", revision: afterRevision },
		});
	});

	it("moves the read a key's plain REST calls hold of the replaced revision to the one written", async () => {
		const { deps, reads } = harness();
		reads.record("bot", "a.md", before.revision, 500);
		await carryOut(deps, request(), basis, WRITE_PLAN, { stat: null });
		expect(reads.lastRead("bot", "a.md")?.revision).toBe(afterRevision);
	});

	it("answers a delete whose trash move is not yet durable with where the note went", async () => {
		const { deps, told } = harness();
		const durable = new Promise<void>(() => undefined);
		const outcome = await carryOut(
			deps,
			request(),
			basis,
			{ kind: "delete", removed: before },
			{
				stat: null,
				durable,
				trashedTo: ".trash/a.md",
			},
		);
		expect(told).toEqual(["delete a.md"]);
		expect(outcome).toMatchObject({
			kind: "awaiting-disk",
			answer: { kind: "deleted" },
			inPlace: { kind: "deleted", trashedTo: ".trash/a.md", failed: "delete" },
		});
	});

	it("answers an unchanged note without telling the bookkeeping", async () => {
		const { deps, told } = harness();
		const outcome = await carryOut(deps, request(), basis, { kind: "unchanged", current: before }, { stat: null });
		expect(told).toEqual([]);
		expect(outcome).toMatchObject({ kind: "unchanged", revision: before.revision });
	});
});
