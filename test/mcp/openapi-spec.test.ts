/**
 * The `openapi-spec` resource the Local REST API's MCP server offers (obsidian://local-rest-api/openapi.yaml), over
 * both gateways: listed first on the first page of resources/list, and read as this server's OpenAPI document.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { OPENAPI } from "../../src/http/routes/openapi";
import { TEST_KEY } from "../helpers/headless-harness";
import { connectResources, type ResourceClient } from "./resource-client";
import { SUBJECT_NAMES, SUBJECTS, type Subject } from "./subjects";

const URI = "obsidian://local-rest-api/openapi.yaml";

describe.each(SUBJECT_NAMES)("the openapi-spec resource over the %s gateway", (name) => {
	let s: Subject;
	let mcp: ResourceClient;
	beforeEach(async () => {
		s = await SUBJECTS[name]!();
		await s.create("Note.md", "x\n");
		mcp = await connectResources(s.port, TEST_KEY);
	});
	afterEach(async () => {
		expect(s.errors).toEqual([]);
		await mcp.close();
		await s.close();
	});

	it("is listed first on the first page, by the Local REST API's name and URI", async () => {
		const { resources } = await mcp.client.listResources();
		expect(resources[0]).toMatchObject({ name: "openapi-spec", uri: URI, mimeType: "application/yaml" });
		expect(resources.map((resource) => resource.name)).toEqual(["openapi-spec", "Note.md"]);
	});

	it("reads as the OpenAPI document in YAML", async () => {
		const { contents } = await mcp.client.readResource({ uri: URI });
		expect(contents).toHaveLength(1);
		const [content] = contents as [{ uri: string; mimeType: string; text: string }];
		expect(content.uri).toBe(URI);
		expect(content.mimeType).toBe("application/yaml");
		expect(content.text).toContain("openapi:");
		expect(parse(content.text)).toEqual(JSON.parse(JSON.stringify(OPENAPI)));
	});

	it("cannot be subscribed to (it never changes while the server runs)", async () => {
		const error = await mcp.client.subscribeResource({ uri: URI }).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(McpError);
	});
});
