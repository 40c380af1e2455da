/**
 * A change to a note the key may only propose to, as each surface answers it (issue 24), over both gateways: REST
 * 202 Accepted with a Location to follow and `{proposalId, path, backupPath, status}`; MCP (our tools and the Local
 * REST API's) a result that is not an error and names proposal_status; the CLI an answer that is ok and says the same.
 * The note is never touched. Without a proposal sink every surface answers 403 scope-forbidden instead.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProposalSink } from "../../src/service/proposals/proposal-sink";
import type { WriteRequest } from "../../src/service/write/write-request";
import type { AgentKey } from "../../src/settings";
import { startCli, type CliHarness } from "../cli/cli-harness";
import { connect } from "../mcp/mcp-client";
import { writeVaultFile } from "../helpers/vault-files";
import { STACKS, TWO_KEYS, type Stack } from "./stacks";

const SCOPED_KEY = "scoped-key-0123456789abcdef0123456789abcdef";
const SCOPED: AgentKey = {
	name: "drafter",
	key: SCOPED_KEY,
	created: "2026-01-01",
	read: ["**"],
	write: ["Open/**"],
	propose: ["Drafts/**"],
};
const DRAFT = "# Draft\n\n## Part\n\ntext\n";

class FakeSink implements ProposalSink {
	readonly received: WriteRequest[] = [];
	async propose(request: WriteRequest) {
		this.received.push(request);
		const id = `p-${this.received.length}`;
		return { kind: "proposed" as const, id, path: request.path, backupPath: `Drafts/draft.${id}.bak.md` };
	}
}

const scoped = { Authorization: `Bearer ${SCOPED_KEY}` };

for (const [name, start] of Object.entries(STACKS)) {
	describe(`a proposal as each surface answers it (${name})`, () => {
		let dir: string;
		let s: Stack;
		let sink: FakeSink;
		beforeEach(async () => {
			dir = await mkdtemp(join(tmpdir(), "rg-proposed-"));
			await writeVaultFile(dir, "Drafts/draft.md", DRAFT);
			sink = new FakeSink();
			s = await start(dir, { settings: { keys: [...TWO_KEYS, SCOPED] }, proposals: sink });
		});
		afterEach(async () => {
			await s.close();
			await rm(dir, { recursive: true, force: true });
		});

		it("REST answers PUT, POST and PATCH with 202, a Location to follow, and the proposal; the note is untouched", async () => {
			const read = await s.api("/vault/Drafts/draft.md", { headers: scoped });
			expect(read.status).toBe(200);
			const put = await s.api("/vault/Drafts/draft.md", {
				method: "PUT",
				headers: { ...scoped, "If-Match": read.headers.etag as string },
				body: "# Draft, better\n",
			});
			expect(put.status).toBe(202);
			expect(put.headers.location).toBe("/proposals/p-1");
			expect(put.json()).toMatchObject({
				proposalId: "p-1",
				path: "Drafts/draft.md",
				backupPath: "Drafts/draft.p-1.bak.md",
				status: "pending",
			});
			expect(put.json<{ detail: string }>().detail).toContain("GET /proposals/p-1?wait=");
			expect((await s.api("/vault/Drafts/draft.md", { method: "POST", headers: scoped, body: "more\n" })).status).toBe(
				202,
			);
			const patch = await s.api("/vault/Drafts/draft.md/heading/Draft/Part", {
				method: "PATCH",
				headers: { ...scoped, "Content-Type": "text/markdown", Operation: "append" },
				body: "added\n",
			});
			expect(patch.status).toBe(202);
			expect(sink.received.map((request) => request.operation.kind)).toEqual(["replace", "append", "patch"]);
			expect(await s.file("Drafts/draft.md")).toBe(DRAFT);
		});

		it("MCP answers our write tools with a result that is not an error, names proposal_status, and fits each tool's output schema", async () => {
			const mcp = await connect(s.port, SCOPED_KEY);
			try {
				const read = await mcp.tool("read_note", { path: "Drafts/draft.md" });
				const revision = (read.structured as { revision: string }).revision;
				for (const [tool, args] of [
					["write_note", { path: "Drafts/draft.md", content: "# Better\n", revision }],
					["append_note", { path: "Drafts/draft.md", content: "more\n" }],
					["edit_note", { path: "Drafts/draft.md", edits: [{ old_string: "text", new_string: "words" }] }],
					[
						"patch_note",
						{
							path: "Drafts/draft.md",
							target_type: "heading",
							target: "Draft::Part",
							operation: "append",
							content: "added\n",
							revision,
						},
					],
				] as const) {
					const result = await mcp.tool(tool, args);
					expect(result.isError, `${tool}: ${result.text}`).toBeFalsy();
					expect(result.structured, tool).toMatchObject({
						path: "Drafts/draft.md",
						status: "pending",
						proposalId: expect.stringMatching(/^p-/),
					});
					expect(result.text, tool).toContain("proposal_status");
				}
			} finally {
				await mcp.close();
			}
			expect(await s.file("Drafts/draft.md")).toBe(DRAFT);
		});

		it("MCP answers the Local REST API's write tools the same way", async () => {
			const mcp = await connect(s.port, SCOPED_KEY, {}, undefined, "/mcp/lra");
			try {
				await mcp.tool("vault_read", { path: "Drafts/draft.md" });
				for (const [tool, args] of [
					["vault_write", { path: "Drafts/draft.md", content: "# Better\n" }],
					["vault_append", { path: "Drafts/draft.md", content: "more\n" }],
					[
						"vault_patch",
						{
							path: "Drafts/draft.md",
							targetType: "heading",
							target: ["Draft", "Part"],
							operation: "append",
							content: "added\n",
						},
					],
				] as const) {
					const result = await mcp.tool(tool, args);
					expect(result.isError, `${tool}: ${result.text}`).toBeFalsy();
					expect(result.text, tool).toContain("proposal_status");
					expect(result.text, tool).toContain('"status":"pending"');
				}
			} finally {
				await mcp.close();
			}
			expect(await s.file("Drafts/draft.md")).toBe(DRAFT);
		});
	});
}

describe("a proposal as the CLI answers it", () => {
	let h: CliHarness;
	let sink: FakeSink;
	beforeEach(async () => {
		sink = new FakeSink();
		h = await startCli({ keys: [SCOPED] }, { proposals: sink });
		await h.app.vault.createFolder("Drafts");
		await h.create("Drafts/draft.md", DRAFT);
	});
	afterEach(async () => {
		await h.close();
	});

	it("answers ok, proposed, with the id and how to follow it, when agent= names a key that may only propose", async () => {
		const answer = await h.cli("append", { path: "Drafts/draft.md", content: "more", agent: "drafter" });
		expect(answer).toMatchObject({
			ok: true,
			proposed: true,
			proposalId: "p-1",
			status: "pending",
			path: "Drafts/draft.md",
		});
		expect(answer.detail).toContain("proposal_status");
		expect(sink.received).toHaveLength(1);
		expect(await h.app.vault.adapter.read("Drafts/draft.md")).toBe(DRAFT);
	});
});

describe("without a proposal sink", () => {
	for (const [name, start] of Object.entries(STACKS)) {
		it(`refuses the change 403 scope-forbidden, saying proposals are not available (${name})`, async () => {
			const dir = await mkdtemp(join(tmpdir(), "rg-proposed-"));
			await writeVaultFile(dir, "Drafts/draft.md", DRAFT);
			const s = await start(dir, { settings: { keys: [...TWO_KEYS, SCOPED] }, proposals: null });
			try {
				const answer = await s.api("/vault/Drafts/draft.md", { method: "POST", headers: scoped, body: "more\n" });
				expect(answer.status).toBe(403);
				expect(answer.json()).toMatchObject({
					type: "/problems/scope-forbidden",
					errorCode: 40300,
					key: "drafter",
					scope: "no-proposals",
					rule: { list: "propose", glob: "Drafts/**" },
				});
				expect(answer.json<{ detail: string }>().detail).toContain("this host takes no proposals");
				expect(await s.file("Drafts/draft.md")).toBe(DRAFT);
			} finally {
				await s.close();
				await rm(dir, { recursive: true, force: true });
			}
		});
	}
});
