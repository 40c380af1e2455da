/**
 * Elicitation after a stale write, with the official SDK client playing the person: each choice goes through the
 * guarded writer as the person's, against the revision the person was asked about; declining, cancelling, not
 * answering in time and a client that cannot be asked all give today's plain refusal.
 */
import { changeTagOf } from "../../src/core/revision-tokens";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { readFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiServer } from "../../src/http/server";
import { mcpMount } from "../../src/mcp/mount";
import { TEST_KEY } from "../helpers/headless-harness";
import { sha256Token } from "../helpers/vault-files";
import { connectResources, partsOf, untilListening, type Person, type ResourceClient } from "./resource-client";
import { SUBJECT_NAMES, SUBJECTS, type Subject } from "./subjects";

const ORIGINAL = "one\ntwo\nthree\nfour\n";
const PERSON = "ONE\ntwo\nthree\nfour\n";
const AGENT = "one\ntwo\nthree\nFOUR\n";
const MERGED = "ONE\ntwo\nthree\nFOUR\n";

type Asked = ElicitRequest["params"] & { requestedSchema: { properties: { choice: { oneOf: { const: string }[] } } } };

describe.each(SUBJECT_NAMES)("asking the person after a stale write over the %s gateway", (name) => {
	let s: Subject;
	let mcp: ResourceClient | null;
	let asked: Asked[];
	beforeEach(async () => {
		s = await SUBJECTS[name]!();
		await s.create("Plan.md", ORIGINAL);
		mcp = null;
		asked = [];
	});
	afterEach(async () => {
		expect(s.errors).toEqual([]);
		await mcp?.close();
		await s.close();
	});

	const onDisk = async (path = "Plan.md") => (await readFile(join(s.dir, path))).toString("utf8");

	/** Connects a client that answers as `person`, and waits until it listens for server requests. */
	async function connectAs(person: Person): Promise<ResourceClient> {
		mcp = await connectResources(s.port, TEST_KEY, (request) => {
			asked.push(request as Asked);
			return person(request);
		});
		await untilListening(mcp, s);
		return mcp;
	}

	/** Reads, lets the person edit, then writes the agent's stale version. */
	async function staleWrite(client: ResourceClient, content = AGENT) {
		const read = await client.call("read_note", { path: "Plan.md" });
		await s.edit("Plan.md", PERSON);
		return client.call("write_note", {
			path: "Plan.md",
			content,
			revision: (read.structuredContent as { revision: string }).revision,
		});
	}

	const choose =
		(choice: string): Person =>
		() => ({ action: "accept", content: { choice } });
	const offered = () => asked[0]!.requestedSchema.properties.choice.oneOf.map((option) => option.const);

	it("merges both versions as the person's write when the person chooses so", async () => {
		const result = await staleWrite(await connectAs(choose("merge")));
		expect(asked).toHaveLength(1);
		expect(asked[0]!.mode).toBe("form");
		expect(asked[0]!.message).toContain('test-agent tried to change "Plan.md"');
		expect(asked[0]!.requestedSchema).toMatchObject({ type: "object", required: ["choice"] });
		// Headless hosts have no merge modal to offer.
		expect(offered()).toEqual(["merge", "keep", "take"]);
		const { prose, facts } = partsOf(result);
		expect(result.isError).toBe(true);
		expect(prose).toContain("the person chose, in your client, to merge both versions");
		// The agent has not seen the merge: the change tag, not a revision to write over it with.
		expect(facts).toMatchObject({ person: "merge", changeTag: changeTagOf(sha256Token(MERGED)) });
		expect(facts).not.toHaveProperty("currentRevision");
		expect(await onDisk()).toBe(MERGED);
		const conflict = s.guard.conflicts.get(facts.conflictId as string);
		expect(conflict).toMatchObject({ status: "resolved", resolvedBy: "you", resolvedRevision: sha256Token(MERGED) });
		expect(s.guard.history.latest("Plan.md")).toMatchObject({
			revision: sha256Token(MERGED),
			source: { kind: "user" },
		});
	});

	it("takes the agent's version as the person's write", async () => {
		const result = await staleWrite(await connectAs(choose("take")));
		const { prose, facts } = partsOf(result);
		expect(prose).toContain("to take your version");
		expect(facts).toMatchObject({ person: "take", currentRevision: sha256Token(AGENT) });
		expect(await onDisk()).toBe(AGENT);
		expect(s.guard.conflicts.get(facts.conflictId as string)).toMatchObject({
			status: "resolved",
			resolvedBy: "you",
			agentTaken: "whole",
		});
	});

	it("keeps the note when the person chooses so: the conflict is dismissed and the .bak stays", async () => {
		const result = await staleWrite(await connectAs(choose("keep")));
		const { prose, facts } = partsOf(result);
		expect(prose).toContain("to keep the note as it is");
		expect(facts.person).toBe("keep");
		expect(await onDisk()).toBe(PERSON);
		expect(await onDisk(facts.backupPath as string)).toBe(AGENT);
		expect(s.guard.conflicts.get(facts.conflictId as string)?.status).toBe("dismissed");
	});

	it("offers and opens the host's merge modal when the host has one", async () => {
		const opened: string[] = [];
		const withdraw = s.guard.notes.mergeModal.offer((id) => opened.push(id));
		try {
			const result = await staleWrite(await connectAs(choose("open")));
			expect(offered()).toEqual(["merge", "keep", "take", "open"]);
			const { prose, facts } = partsOf(result);
			expect(opened).toEqual([facts.conflictId]);
			expect(prose).toContain("call conflict_status");
			expect(await onDisk()).toBe(PERSON);
			expect(s.guard.conflicts.get(facts.conflictId as string)?.status).toBe("open");
		} finally {
			withdraw();
		}
	});

	it("does not offer a merge when the changes overlap", async () => {
		await staleWrite(await connectAs(choose("keep")), "one (the agent's)\ntwo\nthree\nfour\n");
		expect(offered()).toEqual(["keep", "take"]);
	});

	it("writes nothing when the note changed again while the person chose", async () => {
		const newest = "ONE\ntwo\nthree\nfour\nfive, by the person\n";
		const result = await staleWrite(
			await connectAs(async () => {
				await s.edit("Plan.md", newest);
				return { action: "accept", content: { choice: "take" } };
			}),
		);
		const { prose, facts } = partsOf(result);
		expect(prose).toContain("the note changed again meanwhile, so nothing was written");
		expect(prose).toContain("changed since you read it");
		expect(facts.person).toBe("take-not-written");
		expect(await onDisk()).toBe(newest);
		expect(s.guard.conflicts.get(facts.conflictId as string)?.status).toBe("open");
	});

	it.each([
		["decline", "declined to choose", "declined"],
		["cancel", "dismissed the question", "cancelled"],
	] as const)("answers %s with the plain refusal, changing nothing", async (action, words, person) => {
		const result = await staleWrite(await connectAs(() => ({ action })));
		const { prose, facts, links } = partsOf(result);
		expect(prose).toContain(words);
		expect(prose).toContain("changed since you read it");
		expect(facts).toMatchObject({ error: "stale-revision", person });
		expect(links).toHaveLength(3);
		expect(await onDisk()).toBe(PERSON);
		expect(s.guard.conflicts.get(facts.conflictId as string)?.status).toBe("open");
	});

	it("asks one question per session at a time: a second stale write meanwhile gets the plain refusal", async () => {
		await s.create("Other.md", ORIGINAL);
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		const client = await connectAs(async () => {
			if (asked.length > 1) return { action: "decline" };
			await held;
			return { action: "accept", content: { choice: "keep" } };
		});
		const reads = await Promise.all(["Plan.md", "Other.md"].map((path) => client.call("read_note", { path })));
		await s.edit("Plan.md", PERSON);
		await s.edit("Other.md", PERSON);
		const writes = ["Plan.md", "Other.md"].map((path, index) =>
			client.call("write_note", {
				path,
				content: AGENT,
				revision: (reads[index]!.structuredContent as { revision: string }).revision,
			}),
		);
		// The write not being asked about answers while the other question is still open.
		const first = partsOf(await Promise.race(writes));
		expect(first.prose.startsWith("Refused:")).toBe(true);
		expect(first.facts.person).toBeUndefined();
		expect(asked).toHaveLength(1);
		release();
		const answers = (await Promise.all(writes)).map((result) => partsOf(result).facts.person);
		expect(answers.sort()).toEqual(["keep", undefined]);
	});

	it("does not ask about a refused delete: it kept nothing to choose between", async () => {
		const client = await connectAs(choose("take"));
		const read = await client.call("read_note", { path: "Plan.md" });
		await s.edit("Plan.md", PERSON);
		const result = await client.call("delete_note", {
			path: "Plan.md",
			revision: (read.structuredContent as { revision: string }).revision,
		});
		expect(partsOf(result).prose.startsWith("Refused:")).toBe(true);
		expect(asked).toEqual([]);
		expect(await onDisk()).toBe(PERSON);
	});

	it("gives the plain refusal for an answer that is not one of the choices offered", async () => {
		const result = await staleWrite(await connectAs(choose("overwrite everything")));
		const { prose, facts } = partsOf(result);
		expect(prose).toContain("no choice came back");
		expect(facts.person).toBe("failed");
		expect(await onDisk()).toBe(PERSON);
		expect(s.guard.conflicts.get(facts.conflictId as string)?.status).toBe("open");
	});

	it("gives the plain refusal to a client that cannot be asked", async () => {
		mcp = await connectResources(s.port, TEST_KEY);
		const result = await staleWrite(mcp);
		const { prose, facts } = partsOf(result);
		expect(prose.startsWith("Refused:")).toBe(true);
		expect(facts.person).toBeUndefined();
		expect(await onDisk()).toBe(PERSON);
	});
});

