/**
 * One refusal, one code, on every surface. Every refusal the guard can decide is rendered by every renderer (REST's
 * problem, its Local REST API errorCode, our MCP tools, LRA's MCP tools, the CLI) for every verb that can meet it,
 * and all of them must give the code of the one report the service built. The same for a refused move or copy, whose
 * surfaces must also say the next step of its report (read back from their words), and no other.
 * A new refusal reason must be listed here (the record is exhaustive over the type), so it cannot skip a surface.
 * Only the service decides a code: no surface calls the code functions itself.
 */
import { readdir, readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { writeAnswer, type WriteAction } from "../../src/cli/outcome";
import type { Refusal } from "../../src/core/guard";
import { revisionOf } from "../../src/core/revision";
import type { ScopeForbidden } from "../../src/core/scope-refusal";
import { lraFields, PROBLEM_TYPES, type ProblemName } from "../../src/http/problems";
import type { RequestContext } from "../../src/http/router";
import { refusalResponse } from "../../src/http/routes/refusal";
import { relocationRefusal } from "../../src/http/routes/relocation-refusal";
import { lraRefusal, type LraWritingTool } from "../../src/mcp/lra/refusal";
import type { ToolContext } from "../../src/mcp/tools/context";
import { refusalResult } from "../../src/mcp/tools/refusal";
import { relocationRefusalResult } from "../../src/mcp/tools/relocation";
import { lraRelocationRefusal } from "../../src/mcp/lra/refusal";
import type { RelocationRefusal } from "../../src/service/moves/move-request";
import { refusedWithout } from "../../src/service/refusals/refusal";
import type { NextStep } from "../../src/service/refusals/refusal-report";
import { relocationRefused } from "../../src/service/refusals/relocation-report";
import type { WriteOutcome } from "../../src/service/write/write-request";
import { vaultRefusalOf, type VaultRefusal } from "../../src/service/refusals/vault-refusals";
import { NotDurableError } from "../../src/service/refusals/not-durable";
import { NoteEncodingError, VaultPathError } from "../../src/vault/errors";
import { gatewayRefusal } from "../../src/http/answer-problems";
import { guarded } from "../../src/mcp/tools/context";
import { runCliCommand } from "../../src/cli/run";
import type { CliCommand } from "../../src/cli/command";
import type { AgentNotes } from "../../src/service/notes/agent-notes";

const SCOPE: ScopeForbidden = {
	reason: "scope-forbidden",
	why: "read-only",
	key: "bot",
	path: "a.md",
	access: "read",
	field: "read",
	pattern: "**",
	lists: { read: ["**"], write: [], propose: [] },
};

/** Every refusal the guard decides, by reason: the record's type makes a new reason fail to compile until it is here. */
const REFUSALS: Record<Refusal["reason"], Refusal[]> = {
	"token-required": [
		{ reason: "token-required" },
		{ reason: "token-required", wildcard: true },
		{ reason: "token-required", sent: "change-tag" },
		{ reason: "token-required", sent: "part-token" },
		{ reason: "token-required", lastReadPart: true },
	],
	stale: [
		{ reason: "stale", sentRevision: revisionOf("old\n") },
		{ reason: "stale", sentRevision: null },
	],
	exists: [{ reason: "exists" }],
	"read-expired": [{ reason: "read-expired", sentRevision: revisionOf("now\n") }],
	"content-loss": [{ reason: "content-loss", currentLength: 400, newLength: 3 }],
	"empty-body": [{ reason: "empty-body", currentLength: 20 }],
	"backup-read-only": [{ reason: "backup-read-only" }],
	"note-in-use": [{ reason: "note-in-use" }],
	"not-found": [{ reason: "not-found" }],
	"malformed-condition": [
		{ reason: "malformed-condition", header: "If-Match" },
		{ reason: "malformed-condition", header: "If-None-Match" },
	],
	"scope-forbidden": [SCOPE],
};
const CASES = Object.values(REFUSALS).flat();

const METHODS = ["PUT", "POST", "PATCH", "DELETE"] as const;
const TOOLS = ["write_note", "append_note", "delete_note", "edit_note", "patch_note"] as const;
const LRA_TOOLS: LraWritingTool[] = ["vault_write", "vault_append", "vault_patch", "vault_delete"];
const ACTIONS: WriteAction[] = ["write", "append", "edit", "patch", "delete", "resolve"];

function refused(refusal: Refusal, current: string | null): Extract<WriteOutcome, { kind: "refused" }> {
	return refusedWithout(refusal, current === null ? null : revisionOf(current)) as Extract<
		WriteOutcome,
		{ kind: "refused" }
	>;
}

function problemCode(body: unknown): { code: string; errorCode: number; error?: unknown } {
	const problem = body as { type: string; errorCode: number; error?: unknown };
	return { code: problem.type.replace("/problems/", ""), errorCode: problem.errorCode, error: problem.error };
}

function toolCode(result: { content: { type: string; text?: string }[] }): unknown {
	const facts = result.content[1];
	return facts?.type === "text" ? (JSON.parse(facts.text ?? "{}") as { error?: unknown }).error : undefined;
}

const context = (method: string) => ({ method }) as RequestContext;

describe("every surface gives a refused write the code of its one report", () => {
	it.each(CASES.flatMap((refusal) => [null, "now\n"].map((current) => [refusal.reason, refusal, current] as const)))(
		"%s (%o, note %o)",
		async (_reason, refusal, current) => {
			const outcome = refused(refusal, current);
			const code = outcome.report.code;
			expect(Object.keys(PROBLEM_TYPES)).toContain(code);
			const codes = new Set<unknown>([code]);
			for (const method of METHODS) {
				const rest = problemCode(refusalResponse(context(method), "a.md", outcome).body);
				codes.add(rest.code);
				// The Local REST API's errorCode is the one looked up from the same code.
				expect(rest.errorCode).toBe(lraFields(code, "").errorCode);
			}
			for (const tool of TOOLS) codes.add(toolCode(await refusalResult("a.md", outcome, tool)));
			for (const tool of LRA_TOOLS)
				codes.add(toolCode(await lraRefusal("a.md", outcome, tool, {} as unknown as ToolContext)));
			for (const action of ACTIONS) codes.add(writeAnswer(action, "a.md", outcome).error);
			expect([...codes]).toEqual([code]);
		},
	);
});

const RELOCATIONS: RelocationRefusal[] = [
	...CASES,
	{ reason: "destination-exists" },
	{ reason: "destination-exists", notANote: true },
];

/**
 * The next step a surface's words say, read back from them: each surface words each kind of step its own way, so each
 * has its own signatures. A step with no words (nothing to do) matches none. A surface that said a step other than
 * its report's, or two, or dropped one, is caught here.
 */
const SAID: Record<"rest" | "mcp", Partial<Record<NextStep["kind"], RegExp>>> = {
	rest: {
		"read-then-retry": /GET "[^"]*" \(the whole note\), then send (MOVE|COPY) again with (Destination-)?If-Match/,
		"confirm-replace": /Allow-Overwrite: true and Destination-If-Match set to its ETag/,
		"choose-another-path": /Choose another (note|destination)\./,
		"retry-when-free": /Retry once they have finished there\./,
		"resend-revision-as-received": /Send the ETag exactly as received/,
		"ask-the-person": /Only the person can change what a key may do/,
	},
	mcp: {
		"read-then-retry":
			/Next: call read_note \{"path":"[^"]*"\}, then call (move_note|copy_note) again with (destination_)?revision/,
		"confirm-replace": /overwrite: true and destination_revision set to the revision it returns/,
		"choose-another-path": /Choose another (note|destination)\./,
		"retry-when-free": /Retry later\./,
		"resend-revision-as-received": /exactly as read_note returned it/,
		"ask-the-person": /Only the person can change what a key may do/,
	},
};

