/**
 * A key whose lists in settings are malformed is not served (issue 24): in the plugin, where settings hold it as
 * typed, every request made with it is refused 403 scope-forbidden naming the key and the field, REST and MCP alike;
 * never served with a default scope. The other keys are served as before.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { describe, expect, it } from "vitest";
import type { AgentKey } from "../../src/settings";
import { TEST_KEY } from "../helpers/headless-harness";
import { writeVaultFile } from "../helpers/vault-files";
import { INITIALIZE, MCP_ACCEPT } from "../mcp/mcp-client";
import { STACKS, TWO_KEYS } from "./stacks";

const BROKEN_KEY = "broken-key-0123456789abcdef0123456789abcdef";
const BROKEN: AgentKey = { name: "broken", key: BROKEN_KEY, created: "2026-01-01", read: ["**"], write: "Projects/**" };

for (const [name, start] of Object.entries(STACKS)) {
	describe(`a key with malformed lists (${name})`, () => {
		it("is refused on every route and on MCP, naming the key and the field; other keys are served", async () => {
			const dir = await mkdtemp(join(tmpdir(), "rg-not-served-"));
			await writeVaultFile(dir, "a.md", "a\n");
			const s = await start(dir, { settings: { keys: [...TWO_KEYS, BROKEN] } });
			try {
				const broken = { Authorization: `Bearer ${BROKEN_KEY}` };
				for (const path of ["/vault/a.md", "/vault/", "/tags/", "/activity"]) {
					const answer = await s.api(path, { headers: broken });
					expect(answer.status, path).toBe(403);
					expect(answer.json(), path).toMatchObject({
						type: "/problems/scope-forbidden",
						errorCode: 40300,
						key: "broken",
						scope: "key-not-served",
						rule: { list: "write" },
					});
					expect(answer.json<{ detail: string }>().detail).toContain(
						'The write list of the key "broken" must be a list of globs',
					);
				}
				const mcp = await s.api("/mcp", {
					method: "POST",
					headers: { ...broken, Accept: MCP_ACCEPT, "Content-Type": "application/json" },
					body: JSON.stringify(INITIALIZE),
				});
				expect(mcp.status).toBe(403);
				expect((await s.api("/", { headers: broken })).status).toBe(200);
				expect((await s.api("/vault/a.md", { headers: { Authorization: `Bearer ${TEST_KEY}` } })).status).toBe(200);
			} finally {
				await s.close();
				await rm(dir, { recursive: true, force: true });
			}
		});
	});
}
