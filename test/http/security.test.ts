import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { basename, join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROUTES } from "../../src/http/routes";
import type { ConflictRecord } from "../../src/core/conflicts";
import { startHeadless, TEST_KEY, type Harness, type HarnessOptions } from "../helpers/headless-harness";
import type { CallOptions, CallResult } from "../helpers/http-client";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { sendRaw } from "../helpers/raw-http";
import { sha256Token, visibleFiles, writeVaultFile } from "../helpers/vault-files";

forbidServerErrors();

let h: Harness;
beforeEach(async () => {
	h = await startHeadless();
});
afterEach(async () => {
	expect(h.errors).toEqual([]);
	await h.close();
});

async function restart(options: HarnessOptions): Promise<void> {
	await h.close();
	h = await startHeadless({}, undefined, options);
}

const SECOND_KEY = "second-key-fedcba9876543210fedcba9876543210";
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

function expectProblem(res: CallResult, status: number, name: string): void {
	expect(res.status, res.text).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({ type: `/problems/${name}`, status });
}

/** A concrete request path for a route template. */
function samplePath(template: string): string {
	return template
		.replace("{path}", "a.md")
		.replace("{id}", "c-20260101-000000-00000000")
		.replace("{name}", "stale-revision");
}

describe("authentication", () => {
	const protectedRoutes = ROUTES.filter((route) => !route.public);

	it("leaves only GET / and the static GET /openapi.yaml open (as the Local REST API does): the route table has exactly these public routes", () => {
		expect(ROUTES.filter((route) => route.public).map((route) => route.template)).toEqual(["/", "/openapi.yaml"]);
		expect(ROUTES.find((route) => route.template === "/openapi.yaml")?.handlers).toEqual({ GET: expect.any(Function) });
	});

	it.each(protectedRoutes.map((route) => [route.template, route] as const))(
		"answers every method on %s without a key with 401 and WWW-Authenticate",
		async (_template, route) => {
			await writeVaultFile(h.dir, "a.md", "one\n");
			const methods = [...Object.keys(route.handlers), ...(route.handlers.GET ? ["HEAD"] : [])];
			for (const method of methods) {
				const res = await h.raw(samplePath(route.template), {
					method,
					...(method === "PUT" || method === "POST" ? { body: "written without a key\n" } : {}),
				});
				expect(res.status, `${method} ${route.template}`).toBe(401);
				expect(res.headers["www-authenticate"], `${method} ${route.template}`).toBe('Bearer realm="revision-guard"');
				if (method !== "HEAD") expectProblem(res, 401, "unauthorized");
				expect(res.text).not.toContain("one\n");
			}
			expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("one\n");
			expect(await visibleFiles(h.dir)).toEqual(["a.md"]);
		},
	);

	it("answers a wrong key, or the right key in the wrong scheme, with 401", async () => {
		for (const authorization of [
			"Bearer not-the-key-not-the-key-not-the-key",
			`Basic ${TEST_KEY}`,
			TEST_KEY,
			`Token ${TEST_KEY}`,
			`Bearer ${TEST_KEY}x`,
			`Bearer ${TEST_KEY.slice(0, -1)}`,
			"Bearer ",
		]) {
			const res = await h.raw("/vault/", { headers: { Authorization: authorization } });
			expect(res.status, authorization).toBe(401);
		}
	});

	it("never takes the key from the query string or a cookie", async () => {
		const attempts: CallOptions[] = [
			{ rawPath: `/vault/?key=${TEST_KEY}` },
			{ rawPath: `/vault/?apikey=${TEST_KEY}` },
			{ rawPath: `/vault/?token=${TEST_KEY}` },
			{ rawPath: `/vault/?access_token=${TEST_KEY}` },
			{ headers: { Cookie: `key=${TEST_KEY}` } },
			{ headers: { Cookie: `apikey=${TEST_KEY}; token=${TEST_KEY}` } },
			{ headers: { Cookie: `Authorization=Bearer%20${TEST_KEY}` } },
		];
		for (const attempt of attempts) {
			const res = await h.raw("/vault/", attempt);
			expect(res.status, JSON.stringify(attempt)).toBe(401);
		}
	});

	it("accepts the key with any case of Bearer and extra spaces", async () => {
		for (const authorization of [`bearer ${TEST_KEY}`, `BEARER  ${TEST_KEY}`, `Bearer ${TEST_KEY} `]) {
			expect((await h.raw("/vault/", { headers: { Authorization: authorization } })).status, authorization).toBe(200);
		}
	});

	describe("with several named keys", () => {
		beforeEach(() => {
			h.settings.keys.push({ name: "second-agent", key: SECOND_KEY, created: "2026-01-02" });
		});

		it("tells each caller which key it used", async () => {
			expect((await h.raw("/", { headers: bearer(TEST_KEY) })).json()).toMatchObject({
				authenticated: true,
				agent: "test-agent",
			});
			expect((await h.raw("/", { headers: bearer(SECOND_KEY) })).json()).toMatchObject({
				authenticated: true,
				agent: "second-agent",
			});
		});

		it("attributes each write and each refusal to the key that made it", async () => {
			const created = await h.raw("/vault/a.md", { method: "PUT", body: "by second\n", headers: bearer(SECOND_KEY) });
			expect(created.status).toBe(204);
			const updated = await h.raw("/vault/a.md", {
				method: "PUT",
				body: "by first\n",
				headers: { ...bearer(TEST_KEY), "If-Match": created.headers.etag as string },
			});
			expect(updated.status).toBe(204);
			const sources = h.guard.history.entries("a.md").map((entry) => [entry.revision, entry.source]);
			expect(sources).toEqual([
				[sha256Token("by second\n"), { kind: "agent", agent: "second-agent" }],
				[sha256Token("by first\n"), { kind: "agent", agent: "test-agent" }],
			]);

			const stale = created.headers.etag as string;
			const bySecond = await h.raw("/vault/a.md", {
				method: "PUT",
				body: "late second\n",
				headers: { ...bearer(SECOND_KEY), "If-Match": stale },
			});
			const byFirst = await h.raw("/vault/a.md", {
				method: "PUT",
				body: "late first\n",
				headers: { ...bearer(TEST_KEY), "If-Match": stale },
			});
			for (const [res, agent] of [
				[bySecond, "second-agent"],
				[byFirst, "test-agent"],
			] as const) {
				expect(res.status).toBe(412);
				const record = (
					await h.api(`/conflicts/${res.json<{ conflictId: string }>().conflictId}`)
				).json<ConflictRecord>();
				expect(record.agent).toBe(agent);
			}
		});

		it("stops accepting a key as soon as it is removed from settings", async () => {
			expect((await h.raw("/vault/", { headers: bearer(SECOND_KEY) })).status).toBe(200);
			h.settings.keys = h.settings.keys.filter((key) => key.name !== "second-agent");
			expect((await h.raw("/vault/", { headers: bearer(SECOND_KEY) })).status).toBe(401);
			expect((await h.raw("/vault/", { headers: bearer(TEST_KEY) })).status).toBe(200);
		});
	});

	describe("throttling", () => {
		const WRONG = bearer("wrong-key-wrong-key-wrong-key-wrong");

		it("answers repeated failures with 429 and Retry-After, while a valid key still works", async () => {
			for (let i = 0; i < 10; i++)
				expect((await h.raw("/vault/", { headers: WRONG })).status, `failure ${i + 1}`).toBe(401);
			const throttled = await h.raw("/vault/", { headers: WRONG });
			expectProblem(throttled, 429, "too-many-attempts");
			const retryAfter = Number(throttled.headers["retry-after"]);
			expect(Number.isInteger(retryAfter)).toBe(true);
			expect(retryAfter).toBeGreaterThan(0);
			expect(retryAfter).toBeLessThanOrEqual(60);
			expect((await h.raw("/vault/")).status).toBe(429);
			expect((await h.api("/vault/")).status).toBe(200);
			expect((await h.api("/vault/a.md", { method: "PUT", body: "still works\n" })).status).toBe(204);
			expect((await h.raw("/vault/", { headers: WRONG })).status).toBe(429);
		});

		it("lets a client try again once the window has passed", async () => {
			let time = Date.UTC(2026, 0, 1);
			await restart({ now: () => time });
			for (let i = 0; i < 10; i++) await h.raw("/vault/", { headers: WRONG });
			expect((await h.raw("/vault/", { headers: WRONG })).status).toBe(429);
			time += 30_000;
			const halfway = await h.raw("/vault/", { headers: WRONG });
			expect(halfway.status).toBe(429);
			expect(Number(halfway.headers["retry-after"])).toBe(30);
			time += 30_001;
			expect((await h.raw("/vault/", { headers: WRONG })).status).toBe(401);
		});
	});
});

