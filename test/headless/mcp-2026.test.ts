/**
 * The BUILT headless host speaks MCP 2026-07-28 over the wire: server/discover, a stale write from a client that can
 * be asked answered with the question, and the retry with the person's answer carried out; beside it, a 2026 client's
 * subscriptions/listen is told of the person's edit. (The same paths over both gateways: test/mcp/modern/.)
 */
import { mkdtemp, readFile, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { killSpawnedHosts, requireBuiltCli, serveHost } from "../helpers/spawned-host";
import { writeVaultFile } from "../helpers/vault-files";
import { MODERN, MODERN_META, modern, modernListen } from "../mcp/modern/modern-client";

const ORIGINAL = "one\ntwo\nthree\nfour\n";
const PERSON = "ONE\ntwo\nthree\nfour\n";
const AGENT = "one\ntwo\nthree\nFOUR\n";
const CAPABLE = { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };

let dir: string;

beforeAll(requireBuiltCli);

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-mcp-2026-"));
	await writeVaultFile(dir, "Plan.md", ORIGINAL);
});

afterEach(async () => {
	killSpawnedHosts();
	await rm(dir, { recursive: true, force: true });
});

describe("the built headless host and a 2026-07-28 client", () => {
	it("discovers, is asked about a stale write, and answers it by retrying", async () => {
		const host = await serveHost(["--vault", dir, "--port", "0"], dir);
		const options = { key: host.key };
		const discover = await modern(host.port, "server/discover", {}, options);
		expect(discover.result).toMatchObject({ resultType: "complete", capabilities: { resources: { subscribe: true } } });
		expect(discover.result!.supportedVersions).toContain(MODERN);

		const listen = await modernListen(host.port, ["revision-guard://note/Plan.md"], { ...options, id: "plan" });
		await listen.message(1);

		const read = await modern(host.port, "tools/call", { name: "read_note", arguments: { path: "Plan.md" } }, options);
		await writeVaultFile(dir, "Plan.md", PERSON);
		expect(await listen.message(2)).toMatchObject({
			method: "notifications/resources/updated",
			params: { uri: "revision-guard://note/Plan.md" },
		});

		const args = {
			path: "Plan.md",
			content: AGENT,
			revision: (read.result!.structuredContent as { revision: string }).revision,
		};
		const first = await modern(
			host.port,
			"tools/call",
			{ name: "write_note", arguments: args },
			{ ...options, meta: CAPABLE },
		);
		expect(first.result).toMatchObject({
			resultType: "input_required",
			inputRequests: { person_choice: { method: "elicitation/create" } },
		});
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe(PERSON);

		const inputResponses = { person_choice: { action: "accept", content: { choice: "merge" } } };
		const retry = await modern(
			host.port,
			"tools/call",
			{ name: "write_note", arguments: args, inputResponses, requestState: first.result!.requestState },
			{ ...options, meta: CAPABLE },
		);
		expect(retry.result).toMatchObject({ resultType: "complete", isError: true });
		expect(await readFile(join(dir, "Plan.md"), "utf8")).toBe("ONE\ntwo\nthree\nFOUR\n");
		listen.close();
	});
});
