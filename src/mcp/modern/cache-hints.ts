/**
 * The cache hints (ttlMs, cacheScope) of 2026-07-28's cacheable results. Chosen so nothing a client caches can
 * outlive a change it would act on:
 * - a note's content (resources/read) and the list of notes (resources/list) change whenever anyone saves, and no
 *   notification reaches every client in time, so they are stale at once (0) and private (they are the key's vault);
 * - tools/list varies per key (the command tools follow the key's permission) and per host, so it is private; it
 *   changes only when the person changes settings, and a tool not yet listed can still be called by name: 5 minutes;
 * - resources/templates/list and server/discover say the same to every caller and change only with a new version
 *   of the plugin: public, one hour.
 */
export interface CacheHints {
	ttlMs: number;
	cacheScope: "public" | "private";
}

const STATIC: CacheHints = { ttlMs: 3_600_000, cacheScope: "public" };
const VAULT_DATA: CacheHints = { ttlMs: 0, cacheScope: "private" };

export const CACHE_HINTS: Readonly<Record<string, CacheHints>> = {
	"server/discover": STATIC,
	"resources/templates/list": STATIC,
	"tools/list": { ttlMs: 300_000, cacheScope: "private" },
	"resources/list": VAULT_DATA,
	"resources/read": VAULT_DATA,
};
