/**
 * `proposals list|show|accept|reject` on a folder: in process over proposals made by the store on that folder (part
 * A routes a scoped key's writes into it), and with the BUILT host: listed beside it, decisions refused while it runs,
 * accepted once it stopped, and the next host answering the agent's GET /proposals/{id} with the decision.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ProposalRecord } from "../../src/core/proposals";
import { openFolder, openFolderGuard } from "../../src/headless/folder-guard";
import { takeLock } from "../../src/headless/folder-lock";
import { parseProposalsArgs } from "../../src/headless/proposals-args";
import { runProposals } from "../../src/headless/proposals-command";
import { holderRecord } from "../../src/host/running-marker";
import { agentActor } from "../../src/service/notes/actor";
import { DEFAULT_SETTINGS } from "../../src/settings";
import { killSpawnedHosts, requireBuiltCli, runCli, serveHost, stop, until } from "../helpers/spawned-host";
import { sha256Token, writeVaultFile } from "../helpers/vault-files";
import { writeRequest } from "../helpers/write-request";

const NOTE = "# Inbox\n\n- one\n";
const PROPOSED = "# Inbox\n\n- one\n- two (agent)\n";

let dir: string;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-proposals-cmd-"));
	await writeVaultFile(dir, "Inbox.md", NOTE);
});

afterEach(async () => {
	killSpawnedHosts();
	await rm(dir, { recursive: true, force: true });
});

async function proposals(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
	const args = parseProposalsArgs([...argv, "--vault", dir]);
	if (args.command === "error") throw new Error(args.message);
	let out = "";
	let err = "";
	const code = await runProposals(
		args,
		(text) => (out += text),
		(text) => (err += text),
	);
	return { code, out, err };
}

/** A proposal made on the folder as a host would make it, with the host closed again. */
async function propose(body = PROPOSED, agent = "agent"): Promise<{ id: string; backupPath: string }> {
	const opened = await openFolder(dir);
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openFolderGuard(opened, () => settings);
	try {
		return await guard.proposals.propose(writeRequest("Inbox.md", body, { actor: agentActor(agent) }));
	} finally {
		await guard.close();
		await opened.gateway.close();
	}
}

const listed = async (...argv: string[]) =>
	(JSON.parse((await proposals("list", "--json", ...argv)).out) as { proposals: ProposalRecord[] }).proposals;
const onDisk = (path: string) => readFile(join(dir, path), "utf8");

