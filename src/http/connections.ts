/**
 * Keeps the server reachable under a flood of connections. A connection that has not completed an authenticated
 * request within a short grace period is closed; at the cap, a new connection makes room by closing the oldest idle
 * one that never authenticated, instead of being reset; and when none can be spared (all authenticated, busy, or
 * too fresh to judge), the newcomer is told so (503 with Retry-After) rather than dropped.
 */
import type { Socket } from "net";
import type { Timers } from "../core/timers";

export interface ConnectionLimits {
	/** Connections kept open at once. */
	max: number;
	/** How long a connection may stay open without completing an authenticated request. */
	graceMs: number;
	/** How often the grace period is checked. */
	sweepMs: number;
	/** How long a new connection is left alone before it may be closed to make room: it may be about to send its request. */
	spareAfterMs: number;
}

export const DEFAULT_LIMITS: ConnectionLimits = { max: 256, graceMs: 3_000, sweepMs: 500, spareAfterMs: 250 };

interface Connection {
	openedAt: number;
	/** It has sent a request with a valid key. */
	authenticated: boolean;
	/** Requests of it being answered now (a long-poll or an MCP stream counts while it lasts). */
	busy: number;
}

export class ConnectionGuard {
	private readonly open = new Map<Socket, Connection>();
	/** Connections answered 503 at admission: a request that still arrives on one is not answered again. */
	private readonly refused = new Set<Socket>();
	private sweep: unknown = null;

	constructor(
		private readonly timers: Timers,
		private readonly now: () => number,
		/** Answers a connection there is no room for, then closes it. */
		private readonly refuse: (socket: Socket) => void,
		private readonly limits: ConnectionLimits = DEFAULT_LIMITS,
	) {}

	/** A new connection: admitted (making room if needed), or answered 503 and closed when none can be spared. */
	admit(socket: Socket): void {
		if (this.open.size >= this.limits.max && !this.evictOne()) {
			this.refused.add(socket);
			socket.once("close", () => this.refused.delete(socket));
			this.refuse(socket);
			return;
		}
		this.open.set(socket, { openedAt: this.now(), authenticated: false, busy: 0 });
		socket.once("close", () => this.open.delete(socket));
		this.arm();
	}

	wasRefused(socket: Socket): boolean {
		return this.refused.has(socket);
	}

	requestStarted(socket: Socket): void {
		const connection = this.open.get(socket);
		if (connection) connection.busy++;
	}

	requestFinished(socket: Socket): void {
		const connection = this.open.get(socket);
		if (connection) connection.busy = Math.max(0, connection.busy - 1);
	}

	/** The connection sent a valid key: from now on only the server's keep-alive timeout applies to it. */
	authenticated(socket: Socket): void {
		const connection = this.open.get(socket);
		if (connection) connection.authenticated = true;
	}

	get size(): number {
		return this.open.size;
	}

	close(): void {
		this.timers.cancel(this.sweep);
		this.sweep = null;
	}

	/**
	 * Closes the oldest idle connection that never authenticated. Busy connections, connections younger than
	 * `spareAfterMs` (they may be about to send their request), and authenticated ones are never taken: a client
	 * that proved its key keeps its keep-alive connection (a request it sends next must not meet a reset); it is
	 * closed by the keep-alive timeout only.
	 */
	private evictOne(): boolean {
		const spareBefore = this.now() - this.limits.spareAfterMs;
		let victim: [Socket, Connection] | null = null;
		for (const entry of this.open) {
			const [, connection] = entry;
			if (connection.authenticated || connection.busy > 0 || connection.openedAt > spareBefore) continue;
			if (victim === null || connection.openedAt < victim[1].openedAt) victim = entry;
		}
		if (victim === null) return false;
		victim[0].destroy();
		this.open.delete(victim[0]);
		return true;
	}

	/** One timer for all connections, running only while some are open. */
	private arm(): void {
		if (this.sweep !== null) return;
		this.sweep = this.timers.schedule(() => {
			this.sweep = null;
			const deadline = this.now() - this.limits.graceMs;
			for (const [socket, connection] of this.open) {
				if (!connection.authenticated && connection.busy === 0 && connection.openedAt <= deadline) {
					socket.destroy();
					this.open.delete(socket);
				}
			}
			if (this.open.size > 0) this.arm();
		}, this.limits.sweepMs);
	}
}
