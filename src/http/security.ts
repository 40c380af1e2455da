/** The gates every request passes before a handler: Host (DNS rebinding), Origin (web pages), and the bearer key. */
import { createHash } from "crypto";
import { matchKey } from "../core/keys";
import type { AgentKey } from "../settings";

/**
 * Only loopback names on our own port; anything else may be a DNS-rebinding page. When the person chose to listen
 * on another address, that exact address (on our port) is accepted too.
 */
export function isAllowedHost(host: string | undefined, port: number, boundAddress = "127.0.0.1"): boolean {
	if (!host) return false;
	const value = host.toLowerCase();
	if (value === `127.0.0.1:${port}` || value === `localhost:${port}` || value === `[::1]:${port}`) return true;
	const bound = boundAddress.includes(":") ? `[${boundAddress}]` : boundAddress;
	return !isLoopback(boundAddress) && !isWildcard(boundAddress) && value === `${bound.toLowerCase()}:${port}`;
}

export function isLoopback(address: string): boolean {
	return address === "127.0.0.1" || address === "::1" || address === "localhost";
}

function isWildcard(address: string): boolean {
	return address === "0.0.0.0" || address === "::";
}

/**
 * No Origin header means a non-browser client. A present Origin must be explicitly allowed, or be exactly this
 * server's own origin (`port`): a page there is one we served, and DNS rebinding cannot forge it, because its Host
 * would name the attacker's domain, which the Host check refuses. MCP's conformance suite sends it.
 */
export function isAllowedOrigin(origin: string | undefined, allowed: readonly string[], port?: number): boolean {
	return origin === undefined || allowed.includes(origin) || (port !== undefined && ownOrigins(port).includes(origin));
}

export function ownOrigins(port: number): string[] {
	return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** The key from `Authorization: Bearer <key>`; the key is never taken from a query string or cookie. */
export function bearerToken(authorization: string | undefined): string | null {
	if (!authorization) return null;
	const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization);
	return match ? match[1]! : null;
}

export function authenticate(authorization: string | undefined, keys: readonly AgentKey[]): AgentKey | null {
	const token = bearerToken(authorization);
	if (token === null) return null;
	return matchKey(keys, token) ?? null;
}

/**
 * Slows repeated failed authentication from one client address. Valid keys are never slowed; after a handful of
 * failures, further failures are answered 429 until the window passes, so a key cannot be guessed at speed.
 */
export class AuthThrottle {
	private readonly failures = new Map<string, { count: number; since: number }>();

	constructor(
		private readonly now: () => number,
		private readonly allowedFailures = 10,
		private readonly windowMs = 60_000,
	) {}

	/** Milliseconds the client must wait, or 0 when it may try. */
	retryAfter(client: string): number {
		const entry = this.failures.get(client);
		if (!entry) return 0;
		const elapsed = this.now() - entry.since;
		if (elapsed > this.windowMs) {
			this.failures.delete(client);
			return 0;
		}
		return entry.count >= this.allowedFailures ? this.windowMs - elapsed : 0;
	}

	fail(client: string): void {
		const entry = this.failures.get(client);
		if (!entry || this.now() - entry.since > this.windowMs) this.failures.set(client, { count: 1, since: this.now() });
		else entry.count++;
		if (this.failures.size > 10_000) this.failures.clear();
	}
}

/** A stable name for the client behind a key (for remembering its reads) that never holds the key itself. */
export function clientIdOf(key: string): string {
	// Asked on every authenticated request, for one of the few configured keys: each is hashed once.
	let id = clientIds.get(key);
	if (id === undefined) {
		id = "key:" + createHash("sha256").update(key, "utf8").digest("base64url").slice(0, 22);
		if (clientIds.size >= 256) clientIds.clear();
		clientIds.set(key, id);
	}
	return id;
}

const clientIds = new Map<string, string>();
