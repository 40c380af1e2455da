// Bundled into main.js in place of the MCP SDK's ajv provider (see esbuild.config.mjs), so ajv is not bundled.
// Our server always passes its own validator of elicitation answers (src/mcp/elicitation/form-validator.ts); the
// SDK builds this default only when none is given, which would be a bug of ours, so it says so loudly.
export class AjvJsonSchemaValidator {
	constructor() {
		throw new Error("main.js bundles no ajv: pass a jsonSchemaValidator (src/mcp/elicitation/form-validator.ts)");
	}
}
