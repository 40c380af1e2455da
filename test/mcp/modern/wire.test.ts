/** The pure 2026-07-28 wire checks: which era a POST speaks, the order of refusals, and the Base64 header form. */
import { describe, expect, it } from "vitest";
import { checkModern, decodeHeaderValue, isModern } from "../../../src/mcp/modern/wire";
import { MODERN_META } from "./modern-client";

const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" };
const request = (meta: Record<string, unknown> = MODERN_META) => ({
	jsonrpc: "2.0",
	id: 1,
	method: "tools/list",
	params: { _meta: meta },
});

describe("which era a request speaks", () => {
	it("leaves initialize-era traffic to the legacy stack, whatever it lacks", () => {
		expect(isModern({}, { jsonrpc: "2.0", id: 1, method: "tools/list" })).toBe(false);
		expect(isModern({ "mcp-protocol-version": "2025-11-25" }, { jsonrpc: "2.0", id: 1, method: "tools/list" })).toBe(
			false,
		);
		expect(isModern({ "mcp-protocol-version": "2025-06-18" }, [request()])).toBe(false);
	});

	it("takes a modern _meta, or a header naming a version the legacy stack does not know, as modern", () => {
		expect(isModern({}, request())).toBe(true);
		expect(isModern({ "mcp-protocol-version": "2026-07-28" }, { jsonrpc: "2.0", id: 1, method: "tools/list" })).toBe(
			true,
		);
		expect(isModern({ "mcp-protocol-version": "1900-01-01" }, {})).toBe(true);
		// A legacy version in _meta with a modern header is a mismatch for the modern checks to name.
		expect(
			isModern(headers, request({ ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "2025-11-25" })),
		).toBe(true);
	});
});

describe("checking a modern request", () => {
	it("takes a method named like an Object property (constructor, toString, __proto__) as a method, not a named one", () => {
		for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
			const checked = checkModern({ ...headers, "mcp-method": method }, { ...request(), method });
			expect(checked, method).toMatchObject({ ok: true, request: { method } });
		}
	});

	it("accepts a conforming request and hands on its capabilities", () => {
		const checked = checkModern(headers, request());
		expect(checked).toMatchObject({
			ok: true,
			request: { id: 1, method: "tools/list", version: "2026-07-28", clientCapabilities: {} },
		});
	});

	it("names an unsupported version before a missing field, so the client learns what to retry with", () => {
		const checked = checkModern({ ...headers, "mcp-protocol-version": "2099-01-01" }, request({}));
		expect(checked).toMatchObject({
			ok: false,
			refusal: { status: 400, code: -32022, data: { requested: "2099-01-01" } },
		});
	});

	it("refuses ids that are neither strings nor numbers, and non-objects", () => {
		expect(checkModern(headers, { ...request(), id: null })).toMatchObject({ ok: false, refusal: { code: -32600 } });
		expect(checkModern(headers, { ...request(), id: { nested: 1 } })).toMatchObject({
			ok: false,
			refusal: { code: -32600 },
		});
		expect(checkModern(headers, "text")).toMatchObject({ ok: false, refusal: { code: -32600 } });
		expect(
			checkModern(headers, {
				...request(),
				params: { _meta: { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": "all" } },
			}),
		).toMatchObject({ ok: false, refusal: { code: -32602 } });
	});
});

describe("the Base64 sentinel form of a header value", () => {
	it("decodes UTF-8 and passes plain values through", () => {
		expect(decodeHeaderValue("read_note")).toBe("read_note");
		expect(decodeHeaderValue(`=?base64?${Buffer.from("Überblick", "utf8").toString("base64")}?=`)).toBe("Überblick");
	});

	it("rejects broken Base64, bytes that are not UTF-8, and control characters", () => {
		expect(decodeHeaderValue("=?base64?not base64?=")).toBeNull();
		expect(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=`)).toBeNull();
		expect(decodeHeaderValue("a\u0001b")).toBeNull();
	});
});
