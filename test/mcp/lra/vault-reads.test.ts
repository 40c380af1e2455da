/** vault_list, vault_read and vault_get_document_map as the Local REST API 5.1's MCP clients call them, over both gateways. */
import { describe, expect, it } from "vitest";
import { partTokenOf } from "../../../src/core/revision-tokens";
import { sha256Token } from "../../helpers/vault-files";
import type { Connected } from "../mcp-client";
import { SUBJECT_NAMES } from "../subjects";
import { eachLraSubject, jsonOf } from "./lra-client";

const NOTE =
	"---\ntitle: Fixture\npriority: 2\n---\n# Alpha\nalpha text #fixture\n## Sub\nsub text\n# Delta\ndelta text\n\nbeta paragraph ^beta\n";

describe.each(SUBJECT_NAMES)("Local REST API read tools over the %s gateway", (name) => {
	let mcp: Connected;
	eachLraSubject(name, { "Tests/fixture.md": NOTE, "Tests/Deeper/other.md": "x\n" }, (_subject, client) => {
		mcp = client;
	});

	it("vault_list lists a folder (folders end in /) and the root when path is omitted", async () => {
		expect(jsonOf(await mcp.tool("vault_list", { path: "Tests" }))).toEqual({ files: ["Deeper/", "fixture.md"] });
		expect(jsonOf(await mcp.tool("vault_list", {}))).toEqual({ files: ["Tests/"] });
		expect((await mcp.tool("vault_list", { path: "Nowhere" })).isError).toBe(true);
	});

	it("vault_read returns the note as JSON: path, content, tags, frontmatter, stat (and its revision)", async () => {
		const body = jsonOf<{
			path: string;
			content: string;
			tags: string[];
			frontmatter: Record<string, unknown>;
			stat: { ctime: number };
			revision: string;
		}>(await mcp.tool("vault_read", { path: "Tests/fixture.md" }));
		expect(body).toMatchObject({
			path: "Tests/fixture.md",
			content: NOTE,
			frontmatter: { title: "Fixture", priority: 2 },
			revision: sha256Token(NOTE),
		});
		expect(body.tags).toContain("fixture");
		expect(typeof body.stat.ctime).toBe("number");
		expect((await mcp.tool("vault_read", { path: "Tests/none.md" })).isError).toBe(true);
	});

	it("vault_read of a target: a heading by its path (or that path as JSON text), a block, a frontmatter value", async () => {
		expect(
			(await mcp.tool("vault_read", { path: "Tests/fixture.md", targetType: "heading", target: ["Alpha", "Sub"] }))
				.prose,
		).toBe("sub text\n");
		expect(
			(
				await mcp.tool("vault_read", {
					path: "Tests/fixture.md",
					targetType: "heading",
					target: JSON.stringify(["Delta"]),
				})
			).prose,
		).toContain("delta text");
		expect(
			(await mcp.tool("vault_read", { path: "Tests/fixture.md", targetType: "block", target: "beta" })).prose,
		).toContain("beta paragraph");
		expect(
			(await mcp.tool("vault_read", { path: "Tests/fixture.md", targetType: "frontmatter", target: "title" })).prose,
		).toBe("Fixture");
		expect(
			JSON.parse(
				(await mcp.tool("vault_read", { path: "Tests/fixture.md", targetType: "frontmatter", target: "priority" }))
					.prose,
			),
		).toBe(2);
	});

	it("vault_read refuses what the Local REST API refuses: a bare-string heading (saying why), a missing target, a lone target", async () => {
		const bare = await mcp.tool("vault_read", { path: "Tests/fixture.md", targetType: "heading", target: "Alpha" });
		expect(bare.isError).toBe(true);
		expect(bare.text).toContain("array");
		expect(bare.text).toContain("anyOf");
		expect(
			(await mcp.tool("vault_read", { path: "Tests/fixture.md", targetType: "heading", target: ["NoSuchHeading"] }))
				.isError,
		).toBe(true);
		expect((await mcp.tool("vault_read", { path: "Tests/fixture.md", targetType: "heading" })).isError).toBe(true);
	});

	it("vault_read reads a part's marker, or marker and content, as REST's Target-Scope does", async () => {
		expect(
			(
				await mcp.tool("vault_read", {
					path: "Tests/fixture.md",
					targetType: "heading",
					target: ["Alpha"],
					scope: "marker",
				})
			).prose,
		).toBe("Alpha");
		expect(
			(
				await mcp.tool("vault_read", {
					path: "Tests/fixture.md",
					targetType: "block",
					target: "beta",
					scope: "markerAndContent",
				})
			).prose,
		).toBe("beta paragraph ^beta\n");
	});

	it("vault_get_document_map gives the nested map and a part token as version (it patches, never replaces)", async () => {
		const map = jsonOf<{
			headings: Record<string, Record<string, unknown>>;
			blocks: string[];
			frontmatterFields: string[];
			version: string;
		}>(await mcp.tool("vault_get_document_map", { path: "Tests/fixture.md" }));
		expect(map.headings).toEqual({ Alpha: { Sub: {} }, Delta: {} });
		expect(map.blocks).toEqual(["beta"]);
		expect(map.frontmatterFields).toEqual(["title", "priority"]);
		expect(map.version).toBe(partTokenOf(sha256Token(NOTE)));
		// A read of part of the note: vault_write is not held to it.
		const write = await mcp.tool("vault_write", { path: "Tests/fixture.md", content: "replaced\n" });
		expect(write.isError).toBe(true);
		expect(write.prose).toContain("only part of");
		expect((await mcp.tool("vault_get_document_map", { path: "Tests/none.md" })).isError).toBe(true);
	});
});
