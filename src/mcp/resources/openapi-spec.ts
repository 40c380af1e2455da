/**
 * The `openapi-spec` resource the Local REST API's MCP server offers, at the URI its clients read
 * (obsidian://local-rest-api/openapi.yaml): this server's OpenAPI document as YAML, the same as GET /openapi.yaml.
 * Listed first on the first page of resources/list.
 */
import type { ReadResourceResult, Resource } from "../protocol/types";
import { openApiYamlText } from "../../http/routes/openapi-yaml";

export const OPENAPI_SPEC_URI = "obsidian://local-rest-api/openapi.yaml";
const MIME_TYPE = "application/yaml";

export const OPENAPI_SPEC_RESOURCE: Resource = {
	uri: OPENAPI_SPEC_URI,
	name: "openapi-spec",
	mimeType: MIME_TYPE,
	description:
		"The OpenAPI specification of this server's REST API (GET /openapi.yaml): every route, " +
		"its parameters, answers and refusals.",
};

export function readOpenApiSpec(): ReadResourceResult {
	return { contents: [{ uri: OPENAPI_SPEC_URI, mimeType: MIME_TYPE, text: openApiYamlText() }] };
}
