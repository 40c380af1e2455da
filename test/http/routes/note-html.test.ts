// @vitest-environment happy-dom
/**
 * `Accept: text/html` over both stacks: the note rendered (Obsidian's renderer on the simulation, markdown-it
 * headless), safe to show whatever the note holds, counted as a read of part of the note (a part token), and a part of
 * a note rendered alone; a host without a renderer answers 406.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { partTokenOf } from "../../../src/core/revision-tokens";
import { createApiServer } from "../../../src/host/api-server";
import { nodeTimers } from "../../../src/headless/node-timers";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { TEST_KEY } from "../../helpers/headless-harness";
import { call } from "../../helpers/http-client";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { forbidServerErrors } from "../../helpers/no-server-errors";
import { sha256Token, writeVaultFile } from "../../helpers/vault-files";
import { STACKS, type Stack } from "../stacks";

forbidServerErrors();

const NOTE =
	"# Alpha\n\nPrimary content of Alpha. xylophone-alpha-unique\n\n## Sub\n\nSub text.\n\n# Beta\n\nBeta text.\n";
const HOSTILE =
	'# Title\n\n<script>alert(1)</script>\n\n<img src="x" onerror="alert(2)">\n\n[click](javascript:evil)\n';
const HTML = { Accept: "text/html" };

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])("Accept: text/html over the %s stack", (stack) => {
	let dir: string;
	let s: Stack;

	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-html-"));
		await writeVaultFile(dir, "Plan.md", NOTE);
		await writeVaultFile(dir, "Hostile.md", HOSTILE);
		await writeVaultFile(dir, "Data.md", "---\ntitle: Data\n---\nbody\n");
		s = await STACKS[stack](dir);
	});
	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	it("renders the note as HTML, with the note's part token as ETag", async () => {
		const res = await s.api("/vault/Plan.md", { headers: HTML });
		expect(res.status, res.text).toBe(200);
		expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
		expect(res.text).toMatch(/<h1[ >]/);
		expect(res.text).toContain("Alpha");
		expect(res.text).toContain("xylophone-alpha-unique");
		expect(res.headers.etag).toBe(`"${partTokenOf(sha256Token(NOTE))}"`);
		expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
		expect(res.headers["x-content-type-options"]).toBe("nosniff");
	});

	it("never lets a note's HTML or addresses run where the HTML is shown", async () => {
		const res = await s.api("/vault/Hostile.md", { headers: HTML });
		expect(res.status).toBe(200);
		expect(res.text).toContain("Title");
		// The note's HTML may show as escaped text (headless); never as a tag or an attribute.
		expect(res.text).not.toMatch(/<script|<[a-z][^<>]*\son[a-z]+=|href="javascript:/i);
		const shown = new DOMParser().parseFromString(res.text, "text/html");
		expect(shown.querySelectorAll("script, [onerror], a[href^='javascript']")).toHaveLength(0);
	});

	it("counts as a read of part of the note: a patch may stand on it, a whole replacement may not", async () => {
		const html = await s.api("/vault/Plan.md", { headers: HTML });
		const put = await s.api("/vault/Plan.md", { method: "PUT", body: "replaced\n" });
		expect(put.status, put.text).toBe(428);
		const withPart = await s.api("/vault/Plan.md", {
			method: "PUT",
			headers: { "If-Match": html.headers.etag as string },
			body: "replaced\n",
		});
		expect(withPart.status).toBe(428);
		const patch = await s.api("/vault/Plan.md/heading/Beta", {
			method: "PATCH",
			headers: { Operation: "append", "If-Match": html.headers.etag as string },
			body: "more\n",
		});
		expect(patch.status, patch.text).toBe(200);
		expect(await s.file("Plan.md")).toContain("more");
	});

	it("renders a heading's part alone, and refuses a frontmatter value (data, not markdown) with 400", async () => {
		const part = await s.api("/vault/Plan.md/heading/Alpha/Sub", { headers: HTML });
		expect(part.status, part.text).toBe(200);
		expect(part.headers["content-type"]).toBe("text/html; charset=utf-8");
		expect(part.text).toContain("Sub text.");
		expect(part.text).not.toContain("Beta");
		const value = await s.api("/vault/Data.md/frontmatter/title", { headers: HTML });
		expect(value.status).toBe(400);
		expect(value.json()).toMatchObject({
			type: "/problems/bad-request",
			detail: expect.stringContaining("cannot be sent as HTML"),
		});
	});

	it("answers 404 for a note that is not there, and markdown when Accept names markdown too", async () => {
		expect((await s.api("/vault/Missing.md", { headers: HTML })).status).toBe(404);
		const both = await s.api("/vault/Plan.md", { headers: { Accept: "text/markdown, text/html" } });
		expect(both.headers["content-type"]).toBe("text/markdown; charset=utf-8");
		expect(both.text).toBe(NOTE);
	});

	it("answers HEAD with the HTML's headers and no body", async () => {
		const get = await s.api("/vault/Plan.md", { headers: HTML });
		const head = await s.api("/vault/Plan.md", { method: "HEAD", headers: HTML });
		expect(head.status).toBe(200);
		expect(head.text).toBe("");
		expect(head.headers["content-type"]).toBe("text/html; charset=utf-8");
		expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
	});

	it("refuses a note over 1 MB of text with 406 not-renderable, and still serves its markdown", async () => {
		const long = "# Long\n\n" + "word ".repeat(220_000) + "\n";
		await s.edit("Long.md", long);
		const res = await s.api("/vault/Long.md", { headers: HTML });
		expect(res.status).toBe(406);
		expect(res.json()).toMatchObject({
			type: "/problems/not-renderable",
			detail: expect.stringContaining("too long to render"),
		});
		expect((await s.api("/vault/Long.md")).text).toBe(long);
	});
});

describe("Accept: text/html on a host without a renderer", () => {
	it("answers 406 not-renderable, saying to ask for markdown", async () => {
		const settings = {
			...structuredClone(DEFAULT_SETTINGS),
			keys: [{ name: "test-agent", key: TEST_KEY, created: "2026-01-01" }],
		};
		const guard = await openRevisionGuard({
			gateway: new MemoryGateway({ "a.md": "# A\n" }),
			storage: new MemoryStorage(),
			settings: () => settings,
			configDir: ".obsidian",
			timers: nodeTimers,
		});
		const server = createApiServer(guard.notes);
		const port = await server.listen(0);
		try {
			const res = await call(port, "/vault/a.md", {
				headers: { Authorization: `Bearer ${TEST_KEY}`, Accept: "text/html" },
			});
			expect(res.status).toBe(406);
			expect(res.json()).toMatchObject({
				type: "/problems/not-renderable",
				status: 406,
				detail: expect.stringContaining("without Accept: text/html"),
			});
			expect(res.headers.etag).toBeDefined();
		} finally {
			await server.close();
			await guard.close();
		}
	});
});
