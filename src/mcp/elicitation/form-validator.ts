/**
 * Checks a person's elicitation answer against the form that asked for it (a general JSON Schema validator such as
 * ajv would be about an eighth of main.js). An MCP form is a flat object of primitive fields (the spec's restricted schema): strings
 * (with `enum` or titled `oneOf`/`anyOf` choices and lengths), numbers, integers, booleans and multi-select arrays.
 * Anything else in a schema is refused as unsupported rather than waved through; we only ever ask choice-form.ts.
 */
type Schema = Record<string, unknown>;

const isRecord = (value: unknown): value is Schema =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** The values a field allows, when it lists them (`enum`, or titled `oneOf`/`anyOf` of `const`s). */
function allowedValues(field: Schema): unknown[] | null {
	if (Array.isArray(field.enum)) return field.enum as unknown[];
	const titled = Array.isArray(field.oneOf) ? field.oneOf : Array.isArray(field.anyOf) ? field.anyOf : null;
	return titled ? titled.filter(isRecord).map((option) => option.const) : null;
}

const withinBounds = (value: number, low: unknown, high: unknown) =>
	(typeof low !== "number" || value >= low) && (typeof high !== "number" || value <= high);

/** Why `value` does not fit `field`, or null when it does. */
function fieldProblem(name: string, field: unknown, value: unknown): string | null {
	if (!isRecord(field)) return `field ${name} has no schema`;
	const allowed = allowedValues(field);
	switch (field.type) {
		case "string":
			if (typeof value !== "string") return `${name} must be a string`;
			if (allowed && !allowed.includes(value)) return `${name} must be one of the offered choices`;
			if (!withinBounds(value.length, field.minLength, field.maxLength)) return `${name} has the wrong length`;
			return null;
		case "number":
		case "integer":
			if (typeof value !== "number" || !Number.isFinite(value)) return `${name} must be a number`;
			if (field.type === "integer" && !Number.isInteger(value)) return `${name} must be an integer`;
			if (!withinBounds(value, field.minimum, field.maximum)) return `${name} is out of range`;
			return null;
		case "boolean":
			return typeof value === "boolean" ? null : `${name} must be true or false`;
		case "array": {
			if (!Array.isArray(value)) return `${name} must be a list`;
			const items = isRecord(field.items) ? allowedValues(field.items) : null;
			if (!items) return `field ${name} lists no choices`;
			if (!value.every((item) => items.includes(item))) return `${name} must hold only the offered choices`;
			if (!withinBounds(value.length, field.minItems, field.maxItems)) return `${name} has the wrong number of choices`;
			return null;
		}
		default:
			return `field ${name} is of a kind forms do not have`;
	}
}

/** Why `input` does not answer the form `schema`, or null when it does (anything but an object form is refused). */
export function formProblem(schema: unknown, input: unknown): string | null {
	if (!isRecord(schema) || schema.type !== "object") return "not a form";
	if (!isRecord(input)) return "the answer must be an object";
	const properties = isRecord(schema.properties) ? schema.properties : {};
	const required = Array.isArray(schema.required) ? schema.required : [];
	for (const name of required) if (typeof name === "string" && !(name in input)) return `${name} is required`;
	for (const [name, value] of Object.entries(input)) {
		// Fields the form did not ask for are left alone, as JSON Schema does by default; nobody reads them.
		if (!Object.hasOwn(properties, name)) continue;
		const problem = fieldProblem(name, properties[name], value);
		if (problem) return problem;
	}
	return null;
}

/** The same check in the shape of a JSON Schema validator (what our tests, and the SDK, call it through). */
export const formValidator = {
	getValidator<T>(schema: unknown): (input: unknown) => FormCheck<T> {
		return (input: unknown) => {
			const problem = formProblem(schema, input);
			return problem === null
				? { valid: true, data: input as T, errorMessage: undefined }
				: { valid: false, data: undefined, errorMessage: problem };
		};
	},
};

export type FormCheck<T> =
	{ valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };
