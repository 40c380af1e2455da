/**
 * The gate every request passes before its route is served: one Host line naming our port (DNS rebinding), an
 * Origin only if allowed (web pages), then the bearer key, compared in constant time, with failures throttled per
 * client address. It decides and words the refusals; the server keeps the connections and the dispatch.
 */
import type { IncomingMessage } from "http";
import type { CompiledScope } from "../core/key-scope";
import type { AgentNotes } from "../service/notes/agent-notes";
import type { AgentKey } from "../settings";
import { keyNotServed } from "./key-not-served";
import { problem } from "./problems";
import type { ApiResponse } from "./response";
import { authenticate, AuthThrottle, isAllowedHost, isAllowedOrigin } from "./security";
import { corsHeaders, hostLines } from "./wire";

/** Where a person finds a key, on each host: the one the 401 points to. */
const KEY_SOURCE = {
	obsidian: "a key from Obsidian: Settings → Revision Guard → Agent keys",
	folder:
		"the key the headless host printed when it started (or a new one from `npm start " +
		"--silent -- keys add NAME --vault DIR`)",
} as const;

/** What the gate asks of the application service: the settings (keys, origins), a key's scope, the clock, the host. */
export type GateNotes = Pick<AgentNotes, "settings" | "keyScope" | "now" | "hostName">;

/** The parts of a request the gate reads; the peer's address is asked for only when a key fails. */
export type GateRequest = Pick<IncomingMessage, "headers" | "rawHeaders"> & { socket: { remoteAddress?: string } };

/** Past Host and Origin, with the CORS headers every answer to this request carries; or the refusal. */
export type Admission = { admitted: true; cors: Record<string, string> } | { admitted: false; refusal: ApiResponse };

export interface KeyCheck {
	/** The configured key the request presented, if any (even one that is not served). */
	agent: AgentKey | null;
	/** That key's compiled scope lists. */
	scoped: CompiledScope | null;
	/** The answer when the request goes no further: its key is not served, missing or wrong, or it is throttled. */
	refusal: ApiResponse | null;
}

export class RequestGate {
	private readonly throttle: AuthThrottle;

	constructor(private readonly notes: GateNotes) {
		this.throttle = new AuthThrottle(notes.now);
	}

	/** Host, then Origin: before the route is looked up, so a rebinding page or a foreign origin learns nothing. */
	admit(request: GateRequest, port: number, boundAddress: string): Admission {
		// RFC 9112 §3.2: more than one Host field line is a 400 (Node keeps the first and drops the rest silently).
		if (hostLines(request.rawHeaders) > 1) {
			return refused(
				problem(
					"bad-request",
					"The request has more than one Host header, so it was refused (RFC 9112 §3.2). Send " +
						"exactly one: Host: 127.0.0.1:PORT.",
					{},
					{ Connection: "close" },
				),
			);
		}
		if (!isAllowedHost(request.headers.host, port, boundAddress)) {
			return refused(
				problem(
					"misdirected-request",
					`This API only answers to Host 127.0.0.1:${port}, localhost:${port} or [::1]:${port}.`,
				),
			);
		}
		const origin = request.headers.origin;
		if (!isAllowedOrigin(origin, this.notes.settings().allowedOrigins, port)) {
			return refused(
				problem(
					"forbidden-origin",
					"This request came from a web page whose origin is not allowed, so it was refused. " +
						"Call the API from a local program instead.",
				),
			);
		}
		return { admitted: true, cors: origin ? corsHeaders(origin) : {} };
	}

	/**
	 * The bearer key, checked before anything else about the route is revealed: without one, only a public route
	 * answers. The refusal carries no CORS headers; the server adds the request's own.
	 */
	checkKey(request: GateRequest, publicRoute: boolean): KeyCheck {
		const agent = authenticate(request.headers.authorization, this.notes.settings().keys);
		// A key whose lists in settings do not compile is not served: never with a default scope in their place.
		const scoped = agent ? this.notes.keyScope(agent) : null;
		if (scoped !== null && !scoped.ok && !publicRoute) return { agent, scoped, refusal: keyNotServed(scoped.problem) };
		if (agent || publicRoute) return { agent, scoped, refusal: null };
		// Asked only here: the peer's address is a system call.
		const client = request.socket.remoteAddress ?? "unknown";
		const wait = this.throttle.retryAfter(client);
		if (wait > 0) {
			return {
				agent,
				scoped,
				refusal: problem(
					"too-many-attempts",
					`Too many failed authentication attempts; retry in ${Math.ceil(wait / 1000)} s with a valid key.`,
					{},
					{ "Retry-After": String(Math.ceil(wait / 1000)) },
				),
			};
		}
		this.throttle.fail(client);
		return {
			agent,
			scoped,
			refusal: problem(
				"unauthorized",
				`Send Authorization: Bearer <key> with ${KEY_SOURCE[this.notes.hostName]}.`,
				{},
				{ "WWW-Authenticate": 'Bearer realm="revision-guard"' },
			),
		};
	}
}

function refused(refusal: ApiResponse): Admission {
	return { admitted: false, refusal };
}
