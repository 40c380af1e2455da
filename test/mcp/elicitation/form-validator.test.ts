/** Our check of elicitation answers (in place of the SDK's ajv): what the person answered must fit the form asked. */
import { describe, expect, it } from "vitest";
import { choiceForm } from "../../../src/mcp/elicitation/choice-form";
import { formValidator } from "../../../src/mcp/elicitation/form-validator";

const validate = (schema: object, input: unknown) => formValidator.getValidator(schema)(input);

describe("the check of an answer to the merge question", () => {
	const form = choiceForm({ agent: "agent", path: "Plan.md", backupPath: null, canMerge: false, canOpen: false });
	const schema = form.params.requestedSchema;

	it("accepts each offered choice", () => {
		for (const choice of form.choices) expect(validate(schema, { choice })).toMatchObject({ valid: true });
	});

	it("refuses a choice that was not offered, a missing choice, and an answer that is not an object", () => {
		for (const answer of [{ choice: "merge" }, { choice: 1 }, {}, null, "keep", ["keep"]]) {
			const result = validate(schema, answer);
			expect(result.valid).toBe(false);
			expect(result.errorMessage).toEqual(expect.any(String));
		}
	});
});

describe("the other fields a form may have", () => {
	const schema = {
		type: "object",
		properties: {
			name: { type: "string", minLength: 1, maxLength: 3 },
			count: { type: "integer", minimum: 1, maximum: 5 },
			ratio: { type: "number" },
			sure: { type: "boolean" },
			colour: { type: "string", enum: ["red", "blue"] },
			tags: { type: "array", items: { anyOf: [{ const: "a" }, { const: "b" }] }, maxItems: 2 },
		},
		required: ["name"],
	};

	it("accepts an answer that fits every field", () => {
		const answer = { name: "abc", count: 5, ratio: 0.5, sure: true, colour: "red", tags: ["a", "b"], other: 1 };
		expect(validate(schema, answer)).toEqual({ valid: true, data: answer, errorMessage: undefined });
	});

	it.each([
		{ name: "" },
		{ name: "abcd" },
		{ name: "a", count: 1.5 },
		{ name: "a", count: 6 },
		{ name: "a", ratio: "1" },
		{ name: "a", ratio: Number.NaN },
		{ name: "a", sure: "yes" },
		{ name: "a", colour: "green" },
		{ name: "a", tags: ["c"] },
		{ name: "a", tags: ["a", "b", "a"] },
		{ name: "a", tags: "a" },
	])("refuses %j", (answer) => {
		expect(validate(schema, answer).valid).toBe(false);
	});

	it("refuses fields of a kind forms do not have, and schemas that are not forms", () => {
		expect(validate({ type: "object", properties: { nested: { type: "object" } } }, { nested: {} }).valid).toBe(false);
		expect(validate({ type: "string" }, "text").valid).toBe(false);
	});
});