describe("proposals on a folder", () => {
	it("lists them newest first, filtered by status, and shows one against the note now", async () => {
		const first = await propose();
		const second = await propose("# Inbox\n\nrewritten\n", "other");
		expect((await listed()).map((record) => record.id)).toEqual([second.id, first.id]);
		const text = await proposals("list");
		expect(text.out.split("\n")[1]).toBe(
			`${first.id}  pending  ${(await listed())[1]!.time}  Inbox.md  from agent: replace, kept in ${first.backupPath}`,
		);
		expect((await proposals("list", "--status", "rejected")).out).toBe("No rejected proposals.\n");
		const shown = await proposals("show", first.id);
		expect(shown.code).toBe(0);
		expect(shown.out).toContain("+- two (agent)");
		expect(shown.out).not.toContain("changed since");
		expect(JSON.parse((await proposals("show", first.id, "--json")).out)).toMatchObject({
			proposal: { id: first.id },
			changedSince: false,
		});
	});

	it("accepts as sent: the note is written as the person's, the proposal accepted, its .bak kept", async () => {
		const { id, backupPath } = await propose();
		const accepted = await proposals("accept", id);
		expect(accepted, accepted.err).toMatchObject({ code: 0, err: "" });
		expect(accepted.out).toBe(`Accepted proposal ${id} from agent as sent: wrote Inbox.md.\n`);
		expect(await onDisk("Inbox.md")).toBe(PROPOSED);
		expect(await onDisk(backupPath)).toBe(PROPOSED);
		expect((await listed())[0]).toMatchObject({ id, status: "accepted", acceptedRevision: expect.any(String) });
		expect((await proposals("accept", id)).out).toBe(`Proposal ${id} is already accepted; nothing was changed.\n`);
	});

	it("rejects with a note, leaving the note as it is", async () => {
		const { id } = await propose();
		const rejected = await proposals("reject", id, "--note", "Not in the inbox, please.");
		expect(rejected.code).toBe(0);
		expect(rejected.out).toContain(`Rejected proposal ${id} from agent: Inbox.md stays as it is`);
		expect(await onDisk("Inbox.md")).toBe(NOTE);
		expect((await listed())[0]).toMatchObject({ status: "rejected", note: "Not in the inbox, please." });
		expect((await proposals("list")).out).toContain("(rejected ");
	});

	it("never writes over a note that changed since: it prints the three-way merge, then accepts the settled text", async () => {
		const { id } = await propose();
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n\n- zero (person)\n- one\n");
		expect((await proposals("show", id)).out).toContain("The note changed since the proposal was made");
		const refused = await proposals("accept", id);
		expect(refused.code).toBe(1);
		expect(refused.err).toContain("Inbox.md changed since the proposal was made, so nothing was written");
		expect(refused.out).toBe("# Inbox\n\n- zero (person)\n- one\n- two (agent)\n");
		expect(await onDisk("Inbox.md")).toBe("# Inbox\n\n- zero (person)\n- one\n");
		await writeFile(join(dir, "..", `${id}.merged.md`), refused.out);
		// The text was settled against the note as printed: the answer names that revision, and only over it does it land.
		const against = /--against (\S+)\./.exec(refused.err)![1]!;
		expect(against).toBe(sha256Token("# Inbox\n\n- zero (person)\n- one\n"));
		const accepted = await proposals(
			"accept",
			id,
			"--text",
			join(dir, "..", `${id}.merged.md`),
			"--against",
			against,
			"--note",
			"merged with my line",
		);
		await rm(join(dir, "..", `${id}.merged.md`));
		expect(accepted.code, accepted.err).toBe(0);
		expect(accepted.out).toContain("with your edits");
		expect(await onDisk("Inbox.md")).toBe("# Inbox\n\n- zero (person)\n- one\n- two (agent)\n");
		expect((await listed())[0]).toMatchObject({ status: "accepted-with-edits", note: "merged with my line" });
	});

	it("never writes a settled text over an edit made after it was settled: the note changed again, so it refuses", async () => {
		const { id } = await propose();
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n\n- zero (person)\n- one\n");
		const refused = await proposals("accept", id);
		const against = /--against (\S+)\./.exec(refused.err)![1]!;
		await writeFile(join(dir, "..", `${id}.merged.md`), refused.out);
		// Another program saves the note between the printout and the accept.
		await writeVaultFile(dir, "Inbox.md", "# Inbox\n\n- zero (person)\n- one\n- late line\n");
		const late = await proposals("accept", id, "--text", join(dir, "..", `${id}.merged.md`), "--against", against);
		await rm(join(dir, "..", `${id}.merged.md`));
		expect(late.code).toBe(1);
		expect(late.err).toContain("changed since the revision your text was settled against");
		expect(await onDisk("Inbox.md")).toBe("# Inbox\n\n- zero (person)\n- one\n- late line\n");
		expect((await listed())[0]).toMatchObject({ status: "pending" });
		// Without --against, a settled text is held to the revision the proposal was made against, which is long gone.
		await writeFile(join(dir, "..", "plain.md"), "mine\n");
		expect((await proposals("accept", id, "--text", join(dir, "..", "plain.md"))).code).toBe(1);
		await rm(join(dir, "..", "plain.md"));
		expect(await onDisk("Inbox.md")).toBe("# Inbox\n\n- zero (person)\n- one\n- late line\n");
	});

	it("refuses to decide while a host holds the folder, and changes nothing; listing still works", async () => {
		const { id } = await propose();
		const host = await takeLock(join(dir, ".revision-guard/host.lock"), holderRecord("headless", 27125));
		if (!("held" in host)) throw new Error("could not take the lock");
		for (const action of ["accept", "reject"]) {
			const refused = await proposals(action, id);
			expect(refused.code).toBe(1);
			expect(refused.err).toContain(
				"proposals are decided by one process at a time, so nothing was changed. Stop it first",
			);
		}
		expect(await onDisk("Inbox.md")).toBe(NOTE);
		expect((await listed()).map((record) => record.status)).toEqual(["pending"]);
		await host.held.release();
	});

	it("refuses an unknown id (its words are read strictly: proposals-args.test.ts)", async () => {
		await propose();
		expect((await proposals("accept", "p-nope")).err).toContain(
			'There is no proposal "p-nope"; nothing was changed. List them with: proposals list.',
		);
		expect((await proposals("show", "p-nope")).code).toBe(1);
	});
});

