/**
 * Hostile load must not lock a client with a key out. Idle connections that never authenticate are closed after a
 * short grace period, and make room for new ones past the cap; when no connection can be spared, a newcomer gets a
 * clear 503 with Retry-After, never a reset; long-polls past their caps get 429 (per key) or 503 (in all).
 */
import { connect, type Socket } from "net";
import { afterEach, describe, expect, it } from "vitest";
import type { ConnectionLimits } from "../../src/http/connections";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { call } from "../helpers/http-client";
import { writeVaultFile } from "../helpers/vault-files";
import { connect as connectMcp } from "../mcp/mcp-client";

let h: Harness;
const sockets: Socket[] = [];
afterEach(async () => {
	for (const socket of sockets.splice(0)) socket.destroy();
	await h.close();
	expect(h.errors).toEqual([]);
});

/** Opens `count` connections that send nothing, and resolves once the server has taken them all in. */
async function idleConnections(count: number): Promise<Socket[]> {
	const opened = await Promise.all(
		Array.from(
			{ length: count },
			() =>
				new Promise<Socket>((resolve, reject) => {
					const socket = connect({ host: "127.0.0.1", port: h.port }, () => resolve(socket));
					socket.on("error", () => undefined);
					socket.once("error", reject);
				}),
		),
	);
	sockets.push(...opened);
	return opened;
}

function closed(socket: Socket): Promise<void> {
	return new Promise((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));
}

const authorized = { Authorization: `Bearer ${TEST_KEY}` };

describe("a flood of connections", () => {
	it("does not lock out a client with a key: 300 idle connections that never authenticate make room for it", async () => {
		h = await startHeadless({}, undefined, {
			connections: { max: 256, graceMs: 60_000, sweepMs: 1_000, spareAfterMs: 50 },
		});
		await writeVaultFile(h.dir, "Note.md", "hello\n");
		await idleConnections(300);
		// Let them all pass the age past which an idle connection may be closed to make room.
		await new Promise((resolve) => setTimeout(resolve, 60));
		const read = await call(h.port, "/vault/Note.md", { headers: authorized });
		expect(read.status).toBe(200);
		expect(read.text).toBe("hello\n");
		expect(h.server.connections.size).toBeLessThanOrEqual(256);
	});

	it("closes connections that do not complete an authenticated request within the grace period", async () => {
		h = await startHeadless({}, undefined, { connections: { max: 256, graceMs: 100, sweepMs: 20, spareAfterMs: 50 } });
		const [idle] = await idleConnections(1);
		await closed(idle!);
		expect(h.server.connections.size).toBe(0);
	});

	it("keeps an authenticated keep-alive connection past the grace period", async () => {
		h = await startHeadless({}, undefined, { connections: { max: 256, graceMs: 100, sweepMs: 20, spareAfterMs: 50 } });
		const [socket] = await idleConnections(1);
		const exchange = (): Promise<string> =>
			new Promise((resolve) => {
				let text = "";
				const onData = (chunk: Buffer) => {
					text += chunk.toString("utf8");
					if (/\r\n\r\n[\s\S]*"status":"OK"/.test(text)) {
						socket!.off("data", onData);
						resolve(text);
					}
				};
				socket!.on("data", onData);
				socket!.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`);
			});
		expect(await exchange()).toMatch(/^HTTP\/1\.1 200/);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(socket!.destroyed).toBe(false);
		expect(await exchange()).toMatch(/^HTTP\/1\.1 200/);
	});

	it("never closes an authenticated keep-alive connection to seat a newcomer", async () => {
		h = await startHeadless({}, undefined, {
			connections: { max: 2, graceMs: 60_000, sweepMs: 1_000, spareAfterMs: 20 },
		});
		const kept = await idleConnections(2);
		for (const socket of kept) {
			const answered = new Promise<void>((resolve) => {
				let text = "";
				const onData = (chunk: Buffer) => {
					text += chunk.toString("utf8");
					if (text.includes('"status":"OK"')) {
						socket.off("data", onData);
						resolve();
					}
				};
				socket.on("data", onData);
			});
			socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`);
			await answered;
		}
		// Both are idle, and older than the spare age: still, a client that proved its key keeps its connection.
		await new Promise((resolve) => setTimeout(resolve, 40));
		const newcomer = await call(h.port, "/", { headers: { ...authorized, Connection: "close" } });
		expect(newcomer.status).toBe(503);
		for (const socket of kept) expect(socket.destroyed).toBe(false);
	});

	it("answers a newcomer 503 with Retry-After when no connection can be spared, and serves again once one can", async () => {
		const limits: ConnectionLimits = { max: 4, graceMs: 60_000, sweepMs: 1_000, spareAfterMs: 60_000 };
		h = await startHeadless({}, undefined, { connections: limits });
		await idleConnections(4);
		const refused = await call(h.port, "/", { headers: authorized });
		expect(refused.status).toBe(503);
		expect(refused.headers["retry-after"]).toBe("1");
		expect(refused.json()).toMatchObject({ type: "/problems/server-busy" });
		for (const socket of sockets.splice(0)) socket.destroy();
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect((await call(h.port, "/", { headers: authorized })).status).toBe(200);
	});
});

