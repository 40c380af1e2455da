import { describe, expect, it } from "vitest";
import { HOST_ROUTES } from "../../../src/host/api-server";
import { eachHeadless, type Harness } from "../../helpers/headless-harness";
import { forbidServerErrors } from "../../helpers/no-server-errors";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness));

interface OpenApiDocument {
	openapi: string;
	info: { title: string; version: string };
	paths: Record<
		string,
		Record<string, { responses?: Record<string, unknown> }> & {
			additionalOperations?: Record<string, { responses?: Record<string, unknown> }>;
		}
	>;
	components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const HTTP_METHODS = new Set(["get", "head", "put", "post", "delete", "patch", "options", "trace"]);

/** The method+template pairs the route table serves (HEAD implied by GET). */
function servedOperations(): Set<string> {
	const served = new Set<string>();
	for (const route of HOST_ROUTES) {
		for (const method of Object.keys(route.handlers)) served.add(`${method.toLowerCase()} ${route.template}`);
		if (route.handlers.GET) served.add(`head ${route.template}`);
	}
	return served;
}

async function fetchDocument(): Promise<OpenApiDocument> {
	const res = await h.api("/openapi.json");
	expect(res.status).toBe(200);
	return res.json<OpenApiDocument>();
}

describe("GET /openapi.json", () => {
	it("serves valid JSON declaring OpenAPI 3.1.0", async () => {
		const res = await h.api("/openapi.json");
		expect(res.status).toBe(200);
		expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
		const doc = JSON.parse(res.text) as OpenApiDocument;
		expect(doc.openapi).toBe("3.1.0");
		expect(doc.info.title).toEqual(expect.any(String));
		expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
	});

	it("documents every route template and method in the route table (HEAD implied by GET)", async () => {
		const doc = await fetchDocument();
		for (const route of HOST_ROUTES) {
			const documented = doc.paths[route.template];
			expect(documented, `paths["${route.template}"]`).toBeDefined();
			for (const method of Object.keys(route.handlers)) {
				// Methods outside OpenAPI 3.1's fixed set (MOVE, COPY) are described under additionalOperations, keyed as sent.
				const operation = HTTP_METHODS.has(method.toLowerCase())
					? documented?.[method.toLowerCase()]
					: documented?.additionalOperations?.[method];
				expect(operation, `${method} ${route.template}`).toBeDefined();
			}
		}
	});

	it("documents nothing the route table does not serve", async () => {
		const doc = await fetchDocument();
		const served = servedOperations();
		for (const [path, item] of Object.entries(doc.paths)) {
			const methods = [
				...Object.keys(item).filter((key) => HTTP_METHODS.has(key)),
				...Object.keys(item.additionalOperations ?? {}).map((method) => method.toLowerCase()),
			];
			expect(methods.length, `${path} has operations`).toBeGreaterThan(0);
			for (const method of methods)
				expect(served.has(`${method} ${path}`), `${method.toUpperCase()} ${path} is documented but not routed`).toBe(
					true,
				);
		}
	});

	it("gives every documented operation at least one response, and every $ref resolves", async () => {
		const doc = await fetchDocument();
		for (const [path, item] of Object.entries(doc.paths)) {
			for (const [method, operation] of [...Object.entries(item), ...Object.entries(item.additionalOperations ?? {})]) {
				if (!HTTP_METHODS.has(method) && !item.additionalOperations?.[method]) continue;
				expect(Object.keys(operation.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
			}
		}
		const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
			(match) => match[1]!,
		);
		expect(refs.length).toBeGreaterThan(0);
		for (const name of refs) expect(doc.components.schemas[name], name).toBeDefined();
	});

	it("documents 202 (a change that waits for the person) on every operation that changes a note's content", async () => {
		const doc = await fetchDocument();
		const contentRoutes = Object.keys(doc.paths).filter(
			(path) => path.startsWith("/vault/{path}") || path.startsWith("/periodic/") || path.startsWith("/active/"),
		);
		expect(contentRoutes.length).toBeGreaterThan(4);
		for (const path of contentRoutes) {
			for (const method of ["put", "post", "patch"]) {
				const operation = doc.paths[path]![method];
				if (operation === undefined) continue;
				expect(Object.keys(operation.responses ?? {}), `${method.toUpperCase()} ${path}`).toContain("202");
			}
		}
	});

	it("needs a key like every route but GET /", async () => {
		const res = await h.raw("/openapi.json");
		expect(res.status).toBe(401);
	});
});
