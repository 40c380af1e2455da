/**
 * A generated corpus of note names that other programs put on disk: decomposed (NFD) and composed (NFC) accents,
 * combining marks, no-break spaces, emoji and other 4-byte characters, and names of every length up to the 255-byte
 * limit, with 2-, 3- and 4-byte characters falling across the cut points. Every name the listing shows must be
 * readable, updatable, refusable (with a .bak that fits the limit and keeps the exact bytes), and deletable by that
 * exact name, without ever creating a second file; a look-alike twin is refused.
 */
import { readdir } from "fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHeadless, type Harness } from "../helpers/headless-harness";
import { readVaultFile, visibleFiles, writeVaultFile } from "../helpers/vault-files";

/** Fills a name with `unit` up to exactly `bytes` UTF-8 bytes (padding with ASCII), ending in ".md". */
function nameOfBytes(bytes: number, unit: string): string {
	let stem = "";
	while (Buffer.byteLength(stem + unit) <= bytes - 3) stem += unit;
	while (Buffer.byteLength(stem) < bytes - 3) stem += "x";
	return stem + ".md";
}

const NAMES: string[] = [
	"Cafe\u0301.md",
	"Caf\u00e9 au lait.md",
	"Re\u0301sume\u0301 2026.md",
	"a\u0308o\u0308u\u0308.md",
	"my\u00a0note.md",
	"Z\u0351\u0352\u0353algo.md",
	"\u{1F600} smile.md",
	"\u{1D11E} clef.md",
	"\u4F60\u597D.md",
	"\u0928\u092E\u0938\u094D\u0924\u0947.md",
	"dots.in.name.md",
	...[200, 215, 224, 234, 240, 250, 255].flatMap((bytes) => [
		nameOfBytes(bytes, "a"),
		nameOfBytes(bytes, "\u00e9"),
		nameOfBytes(bytes, "\u4F60"),
		nameOfBytes(bytes, "\u{1F600}"),
		nameOfBytes(bytes, "e\u0301"),
	]),
];

describe("a corpus of odd and long note names", () => {
	let h: Harness;
	beforeAll(async () => {
		h = await startHeadless();
	});
	afterAll(async () => {
		await h.close();
		expect(h.errors).toEqual([]);
	});

	const url = (name: string) => `/vault/${encodeURIComponent(name)}`;

	it("has every name within the limit and distinct", () => {
		for (const name of NAMES) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
		expect(new Set(NAMES).size).toBe(NAMES.length);
	});

	it.each(
		NAMES.map((name) => [
			name.length > 40
				? `${Buffer.byteLength(name)} bytes of ${JSON.stringify(name.slice(0, 2))}`
				: JSON.stringify(name),
			name,
		]),
	)("serves %s by its exact name, end to end", async (_, name) => {
		await writeVaultFile(h.dir, name, "first\n");
		const listing = await h.api("/vault/");
		expect(listing.json<{ files: string[] }>().files).toContain(name);

		const read = await h.api(url(name));
		expect(read.status, read.text).toBe(200);
		expect(read.text).toBe("first\n");

		const updated = await h.api(url(name), {
			method: "PUT",
			body: "second\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(updated.status, updated.text).toBe(204);
		expect((await readVaultFile(h.dir, name)).toString()).toBe("second\n");

		// A stale write keeps its body in a .bak that fits the name limit.
		const stale = await h.api(url(name), {
			method: "PUT",
			body: "stale\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(stale.status, stale.text).toBe(412);
		const { backupPath } = stale.json<{ backupPath: string }>();
		expect(Buffer.byteLength(backupPath)).toBeLessThanOrEqual(255);
		expect((await readVaultFile(h.dir, backupPath)).toString()).toBe("stale\n");

		const current = (await h.api(url(name))).headers.etag as string;
		const deleted = await h.api(url(name), { method: "DELETE", headers: { "If-Match": current } });
		expect(deleted.status, deleted.text).toBe(204);
		expect(await visibleFiles(h.dir)).not.toContain(name);
		// Nothing was left behind under another spelling of the name (temp files included).
		const leftovers = (await readdir(h.dir)).filter(
			(entry) => entry !== ".revision-guard" && entry !== ".trash" && !entry.endsWith(".bak.md"),
		);
		expect(leftovers).toEqual([]);
	});

	it("refuses to create the other normalization of a name that exists, for every accented name", async () => {
		for (const name of NAMES.filter(
			(candidate) => candidate.normalize("NFC") !== candidate || candidate.normalize("NFD") !== candidate,
		)) {
			await writeVaultFile(h.dir, name, "original\n");
			const twin = name === name.normalize("NFC") ? name.normalize("NFD") : name.normalize("NFC");
			const res = await h.api(url(twin), { method: "PUT", body: "twin\n" });
			// 409 name-clash; a twin whose decomposed form passes the 255-byte limit is refused as too long (400).
			const expected = Buffer.byteLength(twin) > 255 ? 400 : 409;
			expect(res.status, `${JSON.stringify(twin)}: ${res.text}`).toBe(expected);
			expect((await readdir(h.dir)).filter((entry) => entry.normalize("NFC") === name.normalize("NFC"))).toEqual([
				name,
			]);
			await writeVaultFile(h.dir, name, "");
			await h.api(url(name), {
				method: "DELETE",
				headers: { "If-Match": (await h.api(url(name))).headers.etag as string },
			});
		}
	});
});