describe("Host header", () => {
	it.each([
		["another name on our port", (port: number) => `evil.example:${port}`],
		["our address on another port", (port: number) => `127.0.0.1:${port + 1}`],
		["our address without a port", () => "127.0.0.1"],
		["a look-alike name", (port: number) => `localhost.evil.example:${port}`],
		["a LAN address", (port: number) => `192.168.1.10:${port}`],
	])("answers %s with 421 and writes nothing", async (_label, host) => {
		for (const options of [{}, { method: "PUT", body: "rebound\n" }] as CallOptions[]) {
			const res = await h.api("/vault/a.md", { ...options, headers: { Host: host(h.port) } });
			expectProblem(res, 421, "misdirected-request");
		}
		expectProblem(await h.raw("/", { headers: { Host: host(h.port) } }), 421, "misdirected-request");
		expect(await visibleFiles(h.dir)).toEqual([]);
	});

	it.each([
		["a second, different Host", (port: number) => `evil.example:${port}`],
		["the same Host twice", (port: number) => `127.0.0.1:${port}`],
	])(
		"answers a request with %s (two Host lines) with 400, as RFC 9112 requires, and writes nothing",
		async (_label, second) => {
			const request = `PUT /vault/a.md HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nHost: ${second(h.port)}\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nx\n`;
			const { received } = await sendRaw(h.port, Buffer.from(request));
			const answer = received.toString("utf8");
			expect(answer.startsWith("HTTP/1.1 400 ")).toBe(true);
			expect(answer).toContain("more than one Host header");
			expect(await visibleFiles(h.dir)).toEqual([]);
		},
	);

	it.each([
		(port: number) => `localhost:${port}`,
		(port: number) => `LOCALHOST:${port}`,
		(port: number) => `[::1]:${port}`,
		(port: number) => `127.0.0.1:${port}`,
	])("accepts loopback names on our port (%#)", async (host) => {
		const res = await h.api("/vault/", { headers: { Host: host(h.port) } });
		expect(res.status).toBe(200);
	});
});

