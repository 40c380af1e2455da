/**
 * A token that passes If-Match reaches a client only with the content it names (src/core/revision-tokens.ts). Every
 * answer that shows no content (a 428, a listing, HEAD, history, a conflict record, a truncated 412, MCP's list_notes
 * and resources) is searched for anything shaped like a token, and each is sent back as every form a client might try
 * (quoted, bare, with its W/ taken off, as an MCP revision): none of them may replace or delete the person's note.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_KEY } from "../helpers/headless-harness";
import type { CallResult } from "../helpers/http-client";
import { sha256Token, visibleFiles } from "../helpers/vault-files";
import { STACKS, type Stack } from "../http/stacks";
import { connect, connectStateless, type Connected } from "../mcp/mcp-client";
import { SUBJECTS, type Subject } from "../mcp/subjects";

const NOTE = "# Plan\n\nThe person's text.\n\n## Tasks\n\n- one\n";
const PATH = "Plan.md";
const URL_PATH = "/vault/Plan.md";

/** Every value in a text or its headers that could be a token of ours, in any form a client might copy. */
function tokensIn(...texts: string[]): string[] {
	const found = new Set<string>();
	for (const text of texts)
		for (const match of text.matchAll(/(?:W\/)?"?((?:part\.|tag\.)?[A-Za-z0-9_-]{43})"?/g)) found.add(match[1]!);
	return [...found];
}

function textOf(answer: CallResult): string {
	return `${answer.text}\n${JSON.stringify(answer.headers)}`;
}

/** The ways a client might send a token it found back as If-Match. */
const FORMS = (token: string) => [`"${token}"`, token, `W/"${token}"`];

