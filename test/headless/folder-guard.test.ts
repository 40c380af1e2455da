import { mkdtemp, readdir, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, describe, expect, it } from "vitest";
import { revisionOf } from "../../src/core/revision";
import { startHeadless } from "../helpers/headless-harness";

let dir: string;
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("openFolderGuard: merge bases", () => {
	it("packs the bases of many accepted writes into segment files (no file per base), and they survive a restart", async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-folder-guard-"));
		await writeFile(join(dir, "Note.md"), "version 0\n");
		const first = await startHeadless({}, dir);
		let etag = (await first.api("/vault/Note.md")).headers.etag as string;
		for (let i = 1; i <= 30; i++) {
			const put = await first.api("/vault/Note.md", {
				method: "PUT",
				body: `version ${i}\n`,
				headers: { "If-Match": etag },
			});
			expect(put.status).toBe(204);
			etag = put.headers.etag as string;
		}
		await first.close();
		// Before the pack, every accepted write created a file of its own here (an inode in every journal commit).
		const files = await readdir(join(dir, ".revision-guard", "bases"));
		expect(files.every((name) => name.endsWith(".rgpack"))).toBe(true);
		expect(files.length).toBeLessThanOrEqual(2);

		const second = await startHeadless({}, dir);
		try {
			expect(await second.guard.bases.get(revisionOf("version 7\n"))).toBe("version 7\n");
			expect(await second.guard.bases.get(revisionOf("version 30\n"))).toBe("version 30\n");
		} finally {
			await second.close();
		}
	});
});