describe("Origin header", () => {
	const ALLOWED = "app://obsidian.md";

	beforeEach(() => {
		h.settings.allowedOrigins = [ALLOWED, "http://localhost:5173"];
	});

	it("sends no Access-Control-Allow-Origin to callers without an Origin", async () => {
		for (const res of [
			await h.api("/vault/"),
			await h.raw("/"),
			await h.raw("/vault/"),
			await h.api("/nope"),
			await h.api("/vault/", { method: "OPTIONS" }),
		]) {
			expect(res.headers["access-control-allow-origin"]).toBeUndefined();
		}
	});

	it.each([
		"https://evil.example",
		"null",
		"http://localhost:5174",
		"http://localhost:5173/",
		"APP://OBSIDIAN.MD",
		"http://127.0.0.1",
	])("answers Origin %s with 403 and no CORS grant, for reads, writes and preflights", async (origin) => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = (await h.api("/vault/a.md")).headers.etag as string;
		const answers = [
			await h.api("/vault/a.md", { headers: { Origin: origin } }),
			await h.api("/vault/a.md", {
				method: "PUT",
				body: "from a page\n",
				headers: { Origin: origin, "If-Match": etag },
			}),
			await h.api("/vault/a.md", { method: "DELETE", headers: { Origin: origin, "If-Match": etag } }),
			await h.raw("/", { headers: { Origin: origin } }),
			await h.raw("/vault/a.md", {
				method: "OPTIONS",
				headers: {
					Origin: origin,
					"Access-Control-Request-Method": "PUT",
					"Access-Control-Request-Headers": "authorization, if-match",
				},
			}),
		];
		for (const res of answers) {
			expectProblem(res, 403, "forbidden-origin");
			expect(res.headers["access-control-allow-origin"]).toBeUndefined();
			expect(res.headers["access-control-allow-methods"]).toBeUndefined();
			expect(res.text).not.toContain("one\n");
		}
		expect(await readFile(join(h.dir, "a.md"), "utf8")).toBe("one\n");
	});

	it("serves exactly the server's own origin, on its own port, without being listed", async () => {
		h.settings.allowedOrigins = [];
		for (const origin of [`http://127.0.0.1:${h.port}`, `http://localhost:${h.port}`])
			expect((await h.api("/vault/", { headers: { Origin: origin } })).status, origin).toBe(200);
		for (const origin of [
			`http://127.0.0.1:${h.port + 1}`,
			`https://localhost:${h.port}`,
			`http://127.0.0.1:${h.port}/`,
		])
			expectProblem(await h.api("/vault/", { headers: { Origin: origin } }), 403, "forbidden-origin");
	});

	it("echoes an allowed origin (never *) with Vary: Origin", async () => {
		for (const origin of [ALLOWED, "http://localhost:5173"]) {
			const res = await h.api("/vault/", { headers: { Origin: origin } });
			expect(res.status).toBe(200);
			expect(res.headers["access-control-allow-origin"]).toBe(origin);
			expect(res.headers.vary).toBe("Origin");
			expect(res.headers["access-control-expose-headers"]).toContain("ETag");
		}
	});

	it("grants an allowed origin's preflight with its own origin, the route's methods and If-Match", async () => {
		const res = await h.raw("/vault/a.md", {
			method: "OPTIONS",
			headers: { Origin: ALLOWED, "Access-Control-Request-Method": "PUT" },
		});
		expect(res.status).toBe(204);
		expect(res.headers["access-control-allow-origin"]).toBe(ALLOWED);
		expect(res.headers["access-control-allow-methods"]).toBe("GET, PUT, POST, DELETE, PATCH, MOVE, COPY, HEAD");
		expect(res.headers["access-control-allow-headers"]).toContain("Destination");
		expect(res.headers["access-control-allow-headers"]).toContain("If-Match");
		expect(res.headers["access-control-allow-headers"]).toContain("Authorization");
	});

	it("still requires a key from an allowed origin", async () => {
		const res = await h.raw("/vault/", { headers: { Origin: ALLOWED } });
		expect(res.status).toBe(401);
		expect(res.headers["access-control-allow-origin"]).toBe(ALLOWED);
	});

	it("never grants * even if * is put in allowedOrigins", async () => {
		h.settings.allowedOrigins = ["*"];
		const res = await h.api("/vault/", { headers: { Origin: "https://evil.example" } });
		expect(res.status).toBe(403);
		expect(res.headers["access-control-allow-origin"]).toBeUndefined();
	});
});

