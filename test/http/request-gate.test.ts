/**
 * The request gate on its own, without a socket: Host and Origin refused before anything else, the key compared by
 * the core's constant-time matchKey against every configured key, failures throttled per client address, and a key
 * whose lists do not compile never served. The same behaviour over a real server: security.test.ts.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { matchKey } from "../../src/core/keys";
import { RequestGate, type GateNotes, type GateRequest } from "../../src/http/request-gate";
import type { ApiResponse } from "../../src/http/response";
import { KeyScopes } from "../../src/service/scopes/key-scopes";
import { DEFAULT_SETTINGS, type AgentKey } from "../../src/settings";

vi.mock("../../src/core/keys", async (importOriginal) => {
	const original = await importOriginal<typeof import("../../src/core/keys")>();
	return { ...original, matchKey: vi.fn(original.matchKey) };
});

const PORT = 27125;
const ALLOWED_ORIGIN = "app://obsidian.md";
const FIRST: AgentKey = { name: "first", key: "first-key-0123456789abcdef0123456789abcdef", created: "2026-01-01" };
const SECOND: AgentKey = { name: "second", key: "second-key-fedcba9876543210fedcba9876543210", created: "2026-01-01" };
const BROKEN: AgentKey = {
	name: "broken",
	key: "broken-key-0123456789abcdef0123456789abcdef",
	created: "2026-01-01",
	write: "Projects/**",
};
const WRONG = "wrong-key-wrong-key-wrong-key-wrong-key-wrong";

let time: number;
let gate: RequestGate;

function notes(hostName: GateNotes["hostName"] = "folder"): GateNotes {
	const scopes = new KeyScopes(() => false);
	const settings = { ...DEFAULT_SETTINGS, keys: [FIRST, SECOND, BROKEN], allowedOrigins: [ALLOWED_ORIGIN] };
	return { settings: () => settings, keyScope: (key) => scopes.of(key), now: () => time, hostName };
}

/** A request as Node hands it over: `rawHeaders` holds every Host line, `headers` only the first. */
function request(
	headers: { host?: string | string[]; origin?: string; authorization?: string },
	remoteAddress = "127.0.0.1",
): GateRequest {
	const hosts = headers.host === undefined ? [] : [headers.host].flat();
	return {
		headers: { host: hosts[0], origin: headers.origin, authorization: headers.authorization },
		rawHeaders: hosts.flatMap((host) => ["Host", host]),
		socket: { remoteAddress },
	};
}

const withKey = (key: string, remoteAddress?: string) =>
	request({ host: `127.0.0.1:${PORT}`, authorization: `Bearer ${key}` }, remoteAddress);

function expectProblem(answer: ApiResponse | null, status: number, name: string): void {
	expect(answer).toMatchObject({ status, body: { type: `/problems/${name}`, status } });
}

function refusalOf(admission: ReturnType<RequestGate["admit"]>): ApiResponse | null {
	return admission.admitted ? null : admission.refusal;
}

beforeEach(() => {
	time = Date.UTC(2026, 0, 1);
	gate = new RequestGate(notes());
	vi.mocked(matchKey).mockClear();
});

describe("Host and Origin", () => {
	it.each([`127.0.0.1:${PORT}`, `localhost:${PORT}`, `LOCALHOST:${PORT}`, `[::1]:${PORT}`])(
		"admits the loopback name %s on our port, with no CORS headers for a caller without an Origin",
		(host) => {
			expect(gate.admit(request({ host }), PORT, "127.0.0.1")).toEqual({ admitted: true, cors: {} });
		},
	);

	it.each([
		["another name on our port", `evil.example:${PORT}`],
		["our address on another port", `127.0.0.1:${PORT + 1}`],
		["our address without a port", "127.0.0.1"],
		["a look-alike name", `localhost.evil.example:${PORT}`],
		["a LAN address", `192.168.1.10:${PORT}`],
		["no Host at all", undefined],
	])("refuses %s with 421 misdirected-request", (_label, host) => {
		expectProblem(refusalOf(gate.admit(request({ host }), PORT, "127.0.0.1")), 421, "misdirected-request");
	});

	it("refuses two Host lines with 400 and closes the connection, even when both name us (RFC 9112 §3.2)", () => {
		for (const second of [`127.0.0.1:${PORT}`, `evil.example:${PORT}`]) {
			const refusal = refusalOf(gate.admit(request({ host: [`127.0.0.1:${PORT}`, second] }), PORT, "127.0.0.1"));
			expectProblem(refusal, 400, "bad-request");
			expect(refusal?.headers).toMatchObject({ Connection: "close" });
		}
	});

	it("accepts a chosen listen address on our port, but never turns a wildcard into an accepted Host", () => {
		expect(gate.admit(request({ host: `192.168.1.10:${PORT}` }), PORT, "192.168.1.10").admitted).toBe(true);
		expect(gate.admit(request({ host: `0.0.0.0:${PORT}` }), PORT, "0.0.0.0").admitted).toBe(false);
	});

	it("refuses an Origin that is not allowed with 403, before the key is looked at", () => {
		const admission = gate.admit(
			request({ host: `127.0.0.1:${PORT}`, origin: "https://evil.example", authorization: `Bearer ${FIRST.key}` }),
			PORT,
			"127.0.0.1",
		);
		expectProblem(refusalOf(admission), 403, "forbidden-origin");
		expect(matchKey).not.toHaveBeenCalled();
	});

	it("admits an allowed origin and the server's own, echoing it (never *) with Vary: Origin", () => {
		for (const origin of [ALLOWED_ORIGIN, `http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`]) {
			const admission = gate.admit(request({ host: `127.0.0.1:${PORT}`, origin }), PORT, "127.0.0.1");
			expect(admission.admitted, origin).toBe(true);
			if (admission.admitted) {
				expect(admission.cors["Access-Control-Allow-Origin"]).toBe(origin);
				expect(admission.cors.Vary).toBe("Origin");
			}
		}
		const otherPort = gate.admit(
			request({ host: `127.0.0.1:${PORT}`, origin: `http://127.0.0.1:${PORT + 1}` }),
			PORT,
			"127.0.0.1",
		);
		expectProblem(refusalOf(otherPort), 403, "forbidden-origin");
	});
});