describe("proposals and the built host", () => {
	beforeAll(requireBuiltCli);

	it("the running host says when a proposal arrives, once, with the command that shows it", async () => {
		const drafter = "drafter-key-0123456789abcdef0123456789abcdef";
		await mkdir(join(dir, ".revision-guard"), { recursive: true });
		const keys = [
			{ name: "owner", key: "o".repeat(43), created: "2026-01-01" },
			{ name: "drafter", key: drafter, created: "2026-01-01", read: ["**"], write: [], propose: ["**"] },
		];
		await writeFile(join(dir, ".revision-guard", "settings.json"), JSON.stringify({ keys }), { mode: 0o600 });
		const host = await serveHost(["--vault", dir, "--port", "0"], dir);
		const asDrafter = { Authorization: `Bearer ${drafter}` };
		const tag = String((await host.api("/vault/Inbox.md", { headers: asDrafter })).headers.etag);
		const put = await host.api("/vault/Inbox.md", {
			method: "PUT",
			body: PROPOSED,
			headers: { ...asDrafter, "If-Match": tag },
		});
		expect(put.status, put.text).toBe(202);
		const { proposalId, backupPath } = put.json<{ proposalId: string; backupPath: string }>();
		const line = `drafter proposed a change to Inbox.md; it waits for you (kept in ${backupPath}). See it with: npm start --silent -- proposals show ${proposalId} --vault ${dir}`;
		await until(host, () => host.out().includes(line), "the proposal to be announced");
		// The same proposal sent again is the same proposal: not announced twice.
		expect(
			(await host.api("/vault/Inbox.md", { method: "PUT", body: PROPOSED, headers: { ...asDrafter, "If-Match": tag } }))
				.status,
		).toBe(202);
		expect(host.out().split(line).length - 1).toBe(1);
		expect(await onDisk("Inbox.md")).toBe(NOTE);
	});

	it("a proposal is listed beside the running host, accepted once it stopped, and the agent's next GET learns it", async () => {
		const { id } = await propose();
		const host = await serveHost(["--vault", dir, "--port", "0"], dir);
		const pending = await host.api(`/proposals/${id}`);
		expect(pending.json()).toMatchObject({ id, status: "pending" });
		const beside = await runCli(["proposals", "list", "--status", "pending", "--vault", dir], dir);
		expect(beside.code).toBe(0);
		expect(beside.out).toContain(`${id}  pending  `);
		const early = await runCli(["proposals", "accept", id, "--vault", dir], dir);
		expect(early.code).toBe(1);
		expect(early.err).toContain(`A Revision Guard host (pid ${host.child.pid} on this machine`);

		expect(await stop(host, "SIGTERM")).toEqual({ code: 0, signal: null });
		const accepted = await runCli(["proposals", "accept", id, "--vault", dir], dir);
		expect(accepted.code, accepted.err).toBe(0);
		expect(await onDisk("Inbox.md")).toBe(PROPOSED);

		const next = await serveHost(["--vault", dir, "--port", "0"], dir);
		expect((await next.api(`/proposals/${id}?wait=5`)).json()).toMatchObject({ id, status: "accepted" });
		expect((await next.api("/vault/Inbox.md")).text).toBe(PROPOSED);
	});
});
