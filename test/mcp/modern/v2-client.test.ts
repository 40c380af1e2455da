/**
 * The official v2 client (`@modelcontextprotocol/client`, pinned to 2026-07-28) against our server over both gateways:
 * it connects with server/discover, lists and calls tools, reads a note as a resource, writes over a revision, gets
 * a stale write refused (no elicitation declared), has the person's merge question asked and answered through its own
 * elicitation handler (the client retries with inputResponses and the echoed requestState by itself), and follows a
 * note with subscriptions/listen. Exact headers and error codes are the raw-wire tests' job (requests.test.ts).
 */
import {
	Client,
	StreamableHTTPClientTransport,
	type ClientCapabilities,
	type ClientOptions,
} from "@modelcontextprotocol/client";
import { readFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiServer } from "../../../src/http/server";
import { mcpMount } from "../../../src/mcp/mount";
import { TEST_KEY } from "../../helpers/headless-harness";
import { sha256Token } from "../../helpers/vault-files";
import { SUBJECT_NAMES, SUBJECTS, type Subject } from "../subjects";
import { MODERN } from "./modern-client";

const PLAN_URI = "revision-guard://note/Plan.md";
const ORIGINAL = "one\ntwo\nthree\nfour\n";
const PERSON = "ONE\ntwo\nthree\nfour\n";
const AGENT = "one\ntwo\nthree\nFOUR\n";
const MERGED = "ONE\ntwo\nthree\nFOUR\n";

interface ToolOutcome {
	isError: boolean;
	prose: string;
	/** structuredContent of a success; the JSON facts block of a refusal. */
	facts: Record<string, unknown>;
}