describe("paths that try to leave the vault", () => {
	let outside: string;
	let canary: string;
	const CANARY = "CANARY-do-not-touch\n";

	beforeEach(async () => {
		outside = await mkdtemp(join(tmpdir(), "rg-outside-"));
		canary = join(outside, "canary.md");
		await writeFile(canary, CANARY);
	});
	afterEach(async () => {
		await rm(outside, { recursive: true, force: true });
	});

	async function expectCanaryUntouched(): Promise<void> {
		expect(await readFile(canary, "utf8")).toBe(CANARY);
		expect(await readdir(outside)).toEqual(["canary.md"]);
	}

	function traversals(): string[] {
		const name = basename(outside);
		return [
			`..%2F${name}%2Fcanary.md`,
			`..%2f${name}%2fcanary.md`,
			`%2e%2e/${name}/canary.md`,
			`%2E%2E%2F${name}%2Fcanary.md`,
			`a/../../${name}/canary.md`,
			`../${name}/canary.md`,
			`./../${name}/canary.md`,
			`..%5C${name}%5Ccanary.md`,
			`..\\${name}\\canary.md`,
			`%2F${outside.slice(1).split("/").join("%2F")}%2Fcanary.md`,
			`/${outside.slice(1)}/canary.md`,
			`%2e%2e%2F${name}%252Fcanary.md`,
			`.%2e/${name}/canary.md`,
			`%c0%ae%c0%ae/${name}/canary.md`,
		];
	}

	it.each(["GET", "HEAD", "PUT", "POST", "DELETE"])(
		"refuses every traversal with %s as 400 invalid-path, reading and writing nothing outside",
		async (method) => {
			for (const rest of traversals()) {
				const options: CallOptions = {
					method,
					rawPath: `/vault/${rest}`,
					headers: { "If-Match": `"${sha256Token(CANARY)}"` },
				};
				if (method === "PUT" || method === "POST") options.body = "overwritten through traversal\n";
				const res = await h.api(`/vault/${rest}`, options);
				expect(res.status, `${method} /vault/${rest}`).toBe(400);
				if (method !== "HEAD") expect(res.json().type, rest).toBe("/problems/invalid-path");
				expect(res.text).not.toContain("CANARY");
				expect(res.headers.etag).toBeUndefined();
			}
			await expectCanaryUntouched();
			expect(await visibleFiles(h.dir)).toEqual([]);
		},
	);

	it("refuses traversal in /changes and in folder listings with 400", async () => {
		const name = basename(outside);
		for (const rawPath of [
			`/changes/..%2F${name}%2Fcanary.md?since=x`,
			`/changes/%2e%2e/${name}/canary.md?since=x`,
			`/vault/..%2F${name}/`,
			`/vault/%2e%2e/`,
			`/vault/a/../../${name}/`,
			"/vault/../",
		]) {
			const res = await h.api(rawPath, { rawPath });
			expect(res.status, rawPath).toBe(400);
			expect(res.text).not.toContain("canary.md");
		}
		await expectCanaryUntouched();
	});

	it("takes a doubly encoded dot-dot literally, inside the vault", async () => {
		const name = basename(outside);
		const rawPath = `/vault/%252e%252e/${name}/canary.md`;
		const read = await h.api(rawPath, { rawPath });
		expect(read.status).toBe(404);
		const write = await h.api(rawPath, { rawPath, method: "PUT", body: "literal\n" });
		expect(write.status).toBe(204);
		expect(await readFile(join(h.dir, "%2e%2e", name, "canary.md"), "utf8")).toBe("literal\n");
		await expectCanaryUntouched();
	});

	describe("through a symlink inside the vault", () => {
		beforeEach(async () => {
			await symlink(canary, join(h.dir, "link.md"));
			await symlink(outside, join(h.dir, "linked-folder"));
			await symlink(join(outside, "does-not-exist.md"), join(h.dir, "dangling.md"));
		});

		async function expectLinksIntact(): Promise<void> {
			for (const name of ["link.md", "linked-folder", "dangling.md"])
				expect((await lstat(join(h.dir, name))).isSymbolicLink(), name).toBe(true);
		}

		it("never serves the target's content or revision: 400 invalid-path (404 for a dangling link)", async () => {
			for (const [path, status] of [
				["/vault/link.md", 400],
				["/vault/linked-folder/canary.md", 400],
				["/vault/dangling.md", 404],
			] as const) {
				for (const options of [
					{},
					{ method: "HEAD" },
					{ headers: { Accept: "application/vnd.olrapi.note+json" } },
				] as CallOptions[]) {
					const res = await h.api(path, options);
					expect(res.status, `${options.method ?? "GET"} ${path}`).toBe(status);
					if (options.method !== "HEAD" && status === 400) expect(res.json().type).toBe("/problems/invalid-path");
					expect(res.text).not.toContain("CANARY");
					expect(res.headers.etag).toBeUndefined();
				}
			}
			const changes = await h.api(`/changes/link.md?since=${sha256Token(CANARY)}`);
			expectProblem(changes, 400, "invalid-path");
			expect(changes.text).not.toContain("CANARY");
		});

		it("never lists the linked folder or the links", async () => {
			const root = await h.api("/vault/");
			expect(root.status).toBe(200);
			expect(root.json<{ files: string[] }>().files).toEqual([]);
			const folder = await h.api("/vault/linked-folder/");
			expectProblem(folder, 400, "invalid-path");
			expect(folder.text).not.toContain("canary.md");
		});

		it("does not write a .bak through a backup folder that links outside; the refusal says the body was not kept", async () => {
			h.settings.backupFolder = "linked-folder";
			await writeVaultFile(h.dir, "a.md", "one\n");
			const etag = (await h.api("/vault/a.md")).headers.etag as string;
			await writeVaultFile(h.dir, "a.md", "two\n");
			const res = await h.api("/vault/a.md", { method: "PUT", body: "agent\n", headers: { "If-Match": etag } });
			expectProblem(res, 412, "stale-revision");
			expect(res.json()).toMatchObject({ backupPath: null, backupError: expect.any(String) });
			expect(res.json().detail).toMatch(/could NOT be kept/);
			await expectCanaryUntouched();
		});

		it("refuses PUT, POST and DELETE through a link without touching the target", async () => {
			const ifMatch = { "If-Match": `"${sha256Token(CANARY)}"` };
			const attempts: [string, CallOptions][] = [
				["/vault/link.md", { method: "PUT", body: "overwritten\n" }],
				["/vault/link.md", { method: "PUT", body: "overwritten\n", headers: ifMatch }],
				["/vault/link.md", { method: "POST", body: "appended\n" }],
				["/vault/link.md", { method: "DELETE", headers: ifMatch }],
				["/vault/linked-folder/canary.md", { method: "PUT", body: "overwritten\n", headers: ifMatch }],
				["/vault/linked-folder/canary.md", { method: "POST", body: "appended\n" }],
				["/vault/linked-folder/canary.md", { method: "DELETE", headers: ifMatch }],
				["/vault/linked-folder/new.md", { method: "PUT", body: "planted\n" }],
				["/vault/linked-folder/deeper/new.md", { method: "PUT", body: "planted\n" }],
				["/vault/dangling.md", { method: "PUT", body: "planted\n" }],
				["/vault/dangling.md", { method: "POST", body: "planted\n" }],
			];
			for (const [path, options] of attempts) {
				const res = await h.api(path, options);
				expect(res.status, `${options.method} ${path}`).toBeGreaterThanOrEqual(400);
				expect(res.status, `${options.method} ${path}`).toBeLessThan(500);
				expect(res.text).not.toContain("CANARY");
			}
			await expectCanaryUntouched();
			await expectLinksIntact();
			expect(await visibleFiles(h.dir)).toEqual(["dangling.md", "link.md", "linked-folder"]);
		});
	});
});

