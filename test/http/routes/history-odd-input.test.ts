/** History and undo routes on odd input: always an answer with the next step, never a 500. */
import { describe, expect, it } from "vitest";
import { eachHeadless, type Harness } from "../../helpers/headless-harness";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { writeVaultFile } from "../../helpers/vault-files";

forbidServerErrors();

let h: Harness;
eachHeadless((harness) => (h = harness), {}, { noServerErrors: true });

describe("history routes on odd input", () => {
	it("never answer 500", async () => {
		await writeVaultFile(h.dir, "dir/a.md", "x\n");
		await writeVaultFile(h.dir, "f.md/a.md", "x\n");
		await writeVaultFile(h.dir, "b.md", "y\n");
		await h.api("/vault/b.md");
		const etag = (await h.api("/vault/b.md")).headers.etag as string;
		const requests: [string, { method?: string; headers?: Record<string, string> }?][] = [
			["/history/dir"],
			["/history/dir/"],
			["/history/dir.md"],
			["/history/f.md"],
			["/history/f.md?revision=x"],
			["/history/f.md/restore?revision=x", { method: "POST", headers: { "If-None-Match": "*" } }],
			["/history/f.md/revert", { method: "POST", headers: { "If-None-Match": "*" } }],
			["/history/b.md?offset=9007199254740991&limit=9007199254740991"],
			["/history/b.md?offset=-1"],
			["/history/b.md?limit=abc"],
			["/history/b.md?revision=%22%22"],
			["/history/b.md?revision=zz&offset=99999999999"],
			["/history/b.bak.md"],
			["/history/Agent%20backups/b.bak.md"],
			["/history/..%2Fetc.md"],
			["/history/b.md/restore?revision=nope", { method: "POST", headers: { "If-Match": etag } }],
			["/history/b.md/restore?revision=", { method: "POST", headers: { "If-Match": etag } }],
			["/history/dir/restore?revision=x", { method: "POST", headers: { "If-Match": etag } }],
			["/history/b.md/revert?revision=nope", { method: "POST", headers: { "If-Match": etag } }],
			["/history/b.md/revert", { method: "POST", headers: { "If-None-Match": "*" } }],
			["/history/b.md/revert", { method: "POST", headers: { "If-Match": "*" } }],
			["/history/none.md/revert", { method: "POST", headers: { "If-None-Match": "*" } }],
			["/history/none.md/restore?revision=x", { method: "POST", headers: { "If-None-Match": "*" } }],
			[`/history/b.md?revision=${etag.slice(1, -1)}&offset=9007199254740991`],
			[`/history/b.md?revision=${encodeURIComponent(etag)}`],
			["/activity?limit=9007199254740991"],
			["/activity?limit=0&agent=%00"],
		];
		for (const [path, init] of requests) {
			const res = await h.api(path, init);
			expect(res.status, path).toBeLessThan(500);
		}
	});
});
