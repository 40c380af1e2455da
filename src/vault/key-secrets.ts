/**
 * Agent keys out of `data.json`: where Obsidian has secret storage (1.11.4+), each key's value is kept there and
 * `data.json` holds only its name, date and secret id, so a synced or shared plugin folder never carries the keys.
 * Without secret storage the keys stay in `data.json`, as before. Keys found in `data.json` are moved over.
 *
 * Secret storage stays on the device that wrote it, while `data.json` syncs. A key whose secret this device has
 * never had was made on another device: it is kept in `data.json` untouched (never dropped, never blanked), so
 * saving settings here never takes another device's keys away.
 */
import { randomBytes } from "crypto";
import type { AgentKey } from "../settings";

/** The slice of Obsidian's SecretStorage this needs. */
export interface Secrets {
	setSecret(id: string, secret: string): void;
	getSecret(id: string): string | null;
}

/** A key as `data.json` keeps it when its value is a secret: everything but the value. */
export type StoredKey = Omit<AgentKey, "key"> & { key?: string };

/** The settings as loaded, with each key's value put back from its secret (keys whose secret is gone are dropped). */
export function withKeyValues(stored: unknown, secrets: Secrets | undefined): unknown {
	if (!secrets || !isObject(stored) || !Array.isArray(stored.keys)) return stored;
	const keys = (stored.keys as StoredKey[]).map((key) =>
		typeof key.secretId === "string" && key.key === undefined
			? { ...key, key: secrets.getSecret(key.secretId) ?? "" }
			: key,
	);
	return { ...stored, keys };
}

/** Keys `data.json` lists whose secret this device has never held: they were made on another device. */
export function keysKeptElsewhere(stored: readonly StoredKey[], secrets: Secrets | undefined): StoredKey[] {
	if (!secrets) return [];
	return stored.filter(
		(key) => typeof key.secretId === "string" && key.key === undefined && secrets.getSecret(key.secretId) === null,
	);
}

/** The settings to save: each key's value goes to secret storage and only its secret id to `data.json`. */
export function withoutKeyValues<T extends { keys: AgentKey[] }>(
	settings: T,
	secrets: Secrets | undefined,
	previous: readonly StoredKey[] = [],
): Omit<T, "keys"> & { keys: StoredKey[] } {
	if (!secrets) return settings;
	const elsewhere = keysKeptElsewhere(previous, secrets);
	const keys = settings.keys.map((key): StoredKey => {
		key.secretId ??= newSecretId();
		secrets.setSecret(key.secretId, key.key);
		// The scope lists go with the name: a key's limits must survive a save, whatever keeps its value.
		return { name: key.name, created: key.created, secretId: key.secretId, ...scopeOf(key) };
	});
	// A revoked key's secret is blanked (secret storage has no delete), so it can never authenticate again.
	const kept = new Set([...keys, ...elsewhere].map((key) => key.secretId));
	for (const old of previous) if (old.secretId && !kept.has(old.secretId)) secrets.setSecret(old.secretId, "");
	return { ...settings, keys: [...keys, ...elsewhere] };
}

function scopeOf(key: AgentKey): Pick<AgentKey, "read" | "write" | "propose"> {
	return {
		...(key.read === undefined ? {} : { read: key.read }),
		...(key.write === undefined ? {} : { write: key.write }),
		...(key.propose === undefined ? {} : { propose: key.propose }),
	};
}

function newSecretId(): string {
	return `revision-guard-key-${randomBytes(6).toString("hex")}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null;
}
