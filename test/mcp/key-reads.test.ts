/**
 * A key is one agent: what its MCP session writes over the revision its plain REST calls last read moves their read
 * along, and a REST write moves its sessions' reads, so the Local REST API's own pattern (reset a note over REST,
 * patch it over MCP, reset it again) works. One session's write never moves another session's read, and nothing
 * moves across anyone else's change. Over both gateways.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/http-client";
import { TEST_KEY } from "../helpers/headless-harness";
import { connect, type Connected } from "./mcp-client";
import { eachMcpSubject, SUBJECT_NAMES, type Subject } from "./subjects";

const NOTE = "# Plan\n\n## Log\n- one\n";

describe.each(SUBJECT_NAMES)("one key's REST reads and MCP writes over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachMcpSubject(name, { "Plan.md": NOTE }, (subject, client) => {
		s = subject;
		mcp = client;
	});
	const rest = (path: string, method = "GET", body?: string) =>
		call(s.port, path, { method, body, headers: { Authorization: `Bearer ${TEST_KEY}` } });
	const onDisk = () => readFile(join(s.dir, "Plan.md"), "utf8");

	it("a session's patch over what the key's REST calls read lets their next tokenless PUT land", async () => {
		expect((await rest("/vault/Plan.md")).status).toBe(200);
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		const patched = await mcp.tool("patch_note", {
			path: "Plan.md",
			target_type: "heading",
			target: "Plan::Log",
			operation: "append",
			content: "- two\n",
			revision: read.structured!.revision,
		});
		expect(patched.isError, patched.text).toBe(false);
		const reset = await rest("/vault/Plan.md", "PUT", NOTE);
		expect(reset.status, reset.text).toBe(204);
		expect(await onDisk()).toBe(NOTE);
	});

	it("a REST write over what the key's session read lets the session's next tokenless write land", async () => {
		expect((await mcp.tool("read_note", { path: "Plan.md" })).isError).toBe(false);
		const tag = (await rest("/vault/Plan.md")).headers.etag as string;
		const put = await call(s.port, "/vault/Plan.md", {
			method: "PUT",
			body: NOTE + "- from REST\n",
			headers: { Authorization: `Bearer ${TEST_KEY}`, "If-Match": tag },
		});
		expect(put.status, put.text).toBe(204);
		const written = await mcp.tool("write_note", { path: "Plan.md", content: "# Plan\n" });
		expect(written.isError, written.text).toBe(false);
		expect(await onDisk()).toBe("# Plan\n");
	});

	it("never carries a REST read across a person's edit the session's write stood on", async () => {
		expect((await rest("/vault/Plan.md")).status).toBe(200);
		await s.edit("Plan.md", NOTE + "- the person's line\n");
		const read = await mcp.tool("read_note", { path: "Plan.md" });
		expect(
			(await mcp.tool("append_note", { path: "Plan.md", content: "- agent\n", revision: read.structured!.revision }))
				.isError,
		).toBe(false);
		const stale = await rest("/vault/Plan.md", "PUT", "the REST copy\n");
		expect(stale.status, stale.text).toBe(412);
		expect(await onDisk()).toContain("- the person's line\n");
	});

	it("never moves another session's read: two windows of one key stay apart", async () => {
		const other = await connect(s.port, TEST_KEY);
		try {
			expect((await other.tool("read_note", { path: "Plan.md" })).isError).toBe(false);
			const read = await mcp.tool("read_note", { path: "Plan.md" });
			expect(
				(
					await mcp.tool("append_note", {
						path: "Plan.md",
						content: "- first window\n",
						revision: read.structured!.revision,
					})
				).isError,
			).toBe(false);
			const stale = await other.tool("write_note", { path: "Plan.md", content: "second window's copy\n" });
			expect(stale.isError).toBe(true);
			expect(stale.details).toMatchObject({ error: "stale-revision" });
			expect(await onDisk()).toBe(NOTE + "- first window\n");
		} finally {
			await other.close();
		}
	});
});
