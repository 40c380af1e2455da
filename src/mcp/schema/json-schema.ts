/**
 * A tool's schema as JSON Schema (draft 7), for tools/list: the same document zod-to-json-schema wrote for the MCP SDK
 * (so an agent sees exactly what it saw before), down to its quirks: nested objects close with
 * `additionalProperties: false`, a nullable primitive is a type pair, and a schema used twice in one document is
 * written once and then referred to by `$ref`.
 */
import type { Schema, Shape } from "./index";

export type JsonSchema = Record<string, unknown>;

const DRAFT_7 = "http://json-schema.org/draft-07/schema#";

/** The JSON Schema of a tool's input or output shape (an object). */
export function shapeToJsonSchema(shape: Shape): JsonSchema {
	// An empty shape was written as the SDK's own constant: no additionalProperties.
	if (Object.keys(shape).length === 0) return { $schema: DRAFT_7, type: "object", properties: {} };
	const seen = new Map<Schema<unknown>, string>();
	return { ...objectSchema(shape, "#", seen), $schema: DRAFT_7 };
}

function objectSchema(shape: Shape, path: string, seen: Map<Schema<unknown>, string>): JsonSchema {
	const properties: JsonSchema = {};
	const required: string[] = [];
	for (const [key, schema] of Object.entries(shape)) {
		properties[key] = toJson(schema, `${path}/properties/${key}`, seen);
		if (!allowsUndefined(schema)) required.push(key);
	}
	return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

function allowsUndefined(schema: Schema<unknown>): boolean {
	const { kind } = schema;
	if (kind.kind === "optional" || kind.kind === "unknown") return true;
	if (kind.kind === "nullable") return allowsUndefined(kind.inner);
	return false;
}

/** A primitive without checks, which a nullable or a union writes as a bare type name. */
function bareType(schema: Schema<unknown>): string | null {
	const { kind } = schema;
	switch (kind.kind) {
		case "string":
			return kind.minLength === undefined && kind.maxLength === undefined && kind.pattern === undefined
				? "string"
				: null;
		case "number":
			return !kind.integer && kind.minimum === undefined && kind.maximum === undefined ? "number" : null;
		case "boolean":
		case "null":
			return kind.kind;
		default:
			return null;
	}
}

function toJson(schema: Schema<unknown>, path: string, seen: Map<Schema<unknown>, string>): JsonSchema {
	const earlier = seen.get(schema);
	if (earlier !== undefined) return { $ref: earlier };
	seen.set(schema, path);
	const json = bodyOf(schema, path, seen);
	return schema.description === undefined ? json : { ...json, description: schema.description };
}

function bodyOf(schema: Schema<unknown>, path: string, seen: Map<Schema<unknown>, string>): JsonSchema {
	const { kind } = schema;
	switch (kind.kind) {
		case "string":
			return {
				type: "string",
				...(kind.minLength !== undefined ? { minLength: kind.minLength } : {}),
				...(kind.maxLength !== undefined ? { maxLength: kind.maxLength } : {}),
				...(kind.pattern !== undefined ? { pattern: kind.pattern.source } : {}),
			};
		case "number":
			return {
				type: kind.integer ? "integer" : "number",
				...(kind.minimum !== undefined ? { minimum: kind.minimum } : {}),
				...(kind.maximum !== undefined ? { maximum: kind.maximum } : {}),
			};
		case "boolean":
		case "null":
			return { type: kind.kind };
		case "unknown":
			return {};
		case "enum":
			return { type: "string", enum: [...kind.values] };
		case "literal":
			return { type: typeof kind.value, const: kind.value };
		case "array":
			return {
				type: "array",
				items: toJson(kind.items, `${path}/items`, seen),
				...(kind.minItems !== undefined ? { minItems: kind.minItems } : {}),
				...(kind.maxItems !== undefined ? { maxItems: kind.maxItems } : {}),
			};
		case "object":
			return objectSchema(kind.shape, path, seen);
		case "record":
			return { type: "object", additionalProperties: toJson(kind.values, `${path}/additionalProperties`, seen) };
		case "union": {
			const types = kind.options.map(bareType);
			if (types.every((type) => type !== null)) {
				const unique = [...new Set(types)];
				return { type: unique.length === 1 ? unique[0] : unique };
			}
			return { anyOf: kind.options.map((option, index) => toJson(option, `${path}/anyOf/${index}`, seen)) };
		}
		case "optional":
			return toJson(kind.inner, path, seen);
		case "nullable": {
			const type = bareType(kind.inner);
			if (type !== null) return { type: [type, "null"] };
			return { anyOf: [toJson(kind.inner, `${path}/anyOf/0`, seen), { type: "null" }] };
		}
	}
}
