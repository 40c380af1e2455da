/**
 * vault_write, vault_append, vault_patch and vault_delete as the Local REST API 5.1's MCP clients call them, over both
 * gateways: the same names, arguments and answers, every write guarded. With no revision argument, vault_write and
 * vault_delete are held to this session's last vault_read: unchanged, they land; changed, refused and kept; unread,
 * refused until read.
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { visibleFiles } from "../../helpers/vault-files";
import type { Connected } from "../mcp-client";
import { SUBJECT_NAMES, type Subject } from "../subjects";
import { eachLraSubject, jsonOf } from "./lra-client";

const NOTE = "---\ntitle: Fixture\n---\n# Alpha\nalpha text\n# Delta\ndelta text\n";

describe.each(SUBJECT_NAMES)("Local REST API write tools over the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;
	eachLraSubject(name, { "Tests/fixture.md": NOTE }, (subject, client) => {
		s = subject;
		mcp = client;
	});
	const onDisk = (path: string) => readFile(join(s.dir, path), "utf8").catch(() => null);

	it("vault_write creates a note (and its folders) and answers {message: OK}", async () => {
		expect(jsonOf(await mcp.tool("vault_write", { path: "Tests/New/temp.md", content: "# Temp\n" }))).toMatchObject({
			message: "OK",
		});
		expect(await onDisk("Tests/New/temp.md")).toBe("# Temp\n");
		// The session knows what it wrote: writing again is held to that, and lands.
		expect(jsonOf(await mcp.tool("vault_write", { path: "Tests/New/temp.md", content: "# Temp 2\n" }))).toEqual({
			message: "OK",
		});
	});

	it("vault_write never replaces a note this session has not read, and lands once it has", async () => {
		const blind = await mcp.tool("vault_write", { path: "Tests/fixture.md", content: "overwritten\n" });
		expect(blind.isError).toBe(true);
		expect(blind.prose).toMatch(/^Refused: .*has not read it.*vault_read/);
		// One refusal vocabulary: the code REST's problem type and our own tools use.
		expect(blind.details).toMatchObject({ error: "precondition-required" });
		expect(await onDisk("Tests/fixture.md")).toBe(NOTE);
		await mcp.tool("vault_read", { path: "Tests/fixture.md" });
		expect(jsonOf(await mcp.tool("vault_write", { path: "Tests/fixture.md", content: "overwritten\n" }))).toEqual({
			message: "OK",
		});
		expect(await onDisk("Tests/fixture.md")).toBe("overwritten\n");
	});

	it("vault_write over a note changed since the session's read is refused: nothing written, the content kept as a .bak", async () => {
		await mcp.tool("vault_read", { path: "Tests/fixture.md" });
		await s.edit("Tests/fixture.md", NOTE + "person's line\n");
		const stale = await mcp.tool("vault_write", { path: "Tests/fixture.md", content: "agent's copy\n" });
		expect(stale.isError).toBe(true);
		expect(stale.prose).toMatch(/^Refused: "Tests\/fixture.md" changed since you read it/);
		expect(stale.details).toMatchObject({ error: "stale-revision", implicitRevision: true });
		expect(await onDisk("Tests/fixture.md")).toBe(NOTE + "person's line\n");
		expect(await onDisk(stale.details!.backupPath as string)).toBe("agent's copy\n");
	});

	it("vault_append appends without a read and creates a missing note", async () => {
		expect(jsonOf(await mcp.tool("vault_append", { path: "Tests/fixture.md", content: "appended\n" }))).toEqual({
			message: "OK",
		});
		expect(await onDisk("Tests/fixture.md")).toBe(NOTE + "appended\n");
		expect(jsonOf(await mcp.tool("vault_append", { path: "Tests/log.md", content: "first\n" }))).toEqual({
			message: "OK",
		});
		expect(await onDisk("Tests/log.md")).toBe("first\n");
	});

	it("vault_patch patches after a read (a document map is enough), with the Local REST API's arguments", async () => {
		expect(
			(
				await mcp.tool("vault_patch", {
					path: "Tests/fixture.md",
					targetType: "heading",
					target: ["Delta"],
					operation: "append",
					content: "patched\n",
				})
			).isError,
		).toBe(true);
		await mcp.tool("vault_get_document_map", { path: "Tests/fixture.md" });
		expect(
			jsonOf(
				await mcp.tool("vault_patch", {
					path: "Tests/fixture.md",
					targetType: "heading",
					target: ["Delta"],
					operation: "append",
					content: "patched\n",
				}),
			),
		).toEqual({ message: "OK" });
		expect(
			jsonOf(
				await mcp.tool("vault_patch", {
					path: "Tests/fixture.md",
					targetType: "heading",
					target: JSON.stringify(["Alpha"]),
					operation: "replace",
					content: "new alpha\n",
				}),
			),
		).toEqual({ message: "OK" });
		expect(
			jsonOf(
				await mcp.tool("vault_patch", {
					path: "Tests/fixture.md",
					targetType: "frontmatter",
					target: "related",
					operation: "replace",
					value: ["a", "b"],
					createTargetIfMissing: true,
				}),
			),
		).toEqual({ message: "OK" });
		expect(await onDisk("Tests/fixture.md")).toBe(
			"---\ntitle: Fixture\nrelated:\n  - a\n  - b\n---\n# Alpha\nnew alpha\n# Delta\ndelta text\npatched\n",
		);
	});

	it("vault_patch with a stale ifMatch is refused and the patched note kept; a missing target or an unsupported part is an error", async () => {
		const map = jsonOf<{ version: string }>(await mcp.tool("vault_get_document_map", { path: "Tests/fixture.md" }));
		await s.edit("Tests/fixture.md", NOTE + "more\n");
		const stale = await mcp.tool("vault_patch", {
			path: "Tests/fixture.md",
			targetType: "heading",
			target: ["Alpha"],
			operation: "append",
			content: "x\n",
			ifMatch: map.version,
		});
		expect(stale.isError).toBe(true);
		expect(stale.details).toMatchObject({ error: "stale-revision" });
		expect(await onDisk(stale.details!.backupPath as string)).toBe(
			`${NOTE}more\n`.replace("alpha text\n", "alpha text\nx\n"),
		);
		await mcp.tool("vault_read", { path: "Tests/fixture.md" });
		expect(
			(
				await mcp.tool("vault_patch", {
					path: "Tests/fixture.md",
					targetType: "heading",
					target: ["NoSuchHeading"],
					operation: "replace",
					content: "x",
				})
			).isError,
		).toBe(true);
		const scope = await mcp.tool("vault_patch", {
			path: "Tests/fixture.md",
			targetType: "heading",
			target: ["Alpha"],
			operation: "replace",
			scope: "sideways",
			content: "Renamed",
		});
		expect(scope.isError).toBe(true);
		expect(scope.text).toContain("scope");
		const bare = await mcp.tool("vault_patch", {
			path: "Tests/fixture.md",
			targetType: "heading",
			target: "Alpha",
			operation: "append",
			content: "x",
		});
		expect(bare.text).toContain("anyOf");
		expect(await onDisk("Tests/fixture.md")).toBe(NOTE + "more\n");
		const renamed = await mcp.tool("vault_patch", {
			path: "Tests/fixture.md",
			targetType: "heading",
			target: ["Alpha"],
			operation: "replace",
			scope: "marker",
			content: "Renamed",
		});
		expect(jsonOf(renamed)).toEqual({ message: "OK" });
		expect(await onDisk("Tests/fixture.md")).toBe((NOTE + "more\n").replace("# Alpha\n", "# Renamed\n"));
	});

	it("vault_delete trashes a note the session read (permanent or not), and refuses one it has not", async () => {
		const unread = await mcp.tool("vault_delete", { path: "Tests/fixture.md" });
		expect(unread.isError).toBe(true);
		expect(unread.prose).toContain("has not read");
		await mcp.tool("vault_read", { path: "Tests/fixture.md" });
		expect(jsonOf(await mcp.tool("vault_delete", { path: "Tests/fixture.md", permanent: true }))).toEqual({
			message: "OK",
			trashed: true,
		});
		expect(await visibleFiles(s.dir)).toEqual([]);
		expect((await mcp.tool("vault_read", { path: "Tests/fixture.md" })).isError).toBe(true);
		expect((await mcp.tool("vault_delete", { path: "Tests/fixture.md" })).isError).toBe(true);
	});
});
