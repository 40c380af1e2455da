/** The merge question's form: what our check of its answers (form-validator.ts) assumes about it. */
import { describe, expect, it } from "vitest";
import { choiceForm } from "../../../src/mcp/elicitation/choice-form";

function keysOf(value: unknown): string[] {
	if (typeof value !== "object" || value === null) return [];
	return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

describe("the form that asks the person about a stale write", () => {
	it("uses no JSON Schema format, which form-validator.ts does not check", () => {
		for (const canMerge of [true, false]) {
			for (const canOpen of [true, false]) {
				const form = choiceForm({ agent: "agent", path: "Plan.md", backupPath: "Plan.bak.md", canMerge, canOpen });
				expect(keysOf(form.params.requestedSchema)).not.toContain("format");
			}
		}
	});
});
