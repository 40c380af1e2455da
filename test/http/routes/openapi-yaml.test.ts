/**
 * GET /openapi.yaml: the OpenAPI document as YAML, as the Local REST API serves it, without a key (its clients
 * fetch it before they have one). The same document as /openapi.json, and nothing in it about the vault.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { eachHeadless, type Harness } from "../../helpers/headless-harness";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { writeVaultFile } from "../../helpers/vault-files";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness));

describe("GET /openapi.yaml", () => {
	it("serves the same document as /openapi.json, as YAML, without a key", async () => {
		const res = await h.raw("/openapi.yaml");
		expect(res.status).toBe(200);
		expect(res.headers["content-type"]).toBe("application/yaml; charset=utf-8");
		expect(res.text).toMatch(/^openapi: 3\.1\.0$/m);
		expect(parse(res.text)).toEqual((await h.api("/openapi.json")).json());
	});

	it("writes shared parts out in full: no YAML anchors or aliases", async () => {
		const text = (await h.raw("/openapi.yaml")).text;
		expect(text).not.toMatch(/(^|\s)[&*]a\d+(\s|$)/m);
	});

	it("says nothing about the vault: not its name, nor its notes", async () => {
		await writeVaultFile(h.dir, "Private plans.md", "secret\n");
		const text = (await h.raw("/openapi.yaml")).text;
		expect(text).not.toContain(h.guard.vaultName);
		expect(text).not.toContain("Private plans");
	});

	it("answers only GET (and HEAD): another method is 405 with a key, and 401 without one, as on GET /", async () => {
		expect((await h.api("/openapi.yaml", { method: "PUT", body: "x" })).status).toBe(405);
		expect((await h.raw("/openapi.yaml", { method: "PUT", body: "x" })).status).toBe(401);
		expect((await h.raw("/openapi.yaml", { method: "HEAD" })).status).toBe(200);
	});
});
