/**
 * The Local REST API tools whose services are wired in src/mcp/lra/service-operations.ts: tag_list, vault_move and
 * vault_copy answer as that server does, guarded like our own tools (search_query and search_simple:
 * search-operations.test.ts).
 */
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { visibleFiles } from "../../helpers/vault-files";
import type { Connected } from "../mcp-client";
import type { Subject } from "../subjects";
import { eachLraSubject, jsonOf } from "./lra-client";

describe.each(["node filesystem", "obsidian"])(
	"Local REST API tools served by other parts of issue 23, over the %s gateway",
	(name) => {
		let mcp: Connected;
		let s: Subject;
		eachLraSubject(name, { "Plan.md": "# Plan #tag\n" }, (subject, client) => {
			s = subject;
			mcp = client;
		});

		it("tag_list counts every tag as GET /tags/ does", async () => {
			await s.indexed?.();
			expect(jsonOf(await mcp.tool("tag_list", {}))).toEqual({ tags: [{ name: "tag", count: 1 }] });
		});

		it("vault_move is held to the session's read of the note: refused unread, then moved", async () => {
			const blind = await mcp.tool("vault_move", { path: "Plan.md", destination: "Moved.md" });
			expect(blind.isError).toBe(true);
			expect(await visibleFiles(s.dir)).toEqual(["Plan.md"]);
			await mcp.tool("vault_read", { path: "Plan.md" });
			expect(jsonOf(await mcp.tool("vault_move", { path: "Plan.md", destination: "Archive/" }))).toEqual({
				message: "OK",
				oldPath: "Plan.md",
				newPath: "Archive/Plan.md",
			});
			expect(await visibleFiles(s.dir)).toEqual(["Archive/Plan.md"]);
		});

		it("vault_copy copies, and never replaces what the person wrote at the destination since", async () => {
			expect(jsonOf(await mcp.tool("vault_copy", { path: "Plan.md", destination: "Copy.md" }))).toEqual({
				message: "OK",
				sourcePath: "Plan.md",
				newPath: "Copy.md",
			});
			await s.edit("Copy.md", "the person's own text\n");
			const over = await mcp.tool("vault_copy", { path: "Plan.md", destination: "Copy.md", allowOverwrite: true });
			expect(over.isError).toBe(true);
			expect(await readFile(join(s.dir, "Copy.md"), "utf8")).toBe("the person's own text\n");
		});
	},
);
