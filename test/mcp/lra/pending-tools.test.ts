/**
 * search_query, search_simple, tag_list, vault_move and vault_copy: their services are built on other branches of
 * issue 23, so in this build each answers a clear "not available" error and changes nothing.
 */
import { describe, expect, it } from "vitest";
import { visibleFiles } from "../../helpers/vault-files";
import type { Connected } from "../mcp-client";
import type { Subject } from "../subjects";
import { eachLraSubject } from "./lra-client";

describe("Local REST API tools whose services are not in this build", () => {
	let mcp: Connected;
	let s: Subject;
	eachLraSubject("node filesystem", { "Plan.md": "# Plan #tag\n" }, (subject, client) => {
		s = subject;
		mcp = client;
	});

	it.each([
		["search_query", { query: { in: ["tag", { var: "tags" }] } }],
		["search_simple", { query: "Plan" }],
		["tag_list", {}],
		["vault_move", { path: "Plan.md", destination: "Moved.md" }],
		["vault_copy", { path: "Plan.md", destination: "Copy.md" }],
	])("%s says it is not available in this build, and does nothing", async (tool, args) => {
		const result = await mcp.tool(tool, args);
		expect(result.isError).toBe(true);
		expect(result.prose).toContain(`${tool} is not available in this build`);
		expect(result.details).toEqual({ error: "not-available", tool });
		expect(await visibleFiles(s.dir)).toEqual(["Plan.md"]);
	});
});
