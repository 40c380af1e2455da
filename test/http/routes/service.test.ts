import { describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../../src/http/problems";
import { eachHeadless, TEST_KEY, type Harness } from "../../helpers/headless-harness";
import { forbidServerErrors } from "../../helpers/no-server-errors";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness));

describe("GET /", () => {
	it("answers without a key and says authenticated: false", async () => {
		const res = await h.raw("/");
		expect(res.status).toBe(200);
		expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
		const body = res.json();
		expect(body).toMatchObject({ status: "OK", service: "Revision Guard", authenticated: false });
		expect(body.agent).toBeUndefined();
	});

	it("says authenticated: true and names the key's agent when a valid key is sent", async () => {
		const res = await h.raw("/", { headers: { Authorization: `Bearer ${TEST_KEY}` } });
		expect(res.json()).toMatchObject({ authenticated: true, agent: "test-agent" });
	});

	it("says authenticated: false for a wrong key instead of refusing", async () => {
		const res = await h.raw("/", { headers: { Authorization: "Bearer wrong-key-wrong-key-wrong-key" } });
		expect(res.status).toBe(200);
		expect(res.json()).toMatchObject({ authenticated: false });
	});
});

describe("GET /problems/{name}", () => {
	it("explains every problem type with its status, title and next step", async () => {
		for (const [name, type] of Object.entries(PROBLEM_TYPES)) {
			const res = await h.api(`/problems/${name}`);
			expect(res.status, name).toBe(200);
			expect(res.json(), name).toEqual({
				type: `/problems/${name}`,
				status: type.status,
				title: type.title,
				howToFix: type.howToFix,
				errorCode: expect.any(Number),
			});
		}
	});

	it("answers an unknown problem name with 404", async () => {
		for (const name of ["no-such-problem", "toString", "__proto__", "constructor"]) {
			const res = await h.api(`/problems/${name}`);
			expect(res.status, name).toBe(404);
			expect(res.headers["content-type"]).toContain("application/problem+json");
		}
	});
});
