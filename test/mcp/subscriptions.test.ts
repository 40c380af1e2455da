/**
 * resources/subscribe over both gateways, with the official SDK client: a subscribed session is told when someone
 * else changes the note (an edit outside, another session's write), never about its own writes; unsubscribing and
 * ending the session stop it; and a session's subscriptions are capped.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mcpMount } from "../../src/mcp/mount";
import { ApiServer } from "../../src/http/server";
import type { NoteChange } from "../../src/service/notes/agent-notes";
import { TEST_KEY } from "../helpers/headless-harness";
import { sha256Token } from "../helpers/vault-files";
import { connectResources, untilListening, type ResourceClient } from "./resource-client";
import { SUBJECT_NAMES, SUBJECTS, type Subject } from "./subjects";
import { PERSON } from "../../src/service/notes/actor";

const PLAN = "revision-guard://note/Plan.md";
const MARKER = "revision-guard://note/Marker.md";

describe.each(SUBJECT_NAMES)("MCP subscriptions over the %s gateway", (name) => {
	let s: Subject;
	let mcp: ResourceClient;
	let changes: NoteChange[];
	let stopWatching: () => void;
	beforeEach(async () => {
		s = await SUBJECTS[name]!();
		await s.create("Plan.md", "# Plan\n");
		await s.create("Marker.md", "marker\n");
		mcp = await connectResources(s.port, TEST_KEY);
		await untilListening(mcp, s);
		changes = [];
		stopWatching = () => undefined;
	});
	afterEach(async () => {
		stopWatching();
		expect(s.errors).toEqual([]);
		await mcp.close();
		await s.close();
	});

	/** Sees every change the service's change feed reports, to know when one has been handled. */
	const watchFeed = () => {
		stopWatching = s.guard.notes.onNoteChanged(
			() => PERSON,
			(change) => void changes.push(change),
		);
	};
	const fedRevision = (path: string, content: string) =>
		vi.waitFor(
			() =>
				expect(changes.some((change) => change.path === path && change.revision === sha256Token(content))).toBe(true),
			{ timeout: 20_000, interval: 5 },
		);

	it("declares subscriptions, and tells a subscribed session about an edit made outside", async () => {
		expect(mcp.client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: false });
		await mcp.client.subscribeResource({ uri: PLAN });
		await s.edit("Plan.md", "# Plan\nthe person's line\n");
		await mcp.updated(PLAN);
		expect(mcp.updates).toEqual([PLAN]);
		// The agent re-reads before it writes.
		const read = await mcp.client.readResource({ uri: PLAN });
		expect(read.contents[0]).toMatchObject({ text: "# Plan\nthe person's line\n" });
	});

	it("tells a subscribed session about another session's write (same key), but never about its own", async () => {
		await mcp.client.subscribeResource({ uri: PLAN });
		await mcp.client.subscribeResource({ uri: MARKER });
		watchFeed();
		const own = await mcp.call("read_note", { path: "Plan.md" });
		await mcp.call("write_note", {
			path: "Plan.md",
			content: "# Plan\nmine\n",
			revision: (own.structuredContent as { revision: string }).revision,
		});
		await fedRevision("Plan.md", "# Plan\nmine\n");
		expect(changes.find((change) => change.path === "Plan.md")?.by).toMatchObject({
			kind: "agent",
			name: "test-agent",
		});
		// A later change to another subscribed note is the marker: a notice of the own write would have come before it.
		await s.edit("Marker.md", "marker moved\n");
		await mcp.updated(MARKER);
		expect(mcp.updates).toEqual([MARKER]);

		const other = await connectResources(s.port, TEST_KEY);
		try {
			const read = await other.call("read_note", { path: "Plan.md" });
			await other.call("write_note", {
				path: "Plan.md",
				content: "# Plan\nanother session's\n",
				revision: (read.structuredContent as { revision: string }).revision,
			});
			await mcp.updated(PLAN);
			expect(mcp.updates).toEqual([MARKER, PLAN]);
			// The writer is not told about its own write (it never subscribed, and would not be told if it had).
			expect(other.updates).toEqual([]);
		} finally {
			await other.close();
		}
	});

	it("stops telling after resources/unsubscribe", async () => {
		await mcp.client.subscribeResource({ uri: PLAN });
		await mcp.client.subscribeResource({ uri: MARKER });
		watchFeed();
		await mcp.client.unsubscribeResource({ uri: PLAN });
		await s.edit("Plan.md", "# Plan\nunseen\n");
		await fedRevision("Plan.md", "# Plan\nunseen\n");
		await s.edit("Marker.md", "marker moved\n");
		await mcp.updated(MARKER);
		expect(mcp.updates).toEqual([MARKER]);
	});

	it("ends a session's subscriptions with the session", async () => {
		const stopped = vi.fn();
		const notes = s.guard.notes;
		const subscribe = notes.onNoteChanged.bind(notes);
		vi.spyOn(notes, "onNoteChanged").mockImplementation((listener, wants) => {
			const stop = subscribe(listener, wants);
			return () => {
				stopped();
				stop();
			};
		});
		await mcp.client.subscribeResource({ uri: PLAN });
		expect(stopped).not.toHaveBeenCalled();
		await mcp.transport.terminateSession();
		expect(stopped).toHaveBeenCalledTimes(1);
	});

	it("refuses what cannot be subscribed to: a conflict, a path outside the policy", async () => {
		for (const uri of [
			"revision-guard://conflict/x",
			"revision-guard://note/.obsidian/app.json",
			"https://example.com/",
		]) {
			const error = await mcp.client.subscribeResource({ uri }).catch((caught: unknown) => caught);
			expect(error, uri).toBeInstanceOf(McpError);
			expect((error as McpError).code).toBe(-32602);
		}
	});
});

describe("MCP subscription limits", () => {
	let s: Subject;
	let server: ApiServer;
	let mcp: ResourceClient;
	beforeEach(async () => {
		s = await SUBJECTS["node filesystem"]!();
		server = new ApiServer({
			notes: s.guard.notes,
			mounts: [mcpMount(s.guard.notes, { maxSubscriptionsPerSession: 2 })],
		});
		mcp = await connectResources(await server.listen(0), TEST_KEY);
		await untilListening(mcp, s);
	});
	afterEach(async () => {
		await mcp.close();
		await server.close();
		await s.close();
	});

	it("caps the notes one session follows; repeating a subscription or freeing one makes no trouble", async () => {
		await mcp.client.subscribeResource({ uri: "revision-guard://note/a.md" });
		await mcp.client.subscribeResource({ uri: "revision-guard://note/b.md" });
		await mcp.client.subscribeResource({ uri: "revision-guard://note/a.md" });
		const error = await mcp.client
			.subscribeResource({ uri: "revision-guard://note/c.md" })
			.catch((caught: unknown) => caught);
		expect((error as McpError).message).toContain("already follows 2 notes");
		await mcp.client.unsubscribeResource({ uri: "revision-guard://note/b.md" });
		await mcp.client.subscribeResource({ uri: "revision-guard://note/c.md" });
		// A note that does not exist yet may be followed: its creation is a change like any other.
		await s.create("c.md", "new\n");
		await mcp.updated("revision-guard://note/c.md");
	});
});