function saidStep(surface: keyof typeof SAID, text: string): string {
	const said = Object.entries(SAID[surface])
		.filter(([, signature]) => signature.test(text))
		.map(([kind]) => kind);
	return said.length === 0 ? "nothing-to-do" : said.join(" and ");
}

function toolText(result: { content: { type: string; text?: string }[] }): string {
	const prose = result.content[0];
	return prose?.type === "text" ? (prose.text ?? "") : "";
}

describe("every surface gives a refused move or copy the code and the next step of its one report", () => {
	it.each(
		RELOCATIONS.flatMap((refusal) =>
			(["source", "destination"] as const).flatMap((side) =>
				[null, "now\n"].map((current) => [refusal.reason, side, current, refusal] as const),
			),
		),
	)("%s (%s, note %o)", (_reason, side, current, refusal) => {
		const outcome = relocationRefused({
			kind: "refused",
			side,
			path: side === "source" ? "a.md" : "b.md",
			refusal,
			currentRevision: current === null ? null : revisionOf(current),
			implicit: false,
		});
		const { code, next } = outcome.report;
		expect(Object.keys(PROBLEM_TYPES)).toContain(code);
		const codes = new Set<unknown>([code]);
		const steps = new Set<string>([next.kind]);
		for (const method of ["MOVE", "COPY"] as const) {
			const response = relocationRefusal(context(method), "a.md", outcome, method === "MOVE" ? "moved" : "copied");
			const rest = problemCode(response.body);
			codes.add(rest.code);
			codes.add(rest.error);
			expect(rest.errorCode).toBe(lraFields(code, "").errorCode);
			steps.add(saidStep("rest", (response.body as { detail: string }).detail));
		}
		for (const tool of ["move_note", "copy_note"] as const) {
			const result = relocationRefusalResult(outcome, "a.md", tool);
			codes.add(toolCode(result));
			steps.add(saidStep("mcp", toolText(result)));
			// vault_move and vault_copy say what move_note and copy_note say, with the same facts.
			const lra = lraRelocationRefusal(outcome, "a.md", tool);
			codes.add(lra.ok ? "answered" : lra.facts?.error);
			steps.add(saidStep("mcp", lra.ok ? "" : lra.message));
		}
		expect([...codes]).toEqual([code]);
		expect([...steps]).toEqual([next.kind]);
	});
});

