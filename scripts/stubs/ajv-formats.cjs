// Bundled into main.js in place of ajv-formats (see esbuild.config.mjs). The MCP SDK adds ajv-formats' formats to
// the ajv it validates elicitation answers with; our elicitation forms (src/mcp/elicitation/choice-form.ts) use no
// `format` keyword, so those formats are never consulted, and leaving them out keeps main.js from growing.
module.exports = function addNoFormats(ajv) {
	return ajv;
};
