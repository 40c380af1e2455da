/** The merge question's form: what main.js's bundling assumes about it (esbuild.config.mjs drops ajv-formats). */
import { describe, expect, it } from "vitest";
import { choiceForm } from "../../../src/mcp/elicitation/choice-form";

function keysOf(value: unknown): string[] {
	if (typeof value !== "object" || value === null) return [];
	return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

describe("the form that asks the person about a stale write", () => {
	it("uses no JSON Schema format, so the SDK's validator never needs ajv-formats", () => {
		for (const canMerge of [true, false]) {
			for (const canOpen of [true, false]) {
				const form = choiceForm({ agent: "agent", path: "Plan.md", backupPath: "Plan.bak.md", canMerge, canOpen });
				expect(keysOf(form.params.requestedSchema)).not.toContain("format");
			}
		}
	});
});
