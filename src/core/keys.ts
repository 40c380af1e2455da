/** API keys: generation and constant-time lookup. */
import { randomBytes } from "crypto";

/** A fresh 256-bit key, base64url. */
export function generateKey(): string {
	return randomBytes(32).toString("base64url");
}

/**
 * Finds the named key that matches `presented`, in constant time: every configured key is compared in full, with
 * no early exit, so timing tells neither how much of a key matched nor which key did. (Hashing both sides for
 * timingSafeEqual did the same at about a hundred times the cost, on every request.)
 */
export function matchKey<K extends { key: string }>(keys: readonly K[], presented: string): K | undefined {
	let found: K | undefined;
	for (const candidate of keys) {
		if (sameSecret(candidate.key, presented) && !found) found = candidate;
	}
	return found;
}

/**
 * Whether two strings are equal, reading all of `secret` whatever `presented` holds: differences are gathered with
 * OR, never branched on. The time depends only on the secret's length, which is no secret (generated keys are all
 * 43 characters). Past the end of `presented`, charCodeAt gives NaN, which `| 0` turns into 0.
 */
function sameSecret(secret: string, presented: string): boolean {
	let difference = secret.length ^ presented.length;
	for (let i = 0; i < secret.length; i++) difference |= secret.charCodeAt(i) ^ (presented.charCodeAt(i) | 0);
	return difference === 0;
}
