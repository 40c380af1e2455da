/**
 * Over MCP too, two tokenless write_note calls sent together after one read are both based on that read: one lands,
 * the other is refused with a .bak. The second call is made to arrive while the first is in the middle of its write
 * step (held there by a hook), so this does not depend on timing.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { writeVaultFile } from "../helpers/vault-files";
import { onNoteWriteStep } from "../helpers/write-step-hook";
import { connect, type Connected, type ToolResult } from "./mcp-client";

describe("parallel tokenless write_note calls in one session", () => {
	let h: Harness;
	let mcp: Connected;
	beforeEach(async () => {
		h = await startHeadless();
		await writeVaultFile(h.dir, "Plan.md", "read once\n");
		mcp = await connect(h.port, TEST_KEY);
	});
	afterEach(async () => {
		vi.restoreAllMocks();
		await mcp.close();
		await h.close();
		expect(h.errors).toEqual([]);
	});

	it("lands one and refuses the other, keeping its content", async () => {
		await mcp.tool("read_note", { path: "Plan.md" });
		const held = vi.spyOn(h.guard.writer, "heldRevision");
		let second!: Promise<ToolResult>;
		let done = false;
		onNoteWriteStep(h.dir, "Plan.md", async () => {
			if (done) return;
			done = true;
			second = mcp.tool("write_note", { path: "Plan.md", content: "second\n" });
			// Wait until the second call has reached the writer (which captures what it is held to on arrival).
			while (held.mock.calls.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
		});
		const first = await mcp.tool("write_note", { path: "Plan.md", content: "first\n" });
		expect(first.isError).toBe(false);
		const refused = await second;
		expect(refused.isError).toBe(true);
		expect(refused.details).toMatchObject({ error: "stale", implicitRevision: true });
		expect(await readFile(join(h.dir, refused.details!.backupPath as string), "utf8")).toBe("second\n");
		expect(await readFile(join(h.dir, "Plan.md"), "utf8")).toBe("first\n");
	});
});
