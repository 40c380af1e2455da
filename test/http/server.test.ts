import { readFile } from "fs/promises";
import { connect } from "net";
import { join } from "path";
import { beforeEach, describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../src/http/problems";
import { eachHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import type { CallResult } from "../helpers/http-client";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { allFiles, writeVaultFile } from "../helpers/vault-files";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness), {}, { noServerErrors: true });

function expectProblem(res: CallResult, status: number, name: string): void {
	expect(res.status, res.text).toBe(status);
	expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
	expect(res.json()).toMatchObject({
		type: `/problems/${name}`,
		status,
		title: PROBLEM_TYPES[name as keyof typeof PROBLEM_TYPES].title,
		detail: expect.any(String),
	});
}

async function fileText(path: string): Promise<string> {
	return readFile(join(h.dir, path), "utf8");
}

/** Files a person would see in the vault (the state folder is ours). */
async function noteFiles(): Promise<string[]> {
	return (await allFiles(h.dir)).filter((path) => !path.startsWith(".revision-guard/"));
}

describe("routing", () => {
	it.each(["/nope", "/vault", "/conflicts/", "/problems/a/b", "/openapi.json/extra", "/VAULT/a.md"])(
		"answers an unknown route %s with 404 route-not-found",
		async (path) => {
			const res = await h.api(path);
			expectProblem(res, 404, "route-not-found");
		},
	);

	it.each([
		["PUT", "/conflicts", "GET, HEAD"],
		["DELETE", "/openapi.json", "GET, HEAD"],
		["POST", "/changes/a.md?since=x", "GET, HEAD"],
		["PATCH", "/changes/a.md?since=x", "GET, HEAD"],
	])("answers %s %s with 405 and Allow: %s", async (method, path, allow) => {
		const res = await h.api(path, { method });
		expectProblem(res, 405, "method-not-allowed");
		expect(res.headers.allow).toBe(allow);
	});

	it("answers a method the server does not know with 405 and an Allow header", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const res = await h.api("/vault/a.md", { method: "PROPFIND" });
		expectProblem(res, 405, "method-not-allowed");
		expect(res.headers.allow).toBe("GET, PUT, POST, DELETE, PATCH, MOVE, COPY, HEAD");
		expect(await fileText("a.md")).toBe("one\n");
	});

	it("sends X-Content-Type-Options: nosniff on every answer", async () => {
		for (const path of ["/", "/vault/", "/nope"])
			expect((await h.api(path)).headers["x-content-type-options"], path).toBe("nosniff");
	});

	it("names only documented problem types, each served at its type URI", async () => {
		const answers = await Promise.all([
			h.api("/nope"),
			h.api("/vault/missing.md"),
			h.api("/vault/a.png"),
			h.raw("/vault/"),
		]);
		for (const res of answers) {
			const type = res.json<{ type: string }>().type;
			expect(type).toMatch(/^\/problems\//);
			expect((await h.api(type)).status, type).toBe(200);
		}
	});
});

