/**
 * Merge previews name the markdown rules that merged parts of them (RULES.md): `mergeRules` beside a 412's
 * mergePreview (REST and MCP) and in GET /conflicts/{id}/merge, absent when git's rules alone decided.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_KEY, startHeadless, type Harness } from "../helpers/headless-harness";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { writeVaultFile } from "../helpers/vault-files";
import { connect } from "../mcp/mcp-client";

forbidServerErrors();

const BASE = "# Plan\n\nintro\n\n- [ ] one\n- [ ] two\n\nend\n";
/** The person edits the intro and ticks `one`; the agent rewrites the intro and edits `two`, right below `one`. */
const PERSON = BASE.replace("intro", "intro, by the person").replace("- [ ] one", "- [x] one");
const AGENT = BASE.replace("intro", "intro, by the agent").replace("- [ ] two", "- [ ] two, sooner");

let h: Harness;
beforeEach(async () => {
	h = await startHeadless();
	await writeVaultFile(h.dir, "Plan.md", BASE);
});
afterEach(async () => {
	await h.close();
});

async function staleWrite(
	body: string,
	prefer?: string,
): Promise<{ status: number; problem: Record<string, unknown> }> {
	const etag = (await h.api("/vault/Plan.md")).headers.etag as string;
	await writeVaultFile(h.dir, "Plan.md", PERSON);
	const res = await h.api("/vault/Plan.md", {
		method: "PUT",
		body,
		headers: { "If-Match": etag, ...(prefer ? { Prefer: prefer } : {}) },
	});
	return { status: res.status, problem: res.json<Record<string, unknown>>() };
}

describe("mergeRules in merge previews", () => {
	it("names the list rule beside a 412's mergePreview when it merged the ticked task next to the agent's edit", async () => {
		const { status, problem } = await staleWrite(AGENT, "merge=auto");
		expect(status).toBe(412);
		expect(problem.mergePreview).toContain("- [x] one\n- [ ] two, sooner\n");
		expect(problem.mergeRules).toEqual(["list"]);
	});

	it("leaves mergeRules out when git's rules alone decided", async () => {
		const { problem } = await staleWrite(BASE.replace("intro", "intro, by the agent"), "merge=auto");
		expect(problem.mergePreview).toContain("<<<<<<<");
		expect(problem).not.toHaveProperty("mergeRules");
	});

	it("names it in GET /conflicts/{id}/merge too", async () => {
		const { problem } = await staleWrite(AGENT);
		const merge = (await h.api(`/conflicts/${String(problem.conflictId)}/merge`)).json<Record<string, unknown>>();
		expect(merge).toMatchObject({ clean: false, conflicts: 1, mergeRules: ["list"] });
	});

	it("names it in an MCP refusal", async () => {
		const mcp = await connect(h.port, TEST_KEY);
		try {
			const read = await mcp.tool("read_note", { path: "Plan.md" });
			await writeVaultFile(h.dir, "Plan.md", PERSON);
			const clash = await mcp.tool("write_note", {
				path: "Plan.md",
				content: AGENT,
				revision: read.structured!.revision,
				merge: "auto",
			});
			expect(clash.isError).toBe(true);
			expect(clash.details).toMatchObject({ mergeRules: ["list"] });
		} finally {
			await mcp.close();
		}
	});
});

describe("mergeRules on a clean merge=auto write", () => {
	const person = BASE.replace("- [ ] one", "- [x] one");
	const agent = BASE.replace("- [ ] two", "- [ ] two, sooner");

	it("names the rule in the 200 of PUT", async () => {
		const etag = (await h.api("/vault/Plan.md")).headers.etag as string;
		await writeVaultFile(h.dir, "Plan.md", person);
		const res = await h.api("/vault/Plan.md", {
			method: "PUT",
			body: agent,
			headers: { "If-Match": etag, Prefer: "merge=auto" },
		});
		expect(res.status).toBe(200);
		expect(res.json()).toMatchObject({ merged: true, mergeRules: ["list"] });
	});

	it("names the rule in write_note's result, and leaves it out of a merge git's rules decided", async () => {
		const mcp = await connect(h.port, TEST_KEY);
		try {
			const read = await mcp.tool("read_note", { path: "Plan.md" });
			await writeVaultFile(h.dir, "Plan.md", person);
			const merged = await mcp.tool("write_note", {
				path: "Plan.md",
				content: agent,
				revision: read.structured!.revision,
				merge: "auto",
			});
			expect(merged.structured).toMatchObject({ merged: true, mergeRules: ["list"] });
			const now = await mcp.tool("read_note", { path: "Plan.md" });
			await writeVaultFile(
				h.dir,
				"Plan.md",
				(now.structured!.content as string).replace("intro", "intro, by the person"),
			);
			const plain = await mcp.tool("write_note", {
				path: "Plan.md",
				content: (now.structured!.content as string).replace("end", "the end"),
				revision: now.structured!.revision,
				merge: "auto",
			});
			expect(plain.structured).toMatchObject({ merged: true });
			expect(plain.structured).not.toHaveProperty("mergeRules");
		} finally {
			await mcp.close();
		}
	});
});
