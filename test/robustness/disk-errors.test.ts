/**
 * A disk that fails to make a change durable (the folder fsync after the rename answers EIO or ENOSPC), over the
 * real headless stack: the write is in place but never acknowledged as a success. REST answers 500 not-durable, MCP
 * a tool error of the same code, saying what is in place and what to do; a later write that stands on it is not
 * acknowledged either; the host keeps serving, and once the disk is sound writes are acknowledged again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { failFolderFsync, recordFolderFsyncs } from "../helpers/failing-disk";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { writeVaultFile } from "../helpers/vault-files";
import { readdir, readFile, realpath } from "fs/promises";
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

/**
 * A delete moves the note into the trash: a rename out of the note's folder and into the trash's (which the trash may
 * have just created). It is acknowledged only once all of those folders are on disk, and a failure to make them so is
 * answered not-durable (the note is in the trash, but a crash could bring it back), never as a plain success.
 */
describe("a delete the disk fails to make durable", () => {
	let h: Harness;
	beforeEach(async () => {
		h = await startHeadless();
		await writeVaultFile(h.dir, "Projects/Plan.md", NOTE);
	});
	afterEach(async () => {
		vi.restoreAllMocks();
		await h.close();
	});
	const onDisk = (path: string) => readFile(join(h.dir, path), "utf8");
	const exists = (path: string) =>
		readFile(join(h.dir, path)).then(
			() => true,
			() => false,
		);
	const etag = async (path: string) => (await h.api(`/vault/${path}`)).headers.etag as string;

	it("REST: a DELETE is answered only once the note's folder and every trash folder on its way are fsynced", async () => {
		const root = await realpath(h.dir);
		const token = await etag("Projects/Plan.md");
		const disk = recordFolderFsyncs();
		const res = await h.api("/vault/Projects/Plan.md", { method: "DELETE", headers: { "If-Match": token } });
		expect(res.status, res.text).toBe(204);
		const synced = disk.folders();
		// The note's old folder (its name gone), the trash folder it went into, and the folders the trash created for
		// it (.trash and .trash/Projects: their names are entries of their parents).
		for (const folder of ["Projects", ".trash/Projects", ".trash", ""]) expect(synced).toContain(join(root, folder));
		expect(await onDisk(".trash/Projects/Plan.md")).toBe(NOTE);
	});

	it("REST: a delete into a dated trash folder (the name was taken) fsyncs that folder and the trash", async () => {
		await writeVaultFile(h.dir, ".trash/Projects/Plan.md", "an earlier Plan\n");
		const root = await realpath(h.dir);
		const token = await etag("Projects/Plan.md");
		const disk = recordFolderFsyncs();
		const res = await h.api("/vault/Projects/Plan.md", { method: "DELETE", headers: { "If-Match": token } });
		expect(res.status, res.text).toBe(204);
		const dated = (await readdir(join(root, ".trash"))).find((name) => /^\d{8}-\d{6}/.test(name))!;
		expect(await onDisk(`.trash/${dated}/Projects/Plan.md`)).toBe(NOTE);
		const synced = disk.folders();
		for (const folder of ["Projects", `.trash/${dated}/Projects`, `.trash/${dated}`, ".trash"])
			expect(synced).toContain(join(root, folder));
	});

	it("REST: with EIO the DELETE is answered 500 not-durable, saying where in the trash the note is", async () => {
		const token = await etag("Projects/Plan.md");
		const disk = failFolderFsync("EIO");
		const res = await h.api("/vault/Projects/Plan.md", { method: "DELETE", headers: { "If-Match": token } });
		expect(res.status, res.text).toBe(500);
		const problem = res.json<Record<string, unknown>>();
		expect(problem).toMatchObject({
			type: "/problems/not-durable",
			path: "Projects/Plan.md",
			diskError: "EIO",
			trashedTo: ".trash/Projects/Plan.md",
		});
		const detail = problem.detail as string;
		expect(detail).toContain('"Projects/Plan.md" was moved to the trash, at ".trash/Projects/Plan.md"');
		expect(detail).toContain("the disk reported an error (EIO) while making the delete durable");
		expect(detail).toContain("a crash or power loss could still bring the note back");
		expect(detail).toContain("check the disk");
		expect(detail).not.toContain("GET it to read back what it holds");
		expect(disk.failed()).toBeGreaterThan(0);
		// What the answer says: the note is in the trash, not at its path.
		expect(await onDisk(".trash/Projects/Plan.md")).toBe(NOTE);
		expect(await exists("Projects/Plan.md")).toBe(false);
		expect((await h.api("/vault/Projects/Plan.md")).status).toBe(404);
		expect(h.errors.filter((error) => (error as NodeJS.ErrnoException).code === "EIO").length).toBeGreaterThan(0);

		// The disk is sound again: the next delete is acknowledged.
		vi.restoreAllMocks();
		await writeVaultFile(h.dir, "Other.md", NOTE);
		const next = await h.api("/vault/Other.md", { method: "DELETE", headers: { "If-Match": await etag("Other.md") } });
		expect(next.status, next.text).toBe(204);
	});

	it("MCP: delete_note is answered with a not-durable tool error that says where the note is in the trash", async () => {
		const mcp = await connect(h.port, TEST_KEY);
		try {
			const read = await mcp.tool("read_note", { path: "Projects/Plan.md" });
			failFolderFsync("ENOSPC");
			const deleted = await mcp.tool("delete_note", { path: "Projects/Plan.md", revision: read.structured!.revision });
			expect(deleted.isError).toBe(true);
			expect(deleted.details).toMatchObject({
				error: "not-durable",
				path: "Projects/Plan.md",
				diskError: "ENOSPC",
				trashedTo: ".trash/Projects/Plan.md",
			});
			expect(deleted.prose).toContain('was moved to the trash, at ".trash/Projects/Plan.md"');
			expect(deleted.prose).toContain("while making the delete durable");
			expect(deleted.prose).toContain("check the disk");
			expect(deleted.prose).not.toContain("Nothing was");
			expect(deleted.prose).not.toContain("to see what it holds");
			expect(await onDisk(".trash/Projects/Plan.md")).toBe(NOTE);
		} finally {
			await mcp.close();
		}
	});
});

