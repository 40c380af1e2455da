/** API keys: generation and constant-time lookup. */
import * as crypto from "crypto";
import { randomBytes, timingSafeEqual } from "crypto";

/** A fresh 256-bit key, base64url. */
export function generateKey(): string {
	return randomBytes(32).toString("base64url");
}

/** Asked on every request: Node's one-shot hash where there is one (no Hash object per call), as in revision.ts. */
const digest: (value: string) => Buffer =
	typeof crypto.hash === "function" ? (value) => crypto.hash("sha256", value, "buffer") : (value) => crypto.createHash("sha256").update(value, "utf8").digest();

/**
 * Finds the named key that matches `presented`. Both sides are hashed first, so lengths never differ and
 * timingSafeEqual never throws; every key is compared, so timing does not reveal which one matched.
 */
export function matchKey<K extends { key: string }>(keys: readonly K[], presented: string, digests = new KeyDigests()): K | undefined {
	const presentedDigest = digest(presented);
	let found: K | undefined;
	for (const candidate of keys) {
		if (timingSafeEqual(digests.of(candidate.key), presentedDigest) && !found) found = candidate;
	}
	return found;
}

/** Digests of configured keys, each computed once: a long-lived server compares every request against all of them. */
export class KeyDigests {
	private readonly known = new Map<string, Buffer>();

	of(key: string): Buffer {
		let known = this.known.get(key);
		if (!known) {
			// Revoked and regenerated keys would otherwise pile up; no real key list comes near this.
			if (this.known.size > 1000) this.known.clear();
			known = digest(key);
			this.known.set(key, known);
		}
		return known;
	}
}