describe("asking the person, bounded", () => {
	let s: Subject;
	let server: ApiServer;
	beforeEach(async () => {
		s = await SUBJECTS["node filesystem"]!();
		await s.create("Plan.md", ORIGINAL);
		server = new ApiServer({ notes: s.guard.notes, mounts: [mcpMount(s.guard.notes, { askTimeoutMs: 200 })] });
	});
	afterEach(async () => {
		await server.close();
		await s.close();
	});

	it("stops waiting for an answer that does not come, and gives the plain refusal", async () => {
		let answer: (result: ElicitResult) => void = () => undefined;
		const mcp = await connectResources(
			await server.listen(0),
			TEST_KEY,
			() => new Promise<ElicitResult>((resolve) => (answer = resolve)),
		);
		try {
			await untilListening(mcp, s);
			const read = await mcp.call("read_note", { path: "Plan.md" });
			await s.edit("Plan.md", PERSON);
			const result = await mcp.call("write_note", {
				path: "Plan.md",
				content: AGENT,
				revision: (read.structuredContent as { revision: string }).revision,
			});
			const { prose, facts } = partsOf(result);
			expect(prose).toContain("did not answer in time");
			expect(facts.person).toBe("timed-out");
			expect(s.guard.conflicts.get(facts.conflictId as string)?.status).toBe("open");
		} finally {
			answer({ action: "cancel" });
			await mcp.close();
		}
	});
});
