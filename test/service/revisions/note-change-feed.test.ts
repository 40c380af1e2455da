/**
 * AgentNotes.onNoteChanged (service/revisions/note-change-feed.ts): every change to a wanted note, with the revision it left
 * and the agent whose write through the service made it, even when the gateway announces the change inside the
 * write (as the in-memory gateway does) or long after it (as a folder watcher does). A change may be told more than
 * once (the vault's event, the write itself, a follow-up read); what matters is which revisions, by whom, in order.
 */
import { describe, expect, it, vi } from "vitest";
import { revisionOf } from "../../../src/core/revision";
import { nodeTimers } from "../../../src/headless/node-timers";
import { agentActor, PERSON } from "../../../src/service/notes/actor";
import type { NoteChange } from "../../../src/service/notes/agent-notes";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import type { VaultChange } from "../../../src/vault/gateway";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";

async function feed(initial: Record<string, string> = { "a.md": "one\n", "b.md": "bee\n" }) {
	const gateway = new MemoryGateway(initial);
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage: new MemoryStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
	});
	const told: NoteChange[] = [];
	const stop = guard.notes.onNoteChanged(
		() => PERSON,
		(change) => void told.push(change),
		(path) => path !== "b.md",
	);
	/** The distinct changes told, in the order they were first told. */
	const changes = () => [...new Map(told.map((change) => [JSON.stringify(change), change])).values()];
	const seen = (count: number) =>
		vi.waitFor(() => expect(changes().length).toBeGreaterThanOrEqual(count), { timeout: 5000, interval: 1 });
	return { gateway, guard, changes, stop, seen };
}

/** Lets every promise already under way settle (no timer is involved in what is checked after it). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const ALICE = agentActor("alice", "key:alice:session-1");

describe("AgentNotes.onNoteChanged", () => {
	it("credits a write through the service to its agent, though the gateway announced it inside the write", async () => {
		const { guard, changes, seen } = await feed();
		const outcome = await guard.notes.write(writeRequest("a.md", "two\n", { basedOn: "one\n", actor: ALICE }));
		expect(outcome.kind).toBe("written");
		await seen(1);
		expect(changes()).toEqual([{ path: "a.md", revision: revisionOf("two\n"), by: ALICE }]);
	});

	it("credits an edit made outside the service to nobody", async () => {
		const { gateway, changes, seen } = await feed();
		gateway.externalEdit("a.md", "the person's\n");
		await seen(1);
		expect(changes()).toEqual([{ path: "a.md", revision: revisionOf("the person's\n"), by: null }]);
	});

	it("credits to nobody a revision the agent's write did not make (someone changed the note again before the event was handled)", async () => {
		const { gateway, guard, changes, seen } = await feed();
		// Another program writes the moment the agent's write lands, before anyone handled the write's change event.
		const stopEditing = gateway.onChange(() => {
			stopEditing();
			gateway.notes.set("a.md", "three, outside\n");
		});
		expect((await guard.notes.write(writeRequest("a.md", "two\n", { basedOn: "one\n", actor: ALICE }))).kind).toBe(
			"written",
		);
		await seen(1);
		expect(changes()[0]).toEqual({ path: "a.md", revision: revisionOf("three, outside\n"), by: null });
	});

	it("reports a delete by an agent, and both sides of a rename, a note gone as a null revision", async () => {
		const { gateway, guard, changes, seen } = await feed({ "a.md": "one\n", "d.md": "dee\n" });
		await guard.notes.write(writeRequest("a.md", { kind: "delete" }, { basedOn: "one\n", actor: ALICE }));
		await seen(1);
		expect(changes()).toEqual([{ path: "a.md", revision: null, by: ALICE }]);
		gateway.notes.delete("d.md");
		gateway.notes.set("c.md", "moved\n");
		gateway.emit({ type: "rename", path: "c.md", oldPath: "d.md" } satisfies VaultChange);
		await seen(3);
		expect(changes().slice(1)).toEqual([
			{ path: "d.md", revision: null, by: null },
			{ path: "c.md", revision: revisionOf("moved\n"), by: null },
		]);
	});

	it("reads a note again once its events go quiet, for a watcher that reported a burst half done and dropped the rest", async () => {
		const { gateway, changes, seen } = await feed();
		const read = gateway.read.bind(gateway);
		// The program goes on writing right after the one event was handled; no event comes for the rest.
		vi.spyOn(gateway, "read").mockImplementationOnce(async (path) => {
			const half = await read(path);
			gateway.notes.set("a.md", "the whole edit\n");
			return half;
		});
		gateway.externalEdit("a.md", "");
		await seen(2);
		expect(changes()).toEqual([
			{ path: "a.md", revision: revisionOf(""), by: null },
			{ path: "a.md", revision: revisionOf("the whole edit\n"), by: null },
		]);
	});

	it("neither reads nor reports notes nobody wants, and stops when unsubscribed", async () => {
		const { gateway, changes, stop, seen } = await feed();
		const read = vi.spyOn(gateway, "read");
		gateway.externalEdit("b.md", "unwanted\n");
		gateway.externalEdit("a.md", "wanted\n");
		await seen(1);
		expect(changes().map((change) => change.path)).toEqual(["a.md"]);
		expect(new Set(read.mock.calls.map(([path]) => path))).toEqual(new Set(["a.md"]));
		stop();
		await settle();
		const reads = read.mock.calls.length;
		gateway.externalEdit("a.md", "after\n");
		await settle();
		expect(read).toHaveBeenCalledTimes(reads);
	});
});