describe("request bodies", () => {
	const BIG = "x".repeat(2000);

	beforeEach(() => {
		h.settings.maxBodyMB = 0.001; // 1048 bytes
	});

	it("refuses a body over maxBodyMB with 413 and creates nothing (declared Content-Length)", async () => {
		const res = await h.api("/vault/big.md", {
			method: "PUT",
			body: BIG,
			headers: { "Content-Length": String(BIG.length) },
		});
		expectProblem(res, 413, "payload-too-large");
		expect(await noteFiles()).toEqual([]);
	});

	it("refuses a chunked body that grows over maxBodyMB with 413 and creates nothing", async () => {
		const res = await h.api("/vault/big.md", { method: "PUT", body: BIG });
		expectProblem(res, 413, "payload-too-large");
		expect(await noteFiles()).toEqual([]);
	});

	it("refuses an oversized update or append with 413 and leaves the note as it was", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = (await h.api("/vault/a.md")).headers.etag as string;
		expectProblem(
			await h.api("/vault/a.md", { method: "PUT", body: BIG, headers: { "If-Match": etag } }),
			413,
			"payload-too-large",
		);
		expectProblem(await h.api("/vault/a.md", { method: "POST", body: BIG }), 413, "payload-too-large");
		expect(await fileText("a.md")).toBe("one\n");
		expect(await noteFiles()).toEqual(["a.md"]);
	});

	it("accepts a body at the limit and keeps serving after a 413", async () => {
		await h.api("/vault/big.md", { method: "PUT", body: BIG });
		const res = await h.api("/vault/fits.md", { method: "PUT", body: "y".repeat(1048) });
		expect(res.status).toBe(204);
		expect(await fileText("fits.md")).toBe("y".repeat(1048));
	});

	it("answers 413 to a chunked body that never ends and closes its connection, without reading it to the end", async () => {
		const socket = connect(h.port, "127.0.0.1");
		socket.on("error", () => undefined);
		let received = "";
		socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
		socket.write(
			`PUT /vault/endless.md HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nAuthorization: Bearer ${TEST_KEY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
		);
		const chunk = "x".repeat(512);
		let sent = 0;
		// Keeps sending until the server closes the connection; a server that read on to the end would never answer.
		const sending = setInterval(() => {
			if (socket.writable) {
				socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
				sent += chunk.length;
			}
		}, 2);
		try {
			await new Promise<void>((resolve) => socket.once("close", () => resolve()));
		} finally {
			clearInterval(sending);
		}
		expect(received).toMatch(/^HTTP\/1\.1 413 /);
		expect(received.toLowerCase()).toContain("connection: close");
		expect(sent).toBeGreaterThan(1048);
		expect(await noteFiles()).toEqual([]);
	});

	it.each([
		["a lone 0xff 0xfe", Buffer.from([0xff, 0xfe, 0x41])],
		["an overlong slash", Buffer.from([0x61, 0xc0, 0xaf])],
		["an encoded surrogate", Buffer.from([0xed, 0xa0, 0x80])],
		["a cut-off emoji", Buffer.from("ok 🎉", "utf8").subarray(0, 5)],
	])("refuses a body with %s with 400 invalid-utf8 and creates nothing", async (_label, body) => {
		const res = await h.api("/vault/bad.md", { method: "PUT", body });
		expectProblem(res, 400, "invalid-utf8");
		expect(await noteFiles()).toEqual([]);
	});

	it("reads the next body whole after a refused one (a cut-off character leaves nothing behind for the next request)", async () => {
		expectProblem(
			await h.api("/vault/bad.md", { method: "PUT", body: Buffer.from("ok 🎉", "utf8").subarray(0, 5) }),
			400,
			"invalid-utf8",
		);
		expect((await h.api("/vault/good.md", { method: "PUT", body: Buffer.from("\u00a9 kept\n", "utf8") })).status).toBe(
			204,
		);
		expect(await fileText("good.md")).toBe("\u00a9 kept\n");
	});

	it("refuses an invalid UTF-8 update or append with 400 and leaves the note as it was", async () => {
		await writeVaultFile(h.dir, "a.md", "one\n");
		const etag = (await h.api("/vault/a.md")).headers.etag as string;
		const body = Buffer.from([0xff, 0xfe, 0x41]);
		expectProblem(
			await h.api("/vault/a.md", { method: "PUT", body, headers: { "If-Match": etag } }),
			400,
			"invalid-utf8",
		);
		expectProblem(await h.api("/vault/a.md", { method: "POST", body }), 400, "invalid-utf8");
		expect(await fileText("a.md")).toBe("one\n");
		expect(await noteFiles()).toEqual(["a.md"]);
		expect((await h.api("/conflicts")).json()).toEqual({ conflicts: [] });
	});

	it("accepts an empty body as an empty note", async () => {
		const res = await h.api("/vault/empty.md", { method: "PUT", body: "" });
		expect(res.status).toBe(204);
		expect(await fileText("empty.md")).toBe("");
	});
});

describe("what a caller without a key can learn", () => {
	it.each([
		["GET", "/nope"],
		["PATCH", "/vault/a.md"],
		["PROPFIND", "/vault/a.md"],
		["GET", "/openapi.json"],
	])("answers %s %s with 401, revealing nothing about the route", async (method, path) => {
		const res = await h.raw(path, { method });
		expectProblem(res, 401, "unauthorized");
		expect(res.headers.allow).toBeUndefined();
	});
});

describe("paths the vault cannot use as notes", () => {
	it("answers 400 when a folder or a file is in the way, and writes nothing", async () => {
		await writeVaultFile(h.dir, "folder.md/inner.md", "x");
		await writeVaultFile(h.dir, "file.md", "f");
		expectProblem(await h.api("/vault/folder.md", { method: "PUT", body: "x" }), 400, "invalid-path");
		expectProblem(await h.api("/vault/file.md/child.md", { method: "PUT", body: "x" }), 400, "invalid-path");
		expect(await fileText("file.md")).toBe("f");
	});
});
