/**
 * GET /openapi.yaml: the OpenAPI document as YAML, the form the Local REST API serves (its clients and its MCP
 * resource read it there). The same document as /openapi.json, written out on each request (it is rarely asked for).
 */
import { stringify } from "yaml";
import type { ApiResponse } from "../response";
import { OPENAPI } from "./openapi";

export function openApiYamlText(): string {
	// Shared pieces (a response reused by many routes) are written out in full: some OpenAPI tools refuse YAML aliases.
	return stringify(OPENAPI, { aliasDuplicateObjects: false, lineWidth: 0 });
}

export async function openApiYaml(): Promise<ApiResponse> {
	return { status: 200, body: openApiYamlText(), contentType: "application/yaml; charset=utf-8" };
}