/**
 * The answers the service throws rather than returns (vault-refusals.ts): a gateway's refusal of a path or of a note's
 * bytes, and a change the disk failed to make durable. Each kind, by the record below (exhaustive over the type), is
 * rendered by REST, our MCP tools and the CLI with its one code.
 */
const THROWN: Record<VaultRefusal["kind"], unknown[]> = {
	"note-not-utf8": [new NoteEncodingError("a.md")],
	"name-clash": [new VaultPathError("a.md", "name-variant", "á.md"), new VaultPathError("a.md", "case-variant")],
	"note-not-ready": [new VaultPathError("a.md", "not-indexed"), new VaultPathError("a.md", "index-behind")],
	"invalid-path": [new VaultPathError("a.md", "outside-vault"), new VaultPathError("a.md", "symbolic-link")],
	"not-durable": [
		new NotDurableError("a.md", { kind: "written", revision: revisionOf("now\n") }, "EIO"),
		new NotDurableError("a.md", { kind: "unchanged", revision: revisionOf("now\n") }, "ENOSPC"),
		new NotDurableError("a.md", { kind: "deleted", trashedTo: null, failed: "earlier-write" }, null),
		new NotDurableError("a.md", { kind: "deleted", trashedTo: ".trash/a.md", failed: "delete" }, "EIO"),
		new NotDurableError("a.md", { kind: "moved", to: "b.md" }, "EIO"),
	],
};

describe("every surface gives a thrown answer (a vault refusal, not-durable) its one code", () => {
	it.each(Object.entries(THROWN).flatMap(([kind, errors]) => errors.map((error) => [kind, error] as const)))(
		"%s (%o)",
		async (kind, error) => {
			expect(vaultRefusalOf(error)?.kind).toBe(kind);
			expect(Object.keys(PROBLEM_TYPES)).toContain(kind);
			const rest = gatewayRefusal(error);
			expect(rest && problemCode(rest.body).code).toBe(kind);
			expect(rest && problemCode(rest.body).errorCode).toBe(lraFields(kind as ProblemName, "").errorCode);
			const fail = (): Promise<never> => {
				throw error;
			};
			const tool = await guarded({} as unknown as ToolContext, fail);
			expect(tool.isError).toBe(true);
			expect(toolCode(tool)).toBe(kind);
			const command = { action: "write", flags: {}, run: fail } as unknown as CliCommand;
			const cli = JSON.parse(await runCliCommand(command, {}, {} as AgentNotes)) as { ok: boolean; error: string };
			expect(cli).toMatchObject({ ok: false, error: kind });
			// Something was written: no surface says that nothing was.
			if (kind === "not-durable") {
				const said = [(rest!.body as { detail: string }).detail, toolText(tool), JSON.stringify(cli)];
				for (const words of said) expect(words).not.toMatch(/nothing was (read or )?written/i);
			}
		},
	);
});

describe("only the service decides a refusal's code", () => {
	it("no surface calls refusalCode or relocationCode (they render the report's code)", async () => {
		const offenders: string[] = [];
		for (const surface of ["http", "mcp", "cli", "ui", "headless"]) {
			const root = join(__dirname, "../../src", surface);
			const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith(".ts"));
			for (const file of files) {
				const text = await readFile(join(root, file), "utf8");
				if (/\b(refusalCode|relocationCode)\b/.test(text)) offenders.push(`${surface}/${file}`);
			}
		}
		expect(offenders).toEqual([]);
	});
});