describe("many long-polls", () => {
	async function conflictId(): Promise<string> {
		await writeVaultFile(h.dir, "Note.md", "one\n");
		const read = await call(h.port, "/vault/Note.md", { headers: authorized });
		await writeVaultFile(h.dir, "Note.md", "two\n");
		const stale = await call(h.port, "/vault/Note.md", {
			method: "PUT",
			body: "mine\n",
			headers: { ...authorized, "If-Match": read.headers.etag as string },
		});
		return stale.json<{ conflictId: string }>().conflictId;
	}

	it("gives every long-poll past the per-key cap a 429 with Retry-After, never a reset, and ends the others when the status changes", async () => {
		h = await startHeadless();
		const id = await conflictId();
		const polls = Array.from({ length: 40 }, () => call(h.port, `/conflicts/${id}?wait=30`, { headers: authorized }));
		// The first 16 wait; the rest are answered at once.
		const early = await Promise.all(polls.slice(16));
		for (const answer of early) {
			expect(answer.status).toBe(429);
			expect(answer.headers["retry-after"]).toBe("5");
			expect(answer.json()).toMatchObject({ type: "/problems/too-many-waits" });
		}
		expect(h.guard.waits.pending).toBe(16);
		h.guard.resolver.dismiss(id);
		for (const answer of await Promise.all(polls.slice(0, 16)))
			expect(answer.json()).toMatchObject({ status: "dismissed" });
		expect(h.guard.waits.pending).toBe(0);
	});

	it("counts a key's long-polls together, over REST and every MCP session of that key", async () => {
		h = await startHeadless();
		const id = await conflictId();
		const polls = Array.from({ length: 16 }, () => call(h.port, `/conflicts/${id}?wait=30`, { headers: authorized }));
		while (h.guard.waits.pending < 16) await new Promise((resolve) => setTimeout(resolve, 5));
		const mcp = await connectMcp(h.port, TEST_KEY);
		try {
			const refused = await mcp.tool("conflict_status", { id, wait: 30 });
			expect(refused.isError).toBe(true);
			expect(refused.details).toMatchObject({ error: "too-many-waits" });
		} finally {
			await mcp.close();
		}
		h.guard.resolver.dismiss(id);
		await Promise.all(polls);
	});

	it("stops waiting when the client goes away", async () => {
		h = await startHeadless();
		const id = await conflictId();
		const socket = connect({ host: "127.0.0.1", port: h.port });
		socket.write(
			`GET /conflicts/${id}?wait=30 HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`,
		);
		while (h.guard.waits.pending === 0) await new Promise((resolve) => setTimeout(resolve, 5));
		socket.destroy();
		while (h.guard.waits.pending > 0) await new Promise((resolve) => setTimeout(resolve, 5));
		expect(h.guard.waits.pending).toBe(0);
	});
});
