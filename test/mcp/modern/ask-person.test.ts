/**
 * Asking the person after a stale write, the 2026-07-28 way (Multi Round-Trip Requests), over both gateways: a client
 * that declared elicitation gets an InputRequiredResult with the question a 2025 session is asked; its retry with the
 * person's answer and the echoed requestState is carried out as the person, over exactly the revision asked about;
 * a changed, expired, foreign or misapplied requestState is refused; a client without elicitation gets the refusal.
 */
import { mkdtemp, rm } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changeTagOf } from "../../../src/core/revision-tokens";
import { sha256Token, writeVaultFile } from "../../helpers/vault-files";
import { OTHER_KEY, STACKS, type Stack } from "../../http/stacks";
import { MODERN_META, modern, type ModernAnswer } from "./modern-client";

const ORIGINAL = "one\ntwo\nthree\nfour\n";
const PERSON = "ONE\ntwo\nthree\nfour\n";
const AGENT = "one\ntwo\nthree\nFOUR\n";
const MERGED = "ONE\ntwo\nthree\nFOUR\n";
const CAPABLE = { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };

interface Question {
	method: string;
	params: {
		mode: string;
		message: string;
		requestedSchema: { required: string[]; properties: { choice: { oneOf: { const: string }[] } } };
	};
}

interface ToolAnswer {
	resultType: string;
	isError: boolean;
	prose: string;
	facts: Record<string, unknown>;
	links: string[];
}

function toolAnswer(answer: ModernAnswer): ToolAnswer {
	expect(answer.error, answer.raw.text).toBeUndefined();
	const result = answer.result as {
		resultType: string;
		isError?: boolean;
		content: { type: string; text?: string; uri?: string }[];
	};
	const texts = result.content.filter((block) => block.type === "text").map((block) => block.text!);
	return {
		resultType: result.resultType,
		isError: result.isError === true,
		prose: texts[0] ?? "",
		facts: texts[1] ? (JSON.parse(texts[1]) as Record<string, unknown>) : {},
		links: result.content.flatMap((block) => (block.uri ? [block.uri] : [])),
	};
}

