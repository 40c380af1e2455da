/**
 * Over MCP too, two tokenless write_note calls sent together after one read are both based on that read: one lands,
 * the other is refused with a .bak. Sent as parallel requests, the second call is made to arrive while the first is in
 * the middle of its write step (held there by a hook), so this does not depend on timing. Sent as one JSON-RPC batch
 * (which MCP 2025-06-18 and later no longer define, but the SDK's transport still accepts, as 2025-03-26 clients send
 * them), both calls reach the writer before either is written. Without a session, nothing read is remembered, so
 * tokenless writes are refused outright; with the revision, one lands and the other is stale. Exact edits to
 * different parts of a note, by contrast, both land.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { sha256Token, visibleFiles, writeVaultFile } from "../helpers/vault-files";
import { onNoteWriteStep } from "../helpers/write-step-hook";
import {
	connect,
	connectStateless,
	postMcp,
	rawSession,
	toolCall,
	toolResults,
	type Connected,
	type ToolResult,
} from "./mcp-client";

const NOTE = "read once\n";
const AUTH = { Authorization: `Bearer ${TEST_KEY}` };
const PROTOCOL = { "Mcp-Protocol-Version": "2025-11-25" };

let h: Harness;
beforeEach(async () => {
	h = await startHeadless();
	await writeVaultFile(h.dir, "Plan.md", NOTE);
});
afterEach(async () => {
	vi.restoreAllMocks();
	await h.close();
	expect(h.errors).toEqual([]);
});

const onDisk = async (path: string) => (await readFile(join(h.dir, path))).toString("utf8");

/** Makes `second` arrive while the first call is inside its write step, and waits until it has reached the writer. */
function whileFirstIsWriting(second: () => Promise<ToolResult>): () => Promise<ToolResult> {
	const write = vi.spyOn(h.guard.writer, "write");
	let started: Promise<ToolResult> | null = null;
	onNoteWriteStep(h.dir, "Plan.md", async () => {
		if (started) return;
		started = second();
		while (write.mock.calls.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
	});
	return () => started!;
}

/** One landed and one was refused as stale, its content kept: what lost the race is never lost. */
async function expectOneLandedOneKept(
	results: ToolResult[],
	contents: string[],
	details: Record<string, unknown>,
): Promise<void> {
	const landed = results.filter((result) => !result.isError);
	const refused = results.filter((result) => result.isError);
	expect(landed).toHaveLength(1);
	expect(refused).toHaveLength(1);
	expect(refused[0]!.details).toMatchObject({ error: "stale-revision", ...details });
	const winner = contents[results.indexOf(landed[0]!)]!;
	const loser = contents[results.indexOf(refused[0]!)]!;
	expect(await onDisk("Plan.md")).toBe(winner);
	expect(await onDisk(refused[0]!.details!.backupPath as string)).toBe(loser);
}

describe("parallel tokenless write_note calls in one session", () => {
	let mcp: Connected;
	beforeEach(async () => {
		mcp = await connect(h.port, TEST_KEY);
	});
	afterEach(async () => {
		await mcp.close();
	});

	it("as parallel requests: lands one and refuses the other, keeping its content", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		const second = whileFirstIsWriting(() => mcp.tool("write_note", { path: "Plan.md", content: "second\n" }));
		const first = await mcp.tool("write_note", { path: "Plan.md", content: "first\n" });
		await expectOneLandedOneKept([first, await second()], ["first\n", "second\n"], { implicitRevision: true });
	});

	it("as parallel requests: holds each to what the session had read when it was SENT, even when the first has landed before the second reaches the writer", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		// The second call arrives first, but reaches the writer only once the first call's write has landed.
		const write = h.guard.notes.write.bind(h.guard.notes);
		let firstLanded!: () => void;
		const landed = new Promise<void>((resolve) => (firstLanded = resolve));
		let secondArrived!: () => void;
		const arrived = new Promise<void>((resolve) => (secondArrived = resolve));
		vi.spyOn(h.guard.notes, "write").mockImplementation(async (request) => {
			if (request.operation.kind === "replace" && request.operation.body === "second\n") {
				secondArrived();
				await landed;
			}
			return write(request);
		});
		const second = mcp.tool("write_note", { path: "Plan.md", content: "second\n" });
		await arrived;
		const first = await mcp.tool("write_note", { path: "Plan.md", content: "first\n" });
		expect(first.isError).toBeFalsy();
		firstLanded();
		await expectOneLandedOneKept([first, await second], ["first\n", "second\n"], { implicitRevision: true });
	});

	it("as parallel requests: two exact edits to different parts of the note both land", async () => {
		await writeVaultFile(h.dir, "Plan.md", "# Plan\n\n- one\n- two\n");
		const second = whileFirstIsWriting(() =>
			mcp.tool("edit_note", { path: "Plan.md", edits: [{ old_string: "- two", new_string: "- two (second)" }] }),
		);
		const first = await mcp.tool("edit_note", {
			path: "Plan.md",
			edits: [{ old_string: "- one", new_string: "- one (first)" }],
		});
		expect([first.isError, (await second()).isError]).toEqual([false, false]);
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- one (first)\n- two (second)\n");
	});
});