describe("the key", () => {
	it("finds each configured key through the core's constant-time matchKey, over every key", () => {
		for (const key of [FIRST, SECOND]) {
			const check = gate.checkKey(withKey(key.key), false);
			expect(check.refusal).toBeNull();
			expect(check.agent).toBe(key);
			expect(check.scoped).toMatchObject({ ok: true });
		}
		expect(matchKey).toHaveBeenCalledTimes(2);
		expect(matchKey).toHaveBeenLastCalledWith([FIRST, SECOND, BROKEN], SECOND.key);
	});

	it.each([
		["a wrong key", `Bearer ${WRONG}`],
		["a configured key with one character changed", `Bearer ${FIRST.key.slice(0, -1)}x`],
		["a prefix of a configured key", `Bearer ${FIRST.key.slice(0, 10)}`],
		["the right key in the wrong scheme", `Basic ${FIRST.key}`],
		["no key", undefined],
	])("refuses %s with 401 and WWW-Authenticate, naming where a key is found", (_label, authorization) => {
		const check = gate.checkKey(request({ host: `127.0.0.1:${PORT}`, authorization }), false);
		expect(check.agent).toBeNull();
		expectProblem(check.refusal, 401, "unauthorized");
		expect(check.refusal?.headers).toEqual({ "WWW-Authenticate": 'Bearer realm="revision-guard"' });
		expect(JSON.stringify(check.refusal?.body)).toContain("the key the headless host printed");
	});

	it("compares a wrong key with matchKey too: no shortcut refuses it before the constant-time comparison", () => {
		gate.checkKey(withKey(WRONG), false);
		expect(matchKey).toHaveBeenCalledWith([FIRST, SECOND, BROKEN], WRONG);
	});

	it("points a person in Obsidian to its settings for a key", () => {
		const check = new RequestGate(notes("obsidian")).checkKey(withKey(WRONG), false);
		expect(JSON.stringify(check.refusal?.body)).toContain("Settings → Revision Guard → Agent keys");
	});

	it("lets a public route through without a key, and counts no failure for it", () => {
		for (let i = 0; i < 20; i++) expect(gate.checkKey(withKey(WRONG), true).refusal).toBeNull();
		expectProblem(gate.checkKey(withKey(WRONG), false).refusal, 401, "unauthorized");
	});

	it("never serves a key whose lists do not compile, except on a public route", () => {
		const check = gate.checkKey(withKey(BROKEN.key), false);
		expect(check.agent).toBe(BROKEN);
		expectProblem(check.refusal, 403, "scope-forbidden");
		expect(check.refusal?.body).toMatchObject({ key: "broken", scope: "key-not-served" });
		const publicCheck = gate.checkKey(withKey(BROKEN.key), true);
		expect(publicCheck.refusal).toBeNull();
		expect(publicCheck.scoped).toMatchObject({ ok: false });
	});

	it("asks for the peer's address only when a key fails", () => {
		const asked = vi.fn(() => "127.0.0.1");
		const watched = (authorization: string): GateRequest => ({
			...request({ host: `127.0.0.1:${PORT}`, authorization }),
			socket: {
				get remoteAddress() {
					return asked();
				},
			},
		});
		gate.checkKey(watched(`Bearer ${FIRST.key}`), false);
		expect(asked).not.toHaveBeenCalled();
		gate.checkKey(watched(`Bearer ${WRONG}`), false);
		expect(asked).toHaveBeenCalledTimes(1);
	});
});

describe("the cap on failed keys", () => {
	it("answers 429 with Retry-After after ten failures from one address, while valid keys and other addresses pass", () => {
		for (let i = 0; i < 10; i++) expectProblem(gate.checkKey(withKey(WRONG), false).refusal, 401, "unauthorized");
		const throttled = gate.checkKey(withKey(WRONG), false).refusal;
		expectProblem(throttled, 429, "too-many-attempts");
		expect(throttled?.headers).toEqual({ "Retry-After": "60" });
		expect(gate.checkKey(withKey(FIRST.key), false).refusal).toBeNull();
		expectProblem(gate.checkKey(withKey(WRONG, "127.0.0.2"), false).refusal, 401, "unauthorized");
	});

	it("lets the address try again once the window has passed", () => {
		for (let i = 0; i < 10; i++) gate.checkKey(withKey(WRONG), false);
		time += 30_000;
		const halfway = gate.checkKey(withKey(WRONG), false).refusal;
		expectProblem(halfway, 429, "too-many-attempts");
		expect(halfway?.headers).toEqual({ "Retry-After": "30" });
		time += 30_001;
		expectProblem(gate.checkKey(withKey(WRONG), false).refusal, 401, "unauthorized");
	});
});