describe.each(Object.keys(STACKS) as (keyof typeof STACKS)[])(
	"asking the person, the 2026-07-28 way, over the %s gateway",
	(name) => {
		let dir: string;
		let s: Stack;
		let clock: number;
		beforeEach(async () => {
			dir = await mkdtemp(join(tmpdir(), "rg-mrtr-"));
			await writeVaultFile(dir, "Plan.md", ORIGINAL);
			clock = Date.now();
			s = await STACKS[name](dir, { now: () => clock });
		});
		afterEach(async () => {
			await s.close();
			await rm(dir, { recursive: true, force: true });
		});

		/** Reads, lets the person edit, then writes the agent's stale version: the arguments, and the first answer. */
		async function staleWrite(content = AGENT, meta: Record<string, unknown> = CAPABLE) {
			const read = await modern(s.port, "tools/call", { name: "read_note", arguments: { path: "Plan.md" } });
			await s.edit("Plan.md", PERSON);
			const args = {
				path: "Plan.md",
				content,
				revision: (read.result!.structuredContent as { revision: string }).revision,
			};
			const first = await modern(s.port, "tools/call", { name: "write_note", arguments: args }, { meta });
			return { args, first };
		}

		function questionOf(first: ModernAnswer): { question: Question; requestState: string; offered: string[] } {
			expect(first.status).toBe(200);
			expect(first.result).toMatchObject({
				resultType: "input_required",
				_meta: { "io.modelcontextprotocol/serverInfo": { name: "revision-guard" } },
			});
			const inputs = first.result!.inputRequests as Record<string, Question>;
			expect(Object.keys(inputs)).toEqual(["person_choice"]);
			const question = inputs.person_choice!;
			return {
				question,
				requestState: first.result!.requestState as string,
				offered: question.params.requestedSchema.properties.choice.oneOf.map((option) => option.const),
			};
		}

		const retry = (
			args: Record<string, unknown>,
			requestState: string,
			inputResponses: unknown,
			options: { key?: string } = {},
		) =>
			modern(
				s.port,
				"tools/call",
				{ name: "write_note", arguments: args, inputResponses, requestState },
				{ meta: CAPABLE, ...options },
			);
		const choose = (choice: string) => ({ person_choice: { action: "accept", content: { choice } } });

		it("asks the question a 2025 session is asked, writes nothing meanwhile, and merges as the person on the retry", async () => {
			const { args, first } = await staleWrite();
			const { question, requestState, offered } = questionOf(first);
			expect(question.method).toBe("elicitation/create");
			expect(question.params.mode).toBe("form");
			expect(question.params.message).toContain('test-agent tried to change "Plan.md"');
			expect(question.params.requestedSchema.required).toEqual(["choice"]);
			// Headless hosts (and the stub until it offers one) have no merge modal to offer.
			expect(offered).toEqual(["merge", "keep", "take"]);
			expect(await s.file("Plan.md")).toBe(PERSON);
			const conflictId = s.guard.conflicts.list({ status: "open" })[0]!.id;

			const answer = toolAnswer(await retry(args, requestState, choose("merge")));
			expect(answer.resultType).toBe("complete");
			expect(answer.isError).toBe(true);
			expect(answer.prose).toContain("the person chose, in your client, to merge both versions");
			expect(answer.facts).toMatchObject({
				error: "stale-revision",
				person: "merge",
				conflictId,
				changeTag: changeTagOf(sha256Token(MERGED)),
			});
			expect(answer.facts).not.toHaveProperty("currentRevision");
			expect(await s.file("Plan.md")).toBe(MERGED);
			expect(s.guard.conflicts.get(conflictId)).toMatchObject({
				status: "resolved",
				resolvedBy: "you",
				resolvedRevision: sha256Token(MERGED),
			});
			expect(s.guard.history.latest("Plan.md")).toMatchObject({
				revision: sha256Token(MERGED),
				source: { kind: "user" },
			});

			// The same answer again finds the conflict settled: nothing is written twice.
			const replay = toolAnswer(await retry(args, requestState, choose("take")));
			expect(replay.prose).toContain("the conflict was settled meanwhile");
			expect(await s.file("Plan.md")).toBe(MERGED);
		});

		it("takes the agent's version, exactly what was refused, as the person's write", async () => {
			const { args, first } = await staleWrite();
			const answer = toolAnswer(await retry(args, questionOf(first).requestState, choose("take")));
			expect(answer.prose).toContain("to take your version");
			expect(answer.facts).toMatchObject({ person: "take", currentRevision: sha256Token(AGENT) });
			expect(await s.file("Plan.md")).toBe(AGENT);
			expect(s.guard.conflicts.get(answer.facts.conflictId as string)).toMatchObject({
				status: "resolved",
				resolvedBy: "you",
				agentTaken: "whole",
			});
		});

		it("carries out only one of two answers sent at once with the same state", async () => {
			const { args, first } = await staleWrite();
			const { requestState } = questionOf(first);
			const answers = (
				await Promise.all(["take", "merge", "keep"].map((choice) => retry(args, requestState, choose(choice))))
			).map(toolAnswer);
			const acted = answers.filter(
				(answer) => !answer.prose.includes("settled meanwhile") && !answer.prose.includes("changed again meanwhile"),
			);
			expect(acted).toHaveLength(1);
			const file = await s.file("Plan.md");
			const expected = { take: AGENT, merge: MERGED, keep: PERSON }[
				acted[0]!.facts.person as "take" | "merge" | "keep"
			];
			expect(file).toBe(expected);
		});

		it("keeps the note when the person chooses so: the conflict is dismissed and the .bak stays", async () => {
			const { args, first } = await staleWrite();
			const answer = toolAnswer(await retry(args, questionOf(first).requestState, choose("keep")));
			expect(answer.facts.person).toBe("keep");
			expect(await s.file("Plan.md")).toBe(PERSON);
			expect(await s.file(answer.facts.backupPath as string)).toBe(AGENT);
			expect(s.guard.conflicts.get(answer.facts.conflictId as string)?.status).toBe("dismissed");
			expect(answer.links).toContain(`revision-guard://conflict/${answer.facts.conflictId as string}`);
		});

		it("offers and opens the host's merge modal when the host has one", async () => {
			const opened: string[] = [];
			const withdraw = s.guard.notes.mergeModal.offer((id) => opened.push(id));
			try {
				const { args, first } = await staleWrite();
				const { offered, requestState } = questionOf(first);
				expect(offered).toEqual(["merge", "keep", "take", "open"]);
				const answer = toolAnswer(await retry(args, requestState, choose("open")));
				expect(opened).toEqual([answer.facts.conflictId]);
				expect(answer.prose).toContain("call conflict_status");
				expect(await s.file("Plan.md")).toBe(PERSON);
			} finally {
				withdraw();
			}
		});

		it("does not offer a merge of overlapping changes, and a retry that picks it anyway writes nothing", async () => {
			const { args, first } = await staleWrite("one (the agent's)\ntwo\nthree\nfour\n");
			const { offered, requestState } = questionOf(first);
			expect(offered).toEqual(["keep", "take"]);
			const answer = toolAnswer(await retry(args, requestState, choose("merge")));
			expect(answer.prose).toContain("no choice came back");
			expect(answer.facts.person).toBe("failed");
			expect(await s.file("Plan.md")).toBe(PERSON);
			expect(s.guard.conflicts.get(answer.facts.conflictId as string)?.status).toBe("open");
		});

		it("writes nothing when the note changed again after the person was asked", async () => {
			const { args, first } = await staleWrite();
			const { requestState } = questionOf(first);
			const newest = `${PERSON}five, by the person\n`;
			await s.edit("Plan.md", newest);
			for (const choice of ["take", "merge"]) {
				const answer = toolAnswer(await retry(args, requestState, choose(choice)));
				expect(answer.prose).toContain("the note changed again meanwhile, so nothing was written");
				expect(answer.facts.person).toBe(`${choice}-not-written`);
			}
			expect(await s.file("Plan.md")).toBe(newest);
			expect(s.guard.conflicts.list({ status: "open" })).toHaveLength(1);
		});

		it.each([
			["decline", "declined to choose", "declined"],
			["cancel", "dismissed the question", "cancelled"],
		] as const)("answers %s with the refusal, changing nothing", async (action, words, person) => {
			const { args, first } = await staleWrite();
			const answer = toolAnswer(await retry(args, questionOf(first).requestState, { person_choice: { action } }));
			expect(answer.resultType).toBe("complete");
			expect(answer.prose).toContain(words);
			expect(answer.prose).toContain("changed since you read it");
			expect(answer.facts).toMatchObject({ error: "stale-revision", person });
			expect(answer.links).toHaveLength(3);
			expect(await s.file("Plan.md")).toBe(PERSON);
		});

		it("asks again, over the same state, when the retry carries no answer to the question", async () => {
			const { args, first } = await staleWrite();
			const { requestState } = questionOf(first);
			const again = await retry(args, requestState, {});
			expect(questionOf(again).requestState).toBe(requestState);
			expect(await s.file("Plan.md")).toBe(PERSON);
		});

		describe("a requestState it did not issue for this very call is refused, and nothing is written", () => {
			const refusedWith = async (answer: ModernAnswer, words: string) => {
				expect(answer.result).toBeUndefined();
				expect(answer.error).toMatchObject({ code: -32602 });
				expect(answer.error!.message).toContain(words);
				expect(await s.file("Plan.md")).toBe(PERSON);
				expect(s.guard.conflicts.list({ status: "open" })).toHaveLength(1);
			};

			it("a state whose sealed facts were changed (here: the choices offered, to add merge)", async () => {
				const { args, first } = await staleWrite("one (the agent's)\ntwo\nthree\nfour\n");
				const [version, payload, mac] = questionOf(first).requestState.split(".") as [string, string, string];
				const facts = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { choices: string[] };
				const widened = Buffer.from(JSON.stringify({ ...facts, choices: ["merge", ...facts.choices] })).toString(
					"base64url",
				);
				await refusedWith(await retry(args, `${version}.${widened}.${mac}`, choose("merge")), "failed verification");
				await refusedWith(await retry(args, "not a state", choose("take")), "failed verification");
			});

			it("an expired state", async () => {
				const { args, first } = await staleWrite();
				clock += 16 * 60_000;
				await refusedWith(await retry(args, questionOf(first).requestState, choose("take")), "expired");
			});

			it("a state sent with other arguments, or for another tool", async () => {
				const { args, first } = await staleWrite();
				const { requestState } = questionOf(first);
				await refusedWith(
					await retry({ ...args, content: "something else entirely\n" }, requestState, choose("take")),
					"another call",
				);
				await refusedWith(
					await modern(
						s.port,
						"tools/call",
						{ name: "append_note", arguments: args, inputResponses: choose("take"), requestState },
						{ meta: CAPABLE },
					),
					"another call",
				);
			});

			it("a state sent by another key", async () => {
				const { args, first } = await staleWrite();
				await refusedWith(
					await retry(args, questionOf(first).requestState, choose("take"), { key: OTHER_KEY }),
					"another key",
				);
			});

			it("answers without a state", async () => {
				const { args } = await staleWrite();
				const answer = await modern(
					s.port,
					"tools/call",
					{ name: "write_note", arguments: args, inputResponses: choose("take") },
					{ meta: CAPABLE },
				);
				await refusedWith(answer, "inputResponses without requestState");
			});
		});

		it.each([
			["declared no elicitation", MODERN_META],
			[
				"declared only URL elicitation",
				{ ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } } },
			],
		])("gives a client that %s the refusal, complete", async (_, meta) => {
			const { first } = await staleWrite(AGENT, meta);
			const answer = toolAnswer(first);
			expect(answer.resultType).toBe("complete");
			expect(answer.isError).toBe(true);
			expect(answer.prose.startsWith("Refused:")).toBe(true);
			expect(answer.facts).toMatchObject({ error: "stale-revision" });
			expect(answer.facts.person).toBeUndefined();
			expect(await s.file("Plan.md")).toBe(PERSON);
		});

		it("takes an empty elicitation capability as form mode", async () => {
			const { first } = await staleWrite(AGENT, {
				...MODERN_META,
				"io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
			});
			expect(first.result!.resultType).toBe("input_required");
		});
	},
);
