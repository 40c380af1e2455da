/** Session bookkeeping: idle expiry through the guard's timers, eviction past the cap, and ownership by key. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { McpSessions } from "../../src/mcp/sessions";
import { startHeadless, type Harness } from "../helpers/headless-harness";

let h: Harness;
beforeEach(async () => {
	h = await startHeadless();
});
afterEach(async () => {
	await h.close();
});

describe("McpSessions", () => {
	it("ends a session left idle, forgetting what it read", async () => {
		const sessions = new McpSessions(h.guard.notes, { idleMs: 60 });
		const session = await sessions.open("key:owner", "agent");
		h.guard.reads.record(session.client, "a.md", "rev", h.guard.now());
		expect(session.client).toBe(`key:owner:${session.id}`);
		expect(session.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
		await vi.waitFor(() => expect(sessions.find(session.id, "key:owner")).toBeNull(), { timeout: 2000, interval: 10 });
		expect(h.guard.reads.lastRead(session.client, "a.md")).toBeUndefined();
		expect(sessions.size).toBe(0);
	});

	it("keeps a session with a request under way, and starts counting idle time when it finishes", async () => {
		const schedule = vi.spyOn(h.guard.timers, "schedule");
		const sessions = new McpSessions(h.guard.notes, { idleMs: 60 });
		const session = await sessions.open("key:owner", "agent");
		sessions.begin(session);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(sessions.find(session.id, "key:owner")).toBe(session);
		sessions.finish(session);
		await vi.waitFor(() => expect(sessions.find(session.id, "key:owner")).toBeNull(), { timeout: 2000, interval: 10 });
		// Expiry runs on the injected timers, never on a bare global timer.
		expect(schedule.mock.calls.filter(([, ms]) => ms === 60).length).toBeGreaterThanOrEqual(2);
		await sessions.closeAll();
	});

	it("is found only by the key that opened it", async () => {
		const sessions = new McpSessions(h.guard.notes);
		const session = await sessions.open("key:owner", "agent");
		expect(sessions.find(session.id, "key:owner")).toBe(session);
		expect(sessions.find(session.id, "key:someone-else")).toBeNull();
		expect(sessions.find("unknown", "key:owner")).toBeNull();
		await sessions.closeAll();
		expect(sessions.find(session.id, "key:owner")).toBeNull();
	});

	it("makes room past a key's cap by ending that key's least recently used idle session", async () => {
		const sessions = new McpSessions(h.guard.notes, { maxSessionsPerKey: 2 });
		const busy = await sessions.open("key:a", "a");
		sessions.begin(busy);
		const idle = await sessions.open("key:a", "a");
		h.guard.reads.record(idle.client, "a.md", "rev", h.guard.now());
		const third = await sessions.open("key:a", "a");
		expect(sessions.size).toBe(2);
		expect(sessions.find(busy.id, "key:a")).toBe(busy);
		expect(sessions.find(idle.id, "key:a")).toBeNull();
		expect(h.guard.reads.lastRead(idle.client, "a.md")).toBeUndefined();
		expect(sessions.find(third.id, "key:a")).toBe(third);
		await sessions.closeAll();
		expect(sessions.size).toBe(0);
	});

	it("never ends another key's session, however many sessions one key opens", async () => {
		const sessions = new McpSessions(h.guard.notes, { maxSessionsPerKey: 4 });
		const other = await sessions.open("key:other", "other");
		for (let i = 0; i < 64; i++) await sessions.open("key:greedy", "greedy");
		expect(sessions.find(other.id, "key:other")).toBe(other);
		expect(sessions.size).toBe(5);
		await sessions.closeAll();
	});
});