describe.each(SUBJECT_NAMES)("the official v2 client, pinned to 2026-07-28, over the %s gateway", (name) => {
	let s: Subject;
	let clients: Client[];
	beforeEach(async () => {
		s = await SUBJECTS[name]!();
		await s.create("Plan.md", ORIGINAL);
		clients = [];
	});
	afterEach(async () => {
		for (const client of clients) await client.close();
		expect(s.errors).toEqual([]);
		await s.close();
	});

	/** The v2 client on `port` with the test key: pinned to 2026-07-28 unless `negotiation` says otherwise. */
	async function connectV2(
		options: {
			capabilities?: ClientCapabilities;
			negotiation?: ClientOptions["versionNegotiation"];
			port?: number;
		} = {},
	): Promise<Client> {
		const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${options.port ?? s.port}/mcp`), {
			requestInit: { headers: { Authorization: `Bearer ${TEST_KEY}` } },
		});
		const client = new Client(
			{ name: "revision-guard-v2-test", version: "1.0.0" },
			{
				versionNegotiation: "negotiation" in options ? options.negotiation : { mode: { pin: MODERN } },
				capabilities: options.capabilities ?? {},
			},
		);
		await client.connect(transport);
		clients.push(client);
		return client;
	}

	async function tool(client: Client, toolName: string, args: Record<string, unknown>): Promise<ToolOutcome> {
		const result = await client.callTool({ name: toolName, arguments: args });
		const texts = (result.content as { type: string; text?: string }[])
			.filter((block) => block.type === "text")
			.map((block) => block.text!);
		const isError = result.isError === true;
		return {
			isError,
			prose: texts[0] ?? "",
			facts: isError
				? texts[1]
					? (JSON.parse(texts[1]) as Record<string, unknown>)
					: {}
				: (result.structuredContent as Record<string, unknown>),
		};
	}

	it("is chosen by a client that negotiates (auto), and a v2 client left at its default gets a 2025 session", async () => {
		for (const [negotiation, era] of [
			[{ mode: "auto" }, "modern"],
			[undefined, "legacy"],
		] as const) {
			const client = await connectV2({ negotiation });
			expect(client.getProtocolEra()).toBe(era);
			expect(
				(await client.callTool({ name: "read_note", arguments: { path: "Plan.md" } })).structuredContent,
			).toMatchObject({ content: ORIGINAL });
		}
	});

	const onDisk = async (path: string) => (await readFile(join(s.dir, path))).toString("utf8");
	const revisionOf = async (client: Client, path: string) =>
		(await tool(client, "read_note", { path })).facts.revision as string;

	it("connects with server/discover, stateless, and lists the tools", async () => {
		const client = await connectV2();
		expect(client.getProtocolEra()).toBe("modern");
		expect(client.getServerVersion()).toMatchObject({ name: "revision-guard" });
		expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: { subscribe: true } });
		const names = (await client.listTools()).tools.map((listed) => listed.name);
		expect(names).toEqual(expect.arrayContaining(["read_note", "write_note", "edit_note"]));
	});

	it("reads a note, and replaces it only over the revision it read", async () => {
		const client = await connectV2();
		const read = await tool(client, "read_note", { path: "Plan.md" });
		expect(read.facts).toEqual({ path: "Plan.md", content: ORIGINAL, revision: sha256Token(ORIGINAL) });
		const tokenless = await tool(client, "write_note", { path: "Plan.md", content: AGENT });
		expect(tokenless.isError).toBe(true);
		expect(tokenless.facts).toMatchObject({ error: "precondition-required" });
		expect(await onDisk("Plan.md")).toBe(ORIGINAL);
		const written = await tool(client, "write_note", {
			path: "Plan.md",
			content: AGENT,
			revision: read.facts.revision,
		});
		expect(written).toMatchObject({ isError: false, facts: { revision: sha256Token(AGENT), created: false } });
		expect(await onDisk("Plan.md")).toBe(AGENT);
	});

	it("refuses a stale write from a client that declared no elicitation, and keeps the person's version", async () => {
		const client = await connectV2();
		const revision = await revisionOf(client, "Plan.md");
		await s.edit("Plan.md", PERSON);
		const stale = await tool(client, "write_note", { path: "Plan.md", content: AGENT, revision });
		expect(stale.isError).toBe(true);
		expect(stale.prose.startsWith("Refused:")).toBe(true);
		expect(stale.facts).toMatchObject({ error: "stale-revision" });
		expect(stale.facts.person).toBeUndefined();
		expect(await onDisk("Plan.md")).toBe(PERSON);
	});

	it("asks the person through the client's elicitation handler and merges as the person on its retry", async () => {
		const client = await connectV2({ capabilities: { elicitation: { form: {} } } });
		const asked: { message: string; choices: string[] }[] = [];
		client.setRequestHandler("elicitation/create", (request) => {
			const params = request.params as unknown as {
				message: string;
				requestedSchema: { properties: { choice: { oneOf: { const: string }[] } } };
			};
			asked.push({
				message: params.message,
				choices: params.requestedSchema.properties.choice.oneOf.map((option) => option.const),
			});
			return { action: "accept", content: { choice: "merge" } };
		});
		const revision = await revisionOf(client, "Plan.md");
		await s.edit("Plan.md", PERSON);
		const answered = await tool(client, "write_note", { path: "Plan.md", content: AGENT, revision });
		expect(asked).toHaveLength(1);
		expect(asked[0]!.message).toContain('tried to change "Plan.md"');
		expect(asked[0]!.choices).toEqual(["merge", "keep", "take"]);
		expect(answered.prose).toContain("the person chose, in your client, to merge both versions");
		expect(answered.facts).toMatchObject({ error: "stale-revision", person: "merge" });
		expect(await onDisk("Plan.md")).toBe(MERGED);
		expect(s.guard.history.latest("Plan.md")).toMatchObject({
			revision: sha256Token(MERGED),
			source: { kind: "user" },
		});
	});

	it("reads a note as a resource, with its revision and a cache hint that never outlives a change", async () => {
		const client = await connectV2();
		const listed = await client.listResources();
		expect(listed.resources.map((resource) => resource.uri)).toContain(PLAN_URI);
		const read = await client.readResource({ uri: PLAN_URI });
		expect(read).toMatchObject({ ttlMs: 0, cacheScope: "private" });
		expect(read.contents).toEqual([
			expect.objectContaining({
				uri: PLAN_URI,
				text: ORIGINAL,
				_meta: expect.objectContaining({ revision: sha256Token(ORIGINAL) }),
			}),
		]);
		// The client's own cache (on by default) keeps nothing whose ttlMs is 0: the person's edit is read at once.
		await s.edit("Plan.md", PERSON);
		const again = await client.readResource({ uri: PLAN_URI });
		expect(again.contents[0]).toMatchObject({ text: PERSON });
	});

	it("follows a note with subscriptions/listen: a person's edit is announced, and close ends the stream", async () => {
		const client = await connectV2();
		const updates: string[] = [];
		let announced: () => void = () => undefined;
		const firstUpdate = new Promise<void>((resolve) => (announced = resolve));
		client.setNotificationHandler("notifications/resources/updated", (notification) => {
			updates.push(notification.params.uri);
			announced();
		});
		// The server stops watching the note once the stream is gone.
		const notes = s.guard.notes;
		const watch = notes.onNoteChanged.bind(notes);
		let released: () => void = () => undefined;
		const watcherReleased = new Promise<void>((resolve) => (released = resolve));
		vi.spyOn(notes, "onNoteChanged").mockImplementation((watcher, listener, wants) => {
			const stop = watch(watcher, listener, wants);
			return () => {
				released();
				stop();
			};
		});
		const subscription = await client.listen({ resourceSubscriptions: [PLAN_URI] });
		expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [PLAN_URI] });
		await s.edit("Plan.md", PERSON);
		await firstUpdate;
		expect(updates).toEqual([PLAN_URI]);
		await subscription.close();
		expect(await subscription.closed).toBe("local");
		await watcherReleased;
	});

	it("sees the listen end gracefully when the host stops", async () => {
		const server = new ApiServer({ notes: s.guard.notes, mounts: [mcpMount(s.guard.notes)] });
		const port = await server.listen(0);
		const client = await connectV2({ port });
		const subscription = await client.listen({ resourceSubscriptions: [PLAN_URI] });
		await server.close();
		expect(await subscription.closed).toBe("graceful");
	});
});
