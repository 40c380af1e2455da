/**
 * A disk that fails to make a change durable (the folder fsync after the rename answers EIO or ENOSPC), over the
 * real headless stack: the write is in place but never acknowledged as a success. REST answers 500 not-durable, MCP
 * a tool error of the same code, saying what is in place and what to do; a later write that stands on it is not
 * acknowledged either; the host keeps serving, and once the disk is sound writes are acknowledged again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { failFolderFsync } from "../helpers/failing-disk";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { writeVaultFile } from "../helpers/vault-files";
import { readFile } from "fs/promises";
import { join } from "path";
import { revisionOf } from "../../src/core/revision";
import { connect } from "../mcp/mcp-client";

forbidServerErrors(["not-durable"]);

const NOTE = "# Plan\n\nwhat the person wrote\n";

describe("a write the disk fails to make durable", () => {
	let h: Harness;
	beforeEach(async () => {
		h = await startHeadless();
		await writeVaultFile(h.dir, "Plan.md", NOTE);
	});
	afterEach(async () => {
		vi.restoreAllMocks();
		await h.close();
	});
	const onDisk = (path: string) => readFile(join(h.dir, path), "utf8");
	const etag = async (path: string) => (await h.api(`/vault/${path}`)).headers.etag as string;

	it("REST: a guarded PUT is answered 500 not-durable, with the text in place as it says; the host keeps serving", async () => {
		const token = await etag("Plan.md");
		const disk = failFolderFsync("EIO");
		const res = await h.api("/vault/Plan.md", { method: "PUT", body: "agent\n", headers: { "If-Match": token } });
		expect(res.status, res.text).toBe(500);
		const problem = res.json<Record<string, unknown>>();
		expect(problem).toMatchObject({
			type: "/problems/not-durable",
			path: "Plan.md",
			diskError: "EIO",
			revision: revisionOf("agent\n"),
		});
		expect(problem.detail).toContain('"Plan.md" was written, but the disk reported an error (EIO)');
		expect(problem.detail).toContain("GET it to read back what it holds");
		expect(disk.failed()).toBeGreaterThan(0);
		// What the answer says: the new text is in place (the rename happened), served as the note.
		expect(await onDisk("Plan.md")).toBe("agent\n");
		const read = await h.api("/vault/Plan.md");
		expect(read.status).toBe(200);
		expect(read.text).toBe("agent\n");

		// The same text again, with the revision the answer named: nothing of its own to make durable, and what it
		// stands on is not known to be on disk, so it is not acknowledged either.
		const again = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: "agent\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(again.status, again.text).toBe(500);
		expect(again.json()).toMatchObject({ type: "/problems/not-durable", diskError: "EIO" });
		expect(again.json<{ detail: string }>().detail).toContain("already holds this text");

		// The disk is sound again: the next write makes the folder durable and is acknowledged.
		vi.restoreAllMocks();
		const next = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: "agent, again\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(next.status, next.text).toBe(204);
		expect(await onDisk("Plan.md")).toBe("agent, again\n");
		// The disk's failure reached the host's error report, once.
		expect(h.errors.filter((error) => (error as NodeJS.ErrnoException).code === "EIO").length).toBeGreaterThan(0);
	});

	it("MCP: write_note is answered with a not-durable tool error that says to read the note back", async () => {
		const mcp = await connect(h.port, TEST_KEY);
		try {
			const read = await mcp.tool("read_note", { path: "Plan.md" });
			failFolderFsync("ENOSPC");
			const written = await mcp.tool("write_note", {
				path: "Plan.md",
				content: "agent\n",
				revision: read.structured!.revision,
			});
			expect(written.isError).toBe(true);
			expect(written.details).toMatchObject({ error: "not-durable", path: "Plan.md", diskError: "ENOSPC" });
			expect(written.prose).toContain("was written, but the disk reported an error (ENOSPC)");
			expect(written.prose).toContain('Call read_note {"path":"Plan.md"}');
			expect(written.prose).not.toContain("Nothing was");
			expect(await onDisk("Plan.md")).toBe("agent\n");
			vi.restoreAllMocks();
			const reread = await mcp.tool("read_note", { path: "Plan.md" });
			expect(reread.structured).toMatchObject({ content: "agent\n" });
		} finally {
			await mcp.close();
		}
	});

	it("a platform that cannot fsync a folder (EINVAL) is no failure: the PUT is acknowledged", async () => {
		const token = await etag("Plan.md");
		failFolderFsync("EINVAL");
		const res = await h.api("/vault/Plan.md", { method: "PUT", body: "agent\n", headers: { "If-Match": token } });
		expect(res.status, res.text).toBe(204);
	});
});
