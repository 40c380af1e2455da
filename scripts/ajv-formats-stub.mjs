// Bundled into main.js in place of ajv-formats (see esbuild.config.mjs). The MCP SDK adds ajv-formats' formats to
// the ajv it validates elicitation answers with; our elicitation form (src/mcp/elicitation/choice-form.ts) uses no
// `format` keyword, so those formats are never consulted, and leaving them out keeps main.js from growing.
export default function addNoFormats(ajv) {
	return ajv;
}
