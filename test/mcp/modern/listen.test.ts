/**
 * subscriptions/listen (MCP 2026-07-28) on note URIs over both gateways, on the raw wire: the stream acknowledges
 * first, then tells of changes made by anyone but this client (the key's stateless requests), never of a note hidden
 * from the key; it ends with nothing left listening when the client goes away; it is capped per key like long-polls.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiServer } from "../../../src/http/server";
import { LISTENS_PER_KEY } from "../../../src/mcp/modern/listen";
import { mcpMount } from "../../../src/mcp/mount";
import { TEST_KEY } from "../../helpers/headless-harness";
import { OTHER_KEY } from "../../http/stacks";
import { connectResources } from "../resource-client";
import { SUBJECT_NAMES, SUBJECTS, type Subject } from "../subjects";
import { modern, modernListen, type ListenStream } from "./modern-client";

const PLAN = "revision-guard://note/Plan.md";
const MARKER = "revision-guard://note/Marker.md";
const SECRET = "revision-guard://note/Private/Secret.md";
const KEYS = [
	{ name: "test-agent", key: TEST_KEY, created: "2026-01-01" },
	{ name: "scoped-agent", key: OTHER_KEY, created: "2026-01-01", read: ["Plan.md", "Marker.md"] },
];

describe.each(SUBJECT_NAMES)("subscriptions/listen over the %s gateway", (name) => {
	let s: Subject;
	let streams: ListenStream[];
	beforeEach(async () => {
		s = await SUBJECTS[name]!({ keys: KEYS });
		await s.create("Plan.md", "# Plan\n");
		await s.create("Marker.md", "marker\n");
		await s.create("Private/Secret.md", "secret\n");
		streams = [];
	});
	afterEach(async () => {
		for (const stream of streams) stream.close();
		expect(s.errors).toEqual([]);
		await s.close();
	});

	const listen = async (uris: string[], options: { key?: string; id?: number | string } = {}) => {
		const stream = await modernListen(s.port, uris, options);
		streams.push(stream);
		return stream;
	};
	const updated = (stream: ListenStream, count: number) =>
		stream.message(count).then((message) => (message.params as { uri: string }).uri);
	const readRevision = async (path: string, key = TEST_KEY) => {
		const read = await modern(s.port, "tools/call", { name: "read_note", arguments: { path } }, { key });
		return (read.result!.structuredContent as { revision: string }).revision;
	};

	it("is advertised by server/discover", async () => {
		const discover = await modern(s.port, "server/discover");
		expect(discover.result!.capabilities).toMatchObject({ resources: { subscribe: true } });
	});

	it("acknowledges first, then tells of an edit made outside, each message naming the stream", async () => {
		const stream = await listen([PLAN], { id: "listen-1" });
		expect(stream.status).toBe(200);
		expect(stream.headers["content-type"]).toBe("text/event-stream");
		expect(stream.headers["x-accel-buffering"]).toBe("no");
		expect(await stream.message(1)).toEqual({
			jsonrpc: "2.0",
			method: "notifications/subscriptions/acknowledged",
			params: {
				notifications: { resourceSubscriptions: [PLAN] },
				_meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" },
			},
		});
		await s.edit("Plan.md", "# Plan\nthe person's line\n");
		expect(await stream.message(2)).toEqual({
			jsonrpc: "2.0",
			method: "notifications/resources/updated",
			params: { uri: PLAN, _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" } },
		});
	});

	it("does not tell of this client's own writes, but of another key's and of a 2025 session's", async () => {
		const stream = await listen([PLAN, MARKER]);
		await stream.message(1);
		await modern(s.port, "tools/call", {
			name: "write_note",
			arguments: { path: "Plan.md", content: "# Plan\nmine\n", revision: await readRevision("Plan.md") },
		});
		// A later change to another followed note is the marker: a notice of the own write would have come before it.
		await s.edit("Marker.md", "marker moved\n");
		expect(await updated(stream, 2)).toBe(MARKER);

		await modern(
			s.port,
			"tools/call",
			{
				name: "write_note",
				arguments: {
					path: "Plan.md",
					content: "# Plan\nanother key's\n",
					revision: await readRevision("Plan.md", OTHER_KEY),
				},
			},
			{ key: OTHER_KEY },
		);
		expect(await updated(stream, 3)).toBe(PLAN);

		const session = await connectResources(s.port, TEST_KEY);
		try {
			const read = await session.call("read_note", { path: "Plan.md" });
			await session.call("write_note", {
				path: "Plan.md",
				content: "# Plan\na session's\n",
				revision: (read.structuredContent as { revision: string }).revision,
			});
			expect(await updated(stream, 4)).toBe(PLAN);
		} finally {
			await session.close();
		}
		expect(stream.messages).toHaveLength(4);
	});

	it("never tells a key of a note hidden from it", async () => {
		const stream = await listen([SECRET, MARKER], { key: OTHER_KEY });
		expect(stream.status).toBe(200);
		await stream.message(1);
		await s.edit("Private/Secret.md", "secret, changed\n");
		await s.edit("Marker.md", "marker moved\n");
		expect(await updated(stream, 2)).toBe(MARKER);
		expect(stream.messages).toHaveLength(2);
	});

	it("ends with nothing left listening when the client goes away", async () => {
		const stopped = vi.fn();
		const notes = s.guard.notes;
		const subscribe = notes.onNoteChanged.bind(notes);
		vi.spyOn(notes, "onNoteChanged").mockImplementation((watcher, listener, wants) => {
			const stop = subscribe(watcher, listener, wants);
			return () => {
				stopped();
				stop();
			};
		});
		const stream = await listen([PLAN, MARKER]);
		await stream.message(1);
		expect(stopped).not.toHaveBeenCalled();
		stream.close();
		await vi.waitFor(() => expect(stopped).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 5 });
	});

	it("answers the listen request itself, closing the stream, when the host stops", async () => {
		const server = new ApiServer({ notes: s.guard.notes, mounts: [mcpMount(s.guard.notes)] });
		const stream = await modernListen(await server.listen(0), [PLAN], { id: 7 });
		await stream.message(1);
		await server.close();
		await stream.ended;
		expect(stream.messages.at(-1)).toEqual({
			jsonrpc: "2.0",
			id: 7,
			result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 7 } },
		});
	});

	it("refuses what cannot be followed, and a filter that is not one", async () => {
		for (const uris of [
			["revision-guard://conflict/x"],
			["revision-guard://note/.obsidian/app.json"],
			["https://example.com/"],
		]) {
			const stream = await listen(uris);
			await stream.ended;
			expect(stream.messages[0]).toMatchObject({ error: { code: -32602 } });
		}
		const answer = await modern(s.port, "subscriptions/listen", {
			notifications: { resourceSubscriptions: "Plan.md" },
		});
		expect(answer.error).toMatchObject({
			code: -32602,
			message: expect.stringContaining("resourceSubscriptions") as string,
		});
		const none = await modern(s.port, "subscriptions/listen", {});
		expect(none.error).toMatchObject({
			code: -32602,
			message: expect.stringContaining("params.notifications") as string,
		});
	});

	it("caps the streams one key holds, with a clear error past the cap, and frees a place when one ends", async () => {
		const held: ListenStream[] = [];
		for (let index = 0; index < LISTENS_PER_KEY; index++) held.push(await listen([PLAN]));
		await Promise.all(held.map((stream) => stream.message(1)));
		const refused = await listen([PLAN]);
		await refused.ended;
		expect(refused.status).toBe(429);
		expect(refused.headers["retry-after"]).toBe("5");
		expect(refused.messages[0]).toMatchObject({
			error: {
				code: -32000,
				message: expect.stringContaining(`already holds ${LISTENS_PER_KEY} subscriptions/listen streams`) as string,
			},
		});
		// Another key is not held back by this one.
		expect((await listen([PLAN], { key: OTHER_KEY })).status).toBe(200);
		held[0]!.close();
		await vi.waitFor(
			async () => {
				const again = await listen([PLAN]);
				expect(again.status).toBe(200);
			},
			{ timeout: 10_000, interval: 20 },
		);
	});
});
