/** A tool's schema as tools/list shows it: the JSON Schema zod-to-json-schema wrote, quirks included. */
import { describe, expect, it } from "vitest";
import { z } from "../../../src/mcp/schema";
import { shapeToJsonSchema } from "../../../src/mcp/schema/json-schema";

const DRAFT_7 = "http://json-schema.org/draft-07/schema#";

describe("the JSON Schema of a shape", () => {
	it("writes each kind, its bounds and its description, and lists the required keys", () => {
		expect(
			shapeToJsonSchema({
				path: z.string().min(1).describe("The path."),
				date: z
					.string()
					.regex(/^\d{4}$/)
					.optional(),
				limit: z.number().int().min(1).max(100).optional(),
				wait: z.number().min(0).max(60).optional(),
				mode: z.enum(["a", "b"]),
				status: z.literal("pending").optional(),
				tags: z.array(z.string()).min(1).max(3),
				logic: z.record(z.string(), z.unknown()).optional(),
				value: z.unknown().describe("Any JSON."),
				flag: z.boolean(),
			}),
		).toEqual({
			type: "object",
			properties: {
				path: { type: "string", minLength: 1, description: "The path." },
				date: { type: "string", pattern: "^\\d{4}$" },
				limit: { type: "integer", minimum: 1, maximum: 100 },
				wait: { type: "number", minimum: 0, maximum: 60 },
				mode: { type: "string", enum: ["a", "b"] },
				status: { type: "string", const: "pending" },
				tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
				logic: { type: "object", additionalProperties: {} },
				value: { description: "Any JSON." },
				flag: { type: "boolean" },
			},
			required: ["path", "mode", "tags", "flag"],
			additionalProperties: false,
			$schema: DRAFT_7,
		});
	});

	it("writes a nullable primitive as a type pair, anything else nullable or a union as anyOf", () => {
		expect(
			shapeToJsonSchema({
				a: z.string().nullable(),
				b: z.array(z.string()).nullable(),
				c: z.union([z.array(z.string()), z.string(), z.null()]),
				d: z.union([z.string(), z.number()]),
			}).properties,
		).toEqual({
			a: { type: ["string", "null"] },
			b: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] },
			c: { anyOf: [{ type: "array", items: { type: "string" } }, { type: "string" }, { type: "null" }] },
			d: { type: ["string", "number"] },
		});
	});

	it("refers to a schema used twice in one document, closes nested objects, and writes an empty shape bare", () => {
		const shared = z.string().nullable();
		expect(
			shapeToJsonSchema({ first: shared, second: shared, nested: z.object({ x: z.string() }).optional() }),
		).toEqual({
			type: "object",
			properties: {
				first: { type: ["string", "null"] },
				second: { $ref: "#/properties/first" },
				nested: {
					type: "object",
					properties: { x: { type: "string" } },
					required: ["x"],
					additionalProperties: false,
				},
			},
			required: ["first", "second"],
			additionalProperties: false,
			$schema: DRAFT_7,
		});
		expect(shapeToJsonSchema({})).toEqual({ $schema: DRAFT_7, type: "object", properties: {} });
	});
});