describe.each(Object.keys(STACKS))("no token without its content, over REST on the %s gateway", (name) => {
	let dir: string;
	let s: Stack;

	beforeEach(async () => {
		dir = await mkdtemp(join(tmpdir(), "rg-no-token-"));
		s = await STACKS[name as keyof typeof STACKS](dir);
		await s.edit(PATH, NOTE);
	});

	afterEach(async () => {
		await s.close();
		await rm(dir, { recursive: true, force: true });
	});

	/** Sends every token found in `answer` back as a whole-note PUT and DELETE: the note must come out untouched. */
	async function expectNoneReplaces(answer: CallResult): Promise<void> {
		const text = textOf(answer);
		// The note's revision itself never appears in an answer that showed no content.
		expect(text).not.toContain(sha256Token(NOTE));
		const tokens = tokensIn(text);
		for (const token of tokens) {
			for (const ifMatch of FORMS(token)) {
				const put = await s.api(URL_PATH, {
					method: "PUT",
					body: "the agent's blind overwrite\n",
					headers: { "If-Match": ifMatch },
				});
				expect(put.status, `PUT with If-Match ${ifMatch}: ${put.text}`).toBeGreaterThanOrEqual(400);
				const del = await s.api(URL_PATH, { method: "DELETE", headers: { "If-Match": ifMatch } });
				expect(del.status, `DELETE with If-Match ${ifMatch}: ${del.text}`).toBeGreaterThanOrEqual(400);
			}
		}
		expect(await s.file(PATH)).toBe(NOTE);
	}

	it("a 428 hands no token: retrying with anything it carries is refused", async () => {
		const refused = await s.api(URL_PATH, { method: "PUT", body: "blind\n" });
		expect(refused.status).toBe(428);
		expect(tokensIn(textOf(refused)).length).toBeGreaterThan(0);
		await expectNoneReplaces(refused);
	});

	it("a folder listing hands only change tags", async () => {
		const listing = await s.api("/vault/");
		expect(listing.status).toBe(200);
		await expectNoneReplaces(listing);
	});

	it("a refused MOVE, and a COPY by a key that never read the note, hand only change tags: none of them moves or replaces it", async () => {
		const refusedMove = await s.api(URL_PATH, { method: "MOVE", headers: { Destination: "Moved.md" } });
		expect(refusedMove.status).toBe(428);
		const copied = await s.api(URL_PATH, { method: "COPY", headers: { Destination: "Copy.md" } });
		expect(copied.status).toBe(204);
		// The person makes the copy their own: replacing it with the note's text again would now change it. They add to
		// it, keeping what was copied: on a plain folder their save is another program's, and one that dropped the
		// copied text would rightly be flagged, with the copy kept as a .bak, whenever the watcher saw the copy first
		// (a matter of timing here; test/service/revisions/outside-saves.test.ts covers that case).
		await s.edit("Copy.md", `${NOTE}the person's copy\n`);
		for (const answer of [refusedMove, copied]) {
			await expectNoneReplaces(answer);
			for (const token of tokensIn(textOf(answer))) {
				for (const ifMatch of FORMS(token)) {
					const moved = await s.api(URL_PATH, {
						method: "MOVE",
						headers: { "If-Match": ifMatch, Destination: "Moved.md" },
					});
					expect(moved.status, `MOVE with If-Match ${ifMatch}: ${moved.text}`).toBeGreaterThanOrEqual(400);
					const over = await s.api(URL_PATH, {
						method: "COPY",
						headers: { Destination: "Copy.md", "Allow-Overwrite": "true", "Destination-If-Match": ifMatch },
					});
					expect(
						over.status,
						`COPY over the copy with Destination-If-Match ${ifMatch}: ${over.text}`,
					).toBeGreaterThanOrEqual(400);
				}
			}
		}
		expect(await visibleFiles(dir)).toEqual(["Copy.md", PATH]);
		expect(await s.file("Copy.md")).toBe(`${NOTE}the person's copy\n`);
	});

	it("HEAD hands only a change tag, which still answers If-None-Match", async () => {
		const head = await s.api(URL_PATH, { method: "HEAD" });
		expect(head.status).toBe(200);
		expect((await s.api(URL_PATH, { headers: { "If-None-Match": head.headers.etag as string } })).status).toBe(304);
		await expectNoneReplaces(head);
	});

	it("a 304 reached by a change tag hands back only that change tag", async () => {
		const head = await s.api(URL_PATH, { method: "HEAD" });
		const notModified = await s.api(URL_PATH, { headers: { "If-None-Match": head.headers.etag as string } });
		expect(notModified.status).toBe(304);
		await expectNoneReplaces(notModified);
	});

	it("history, activity and conflict records hand only change tags", async () => {
		// A stale write by another client leaves a conflict record; the note then goes back to what it was.
		const read = await s.api(URL_PATH, {
			headers: { Authorization: "Bearer other-key-fedcba9876543210fedcba9876543210" },
		});
		await s.edit(PATH, NOTE + "- two\n");
		await s.api(URL_PATH, {
			method: "PUT",
			body: "stale\n",
			headers: {
				Authorization: "Bearer other-key-fedcba9876543210fedcba9876543210",
				"If-Match": read.headers.etag as string,
			},
		});
		await s.edit(PATH, NOTE);
		for (const route of [`/history/${PATH}`, "/activity", "/conflicts"]) {
			const answer = await s.api(route);
			expect(answer.status, route).toBe(200);
			await expectNoneReplaces(answer);
		}
	});

	it("a document map's version and a section's ETag patch the note, but never replace or delete it", async () => {
		const map = await s.api(URL_PATH, { headers: { Accept: "application/vnd.olrapi.document-map+json" } });
		const section = await s.api(`${URL_PATH}/heading/Plan/Tasks`);
		expect(section.text).toContain("- one\n");
		await expectNoneReplaces(map);
		await expectNoneReplaces(section);
		// Their token is made to patch: an LRA 5.x client patches with the map's version, as it always did.
		const version = map.json<{ version: string }>().version;
		const patched = await s.api(URL_PATH, {
			method: "PATCH",
			body: JSON.stringify({
				targetType: "heading",
				target: ["Plan", "Tasks"],
				operation: "append",
				content: "- two\n",
				ifMatch: version,
			}),
			headers: { "Content-Type": "application/json" },
		});
		expect(patched.status, patched.text).toBe(200);
		expect(await s.file(PATH)).toBe(NOTE + "- two\n");
	});

	it("a blind append or a merge it has not seen hands a part token: it can patch, not replace", async () => {
		const appended = await s.api(URL_PATH, { method: "POST", body: "- appended\n" });
		expect(appended.status).toBe(204);
		const now = NOTE + "- appended\n";
		for (const ifMatch of FORMS((appended.headers.etag as string).slice(1, -1))) {
			expect(
				(await s.api(URL_PATH, { method: "PUT", body: "blind\n", headers: { "If-Match": ifMatch } })).status,
			).toBeGreaterThanOrEqual(400);
		}
		expect(await s.file(PATH)).toBe(now);
	});

	it("a 412 whose diff was cut hands no token: the agent must read the note", async () => {
		// A small diff cap, so that the change since the agent's read does not fit one answer.
		const read = await s.api(URL_PATH);
		const big = NOTE + Array.from({ length: 4000 }, (_, i) => `- the person's line ${i}\n`).join("");
		await s.edit(PATH, big);
		s.guard.settings().maxDiffKB = 1;
		const refused = await s.api(URL_PATH, {
			method: "PUT",
			body: "stale\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(refused.status).toBe(412);
		expect(refused.json()).toMatchObject({ changesTruncated: true });
		expect(refused.json()).not.toHaveProperty("currentRevision");
		expect(textOf(refused)).not.toContain(sha256Token(big));
		for (const token of tokensIn(textOf(refused))) {
			for (const ifMatch of FORMS(token)) {
				expect(
					(await s.api(URL_PATH, { method: "PUT", body: "blind\n", headers: { "If-Match": ifMatch } })).status,
				).toBeGreaterThanOrEqual(400);
			}
		}
		// Following changesNext gives the pages, never the revision: only a read does.
		const next = await s.api(refused.json<{ changesNext: string }>().changesNext);
		expect(next.status).toBe(200);
		expect(textOf(next)).not.toContain(sha256Token(big));
		expect(await s.file(PATH)).toBe(big);
		// A complete 412 does hand the revision: it carries every change since the agent's read.
		s.guard.settings().maxDiffKB = 4096;
		const complete = await s.api(URL_PATH, {
			method: "PUT",
			body: "stale\n",
			headers: { "If-Match": read.headers.etag as string },
		});
		expect(complete.json()).toMatchObject({ currentRevision: sha256Token(big) });
		expect(await visibleFiles(dir)).toContain(PATH);
	});
});

describe.each(Object.keys(SUBJECTS))("no token without its content, over MCP on the %s gateway", (name) => {
	let s: Subject;
	let mcp: Connected;

	beforeEach(async () => {
		s = await SUBJECTS[name]!();
		await s.create(PATH, NOTE);
	});

	afterEach(async () => {
		await mcp.close();
		await s.close();
	});

	async function expectNoneReplaces(text: string, client: Connected): Promise<void> {
		expect(text).not.toContain(sha256Token(NOTE));
		for (const token of tokensIn(text)) {
			for (const revision of [token, `"${token}"`, `W/"${token}"`]) {
				const written = await client.tool("write_note", { path: PATH, content: "blind\n", revision });
				expect(written.isError, `write_note with ${revision}: ${written.text}`).toBe(true);
				const deleted = await client.tool("delete_note", { path: PATH, revision });
				expect(deleted.isError, `delete_note with ${revision}: ${deleted.text}`).toBe(true);
			}
		}
	}

	it.each([
		["with a session", () => connect(s.port, TEST_KEY)],
		["without a session", () => connectStateless(s.port, TEST_KEY)],
	])("list_notes, resources/list and a refused tokenless write hand no token (%s)", async (_label, open) => {
		mcp = await open();
		const listed = await mcp.tool("list_notes", {});
		expect(listed.isError).toBe(false);
		await expectNoneReplaces(listed.text, mcp);
		const resources = await mcp.client.listResources();
		await expectNoneReplaces(JSON.stringify(resources), mcp);
		const refused = await mcp.tool("write_note", { path: PATH, content: "blind\n" });
		expect(refused.isError).toBe(true);
		await expectNoneReplaces(refused.text, mcp);
		const appended = await mcp.tool("append_note", { path: PATH, content: "- appended\n" });
		expect(appended.isError).toBe(false);
		const afterAppend = `${NOTE}- appended\n`;
		for (const revision of [appended.structured!.revision as string]) {
			expect((await mcp.tool("write_note", { path: PATH, content: "blind\n", revision })).isError).toBe(true);
		}
		expect((await s.guard.gateway.read(PATH))?.content).toBe(afterAppend);
	});
});