/**
 * A note created in folders that did not exist: each new folder is an entry of its parent, and a crash that takes the
 * folder away takes the note with it. A create (and a move) into new folders is acknowledged only once the parents
 * of every folder it made are fsynced; a failure there is answered not-durable.
 */
describe("a note created or moved into new folders", () => {
	let h: Harness;
	beforeEach(async () => {
		h = await startHeadless();
		await writeVaultFile(h.dir, "Plan.md", NOTE);
	});
	afterEach(async () => {
		vi.restoreAllMocks();
		await h.close();
	});

	it("REST: a PUT that creates New/Deep/Note.md is answered once the vault, New and New/Deep are fsynced", async () => {
		const root = await realpath(h.dir);
		const disk = recordFolderFsyncs();
		const res = await h.api("/vault/New/Deep/Note.md", {
			method: "PUT",
			body: "new\n",
			headers: { "If-None-Match": "*" },
		});
		expect(res.status, res.text).toBe(204);
		const synced = disk.folders();
		for (const folder of ["", "New", "New/Deep"]) expect(synced).toContain(join(root, folder));
	});

	it("REST: a MOVE into new folders is answered once their parents are fsynced", async () => {
		const root = await realpath(h.dir);
		const token = (await h.api("/vault/Plan.md")).headers.etag as string;
		const disk = recordFolderFsyncs();
		const res = await h.api("/vault/Plan.md", {
			method: "MOVE",
			headers: { Destination: "Archive/2026/Plan.md", "If-Match": token },
		});
		expect(res.status, res.text).toBeLessThan(300);
		const synced = disk.folders();
		for (const folder of ["", "Archive", "Archive/2026"]) expect(synced).toContain(join(root, folder));
	});

	it("REST: a PUT into a new folder whose parent's fsync fails (EIO) is answered not-durable", async () => {
		failFolderFsync("EIO");
		const res = await h.api("/vault/New/Note.md", { method: "PUT", body: "new\n", headers: { "If-None-Match": "*" } });
		expect(res.status, res.text).toBe(500);
		expect(res.json()).toMatchObject({ type: "/problems/not-durable", path: "New/Note.md", diskError: "EIO" });
	});
});