describe("a JSON-RPC batch of tokenless write_note calls in one session", () => {
	it("lands one and refuses the other, keeping its content", async () => {
		const id = await rawSession(h.port, TEST_KEY);
		const headers = { ...AUTH, ...PROTOCOL, "Mcp-Session-Id": id };
		const read = await postMcp(h.port, toolCall(1, "read_note", { path: "Plan.md" }), headers);
		expect(toolResults(read.json())[0]!.structured).toMatchObject({ revision: sha256Token(NOTE) });
		const batch = await postMcp(
			h.port,
			[
				toolCall(2, "write_note", { path: "Plan.md", content: "first\n" }),
				toolCall(3, "write_note", { path: "Plan.md", content: "second\n" }),
			],
			headers,
		);
		expect(batch.status).toBe(200);
		const results = toolResults(batch.json());
		expect(results).toHaveLength(2);
		await expectOneLandedOneKept(results, ["first\n", "second\n"], { implicitRevision: true });
	});

	it("lands both exact edits to different parts of the note", async () => {
		await writeVaultFile(h.dir, "Plan.md", "# Plan\n\n- one\n- two\n");
		const id = await rawSession(h.port, TEST_KEY);
		const edits = [
			toolCall(1, "edit_note", { path: "Plan.md", edits: [{ old_string: "- one", new_string: "- 1" }] }),
			toolCall(2, "edit_note", { path: "Plan.md", edits: [{ old_string: "- two", new_string: "- 2" }] }),
		];
		const results = toolResults((await postMcp(h.port, edits, { ...AUTH, ...PROTOCOL, "Mcp-Session-Id": id })).json());
		expect(results.map((result) => result.isError)).toEqual([false, false]);
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- 1\n- 2\n");
	});
});

describe("parallel write_note calls without a session", () => {
	let mcp: Connected;
	beforeEach(async () => {
		mcp = await connectStateless(h.port, TEST_KEY);
	});
	afterEach(async () => {
		await mcp.close();
	});

	it("tokenless, as parallel requests or a batch: both are refused (nothing read is remembered), nothing is written or kept", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		// Refused before any write step, whatever the order they arrive in: no hook is needed to make them overlap.
		const results = await Promise.all([
			mcp.tool("write_note", { path: "Plan.md", content: "first\n" }),
			mcp.tool("write_note", { path: "Plan.md", content: "second\n" }),
		]);
		const batch = await postMcp(
			h.port,
			[
				toolCall(1, "write_note", { path: "Plan.md", content: "third\n" }),
				toolCall(2, "write_note", { path: "Plan.md", content: "fourth\n" }),
			],
			AUTH,
		);
		for (const result of [...results, ...toolResults(batch.json())])
			expect(result.details).toMatchObject({ error: "precondition-required" });
		expect(await onDisk("Plan.md")).toBe(NOTE);
		expect(await visibleFiles(h.dir)).toEqual(["Plan.md"]);
	});

	it("with the revision read, as parallel requests: lands one and refuses the other, keeping its content", async () => {
		const { revision } = (await mcp.tool("read_note", { path: "Plan.md" })).structured as { revision: string };
		const second = whileFirstIsWriting(() =>
			mcp.tool("write_note", { path: "Plan.md", content: "second\n", revision }),
		);
		const first = await mcp.tool("write_note", { path: "Plan.md", content: "first\n", revision });
		await expectOneLandedOneKept([first, await second()], ["first\n", "second\n"], { sentRevision: revision });
	});

	it("with the revision read, as a batch: lands one and refuses the other, keeping its content", async () => {
		const revision = sha256Token(NOTE);
		const batch = await postMcp(
			h.port,
			[
				toolCall(1, "write_note", { path: "Plan.md", content: "first\n", revision }),
				toolCall(2, "write_note", { path: "Plan.md", content: "second\n", revision }),
			],
			AUTH,
		);
		await expectOneLandedOneKept(toolResults(batch.json()), ["first\n", "second\n"], { sentRevision: revision });
	});

	it("exact edits to different parts of the note, as parallel requests: both land", async () => {
		await writeVaultFile(h.dir, "Plan.md", "# Plan\n\n- one\n- two\n");
		const second = whileFirstIsWriting(() =>
			mcp.tool("edit_note", { path: "Plan.md", edits: [{ old_string: "- two", new_string: "- 2" }] }),
		);
		const first = await mcp.tool("edit_note", { path: "Plan.md", edits: [{ old_string: "- one", new_string: "- 1" }] });
		expect([first.isError, (await second()).isError]).toEqual([false, false]);
		expect(await onDisk("Plan.md")).toBe("# Plan\n\n- 1\n- 2\n");
	});
});