describe("isAllowedHost with a chosen listen address", () => {
	it("accepts that exact address on our port, besides the loopback names", async () => {
		const { isAllowedHost } = await import("../../src/http/security");
		expect(isAllowedHost("192.168.1.5:27125", 27125, "192.168.1.5")).toBe(true);
		expect(isAllowedHost("localhost:27125", 27125, "192.168.1.5")).toBe(true);
		expect(isAllowedHost("192.168.1.5:1", 27125, "192.168.1.5")).toBe(false);
		expect(isAllowedHost("evil.example:27125", 27125, "192.168.1.5")).toBe(false);
		expect(isAllowedHost("[fd00::1]:27125", 27125, "fd00::1")).toBe(true);
	});

	it("never turns a wildcard listen address into an accepted Host", async () => {
		const { isAllowedHost } = await import("../../src/http/security");
		expect(isAllowedHost("0.0.0.0:27125", 27125, "0.0.0.0")).toBe(false);
		expect(isAllowedHost("[::]:27125", 27125, "::")).toBe(false);
		expect(isAllowedHost("192.168.1.5:27125", 27125, "127.0.0.1")).toBe(false);
	});
});

describe("a note that is a symbolic link to another note inside the vault", () => {
	it("is deleted as a name: DELETE puts the link in the trash and leaves the note it points to", async () => {
		await writeVaultFile(h.dir, "real.md", "real\n");
		await symlink(join(h.dir, "real.md"), join(h.dir, "link.md"));
		const etag = (await h.api("/vault/link.md")).headers.etag as string;
		const res = await h.api("/vault/link.md", { method: "DELETE", headers: { "If-Match": etag } });
		expect(res.status, res.text).toBe(204);
		expect(await readFile(join(h.dir, "real.md"), "utf8")).toBe("real\n");
		expect((await h.api("/vault/real.md")).text).toBe("real\n");
		expect((await h.api("/vault/link.md")).status).toBe(404);
		expect((await lstat(join(h.dir, ".trash/link.md"))).isSymbolicLink()).toBe(true);
		expect(await visibleFiles(h.dir)).toEqual(["real.md"]);
	});
});
