/**
 * One refusal, one code, on every surface: REST's problem type, MCP's `error`, the CLI's `error` and (beside REST's)
 * the Local REST API's errorCode, for the same refusal on the same note (Obsidian simulation, all three entry points).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_KEY } from "../helpers/headless-harness";
import { sha256Token } from "../helpers/vault-files";
import { connect, type Connected } from "../mcp/mcp-client";
import { startCli, type CliHarness } from "./cli-harness";

const NOTE = "# Plan\n- one\n";

describe("the refusal vocabulary", () => {
	let h: CliHarness;
	let mcp: Connected;
	beforeEach(async () => {
		h = await startCli();
		await h.create("Plan.md", NOTE);
		mcp = await connect(h.port, TEST_KEY);
	});
	afterEach(async () => {
		await mcp.close();
		await h.close();
	});

	async function codes(
		rest: { status: number; json(): Record<string, unknown> },
		tool: { details?: Record<string, unknown> },
		cli: Record<string, unknown>,
	): Promise<string[]> {
		const problem = rest.json();
		return [
			String(problem.type).replace("/problems/", ""),
			String(tool.details?.error),
			String(cli.error),
			String(Math.floor(Number(problem.errorCode) / 100) === rest.status),
		];
	}

	it("says precondition-required for a replace without a revision, everywhere", async () => {
		const rest = await h.api("/vault/Plan.md", { method: "PUT", body: "new\n" });
		const tool = await mcp.tool("write_note", { path: "Plan.md", content: "new\n" });
		const cli = await h.cli("delete", { path: "Plan.md" });
		expect(await codes(rest, tool, cli)).toEqual([
			"precondition-required",
			"precondition-required",
			"precondition-required",
			"true",
		]);
		expect(rest.json().errorCode).toBe(42800);
	});

	it("says malformed-precondition for a revision that is not one, everywhere, and keeps no .bak", async () => {
		const rest = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: "new\n",
			headers: { "If-Match": "not a revision" },
		});
		const tool = await mcp.tool("write_note", { path: "Plan.md", content: "new\n", revision: "not a revision" });
		const cli = await h.cli("write", { path: "Plan.md", content: "new\n", revision: "not a revision" });
		expect(await codes(rest, tool, cli)).toEqual([
			"malformed-precondition",
			"malformed-precondition",
			"malformed-precondition",
			"true",
		]);
		expect(h.app.vault.getFiles().map((file) => file.path)).toEqual(["Plan.md"]);
	});

	it("says stale-revision for a revision the note has moved past, everywhere", async () => {
		const old = sha256Token(NOTE);
		await h.edit("Plan.md", NOTE + "- the person's\n");
		const rest = await h.api("/vault/Plan.md", { method: "PUT", body: "new\n", headers: { "If-Match": `"${old}"` } });
		const tool = await mcp.tool("write_note", { path: "Plan.md", content: "newer\n", revision: old });
		const cli = await h.cli("write", { path: "Plan.md", content: "newest\n", revision: old });
		expect(await codes(rest, tool, cli)).toEqual(["stale-revision", "stale-revision", "stale-revision", "true"]);
	});

	it("says target-not-found for a patch of a heading the note lacks, everywhere", async () => {
		const revision = sha256Token(NOTE);
		const rest = await h.api("/vault/Plan.md", {
			method: "PATCH",
			body: JSON.stringify({
				targetType: "heading",
				target: ["Nowhere"],
				operation: "append",
				content: "x",
				ifMatch: revision,
			}),
			headers: { "Content-Type": "application/json" },
		});
		const tool = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Nowhere",
			operation: "append",
			content: "x",
			revision,
		});
		const cli = await h.cli("patch", {
			path: "Plan.md",
			type: "heading",
			target: "Nowhere",
			operation: "append",
			content: "x",
			revision,
		});
		expect(await codes(rest, tool, cli)).toEqual(["target-not-found", "target-not-found", "target-not-found", "true"]);
	});
});
