/**
 * The `requestState` of a 2026-07-28 InputRequiredResult: what the person is asked about, sealed so the client that
 * carries it back cannot change it. An HMAC-SHA256 under a random secret made when the host starts covers the caller,
 * the call (tool and a digest of its arguments), the note, the conflict, the revisions (the one the agent sent, the
 * note's that was asked about, the refused body's) and the choices offered, with an expiry. A state that fails any
 * check is refused, never acted on; one sealed before a restart no longer verifies.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "crypto";
import type { PersonChoice } from "../elicitation/choice-form";

/** Long enough for a person to read the question and choose; short enough that a forgotten state soon lapses. */
export const DEFAULT_STATE_TTL_MS = 15 * 60_000;

const VERSION = "rg1";

export interface AskedAbout {
	/** The key's client id the question was asked for. */
	owner: string;
	tool: string;
	/** `argumentsDigest` of the call's arguments. */
	arguments: string;
	path: string;
	conflictId: string;
	/** The revision the agent sent (null: none). */
	sentRevision: string | null;
	/** The note's revision the person was asked about: the only one a choice may replace. */
	currentRevision: string;
	/** The refused body's revision (what "take" writes). */
	proposedRevision: string;
	choices: PersonChoice[];
}

export interface SealedState extends AskedAbout {
	/** When the state lapses (ms since the epoch). */
	expires: number;
}

export type Unsealed =
	{ ok: true; state: SealedState } | { ok: false; why: "unverified" | "expired" | "other-caller" | "other-call" };

export class RequestStates {
	private readonly secret: Buffer;

	constructor(
		private readonly now: () => number,
		private readonly ttlMs = DEFAULT_STATE_TTL_MS,
		secret?: Buffer,
	) {
		this.secret = secret ?? randomBytes(32);
	}

	seal(asked: AskedAbout): string {
		const payload = Buffer.from(JSON.stringify({ ...asked, expires: this.now() + this.ttlMs }), "utf8").toString(
			"base64url",
		);
		return `${VERSION}.${payload}.${this.mac(payload)}`;
	}

	/** The state, when this host sealed it, it has not lapsed, and it was issued to this caller for this very call. */
	open(sealed: string, caller: { owner: string; tool: string; arguments: string }): Unsealed {
		const parts = sealed.split(".");
		if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false, why: "unverified" };
		const [, payload, mac] = parts as [string, string, string];
		const expected = Buffer.from(this.mac(payload), "utf8");
		const given = Buffer.from(mac, "utf8");
		// Constant time: a mismatch says nothing about how much of the MAC was right.
		if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, why: "unverified" };
		const state = parseState(payload);
		if (state === null) return { ok: false, why: "unverified" };
		if (this.now() >= state.expires) return { ok: false, why: "expired" };
		if (state.owner !== caller.owner) return { ok: false, why: "other-caller" };
		if (state.tool !== caller.tool || state.arguments !== caller.arguments) return { ok: false, why: "other-call" };
		return { ok: true, state };
	}

	private mac(payload: string): string {
		return createHmac("sha256", this.secret).update(`${VERSION}.${payload}`).digest("base64url");
	}
}

/** A digest of a call's arguments, the same whatever order their keys come in. */
export function argumentsDigest(args: unknown): string {
	return createHash("sha256").update(canonical(args)).digest("base64url");
}

function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
	if (typeof value === "object" && value !== null) {
		const record = value as Record<string, unknown>;
		return `{${Object.keys(record)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
			.join(",")}}`;
	}
	return JSON.stringify(value) ?? "null";
}

/** Only ever a payload this host sealed (its MAC verified), but read defensively all the same. */
function parseState(payload: string): SealedState | null {
	try {
		const state = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as SealedState;
		const strings = [
			state.owner,
			state.tool,
			state.arguments,
			state.path,
			state.conflictId,
			state.currentRevision,
			state.proposedRevision,
		];
		if (
			!strings.every((value) => typeof value === "string") ||
			typeof state.expires !== "number" ||
			!Array.isArray(state.choices)
		)
			return null;
		return state;
	} catch {
		return null;
	}
}
