/** An MCP client at /mcp/lra, where the Local REST API 5.1's tools are listed, and its answers as that server's clients read them. */
import { afterEach, beforeEach, expect } from "vitest";
import type { RevisionGuardSettings } from "../../../src/settings";
import { TEST_KEY } from "../../helpers/headless-harness";
import { connect, type Connected, type ToolResult } from "../mcp-client";
import { SUBJECTS, type Subject } from "../subjects";

/** The JSON in a tool answer's text (the Local REST API answers with indented JSON text, no structured content). */
export function jsonOf<T = Record<string, unknown>>(result: ToolResult): T {
	expect(result.isError, result.text).toBe(false);
	return JSON.parse(result.prose) as T;
}

/** For each test: a fresh stack of gateway `name` holding `notes`, and a session at /mcp/lra on it. */
export function eachLraSubject(
	name: string,
	notes: Record<string, string>,
	use: (subject: Subject, mcp: Connected) => void,
	settings: Partial<RevisionGuardSettings> = {},
): void {
	let subject: Subject;
	let mcp: Connected;
	beforeEach(async () => {
		subject = await SUBJECTS[name]!(settings);
		for (const [path, content] of Object.entries(notes)) await subject.create(path, content);
		mcp = await connect(subject.port, TEST_KEY, {}, undefined, "/mcp/lra");
		use(subject, mcp);
	});
	afterEach(async () => {
		expect(subject.errors).toEqual([]);
		await mcp.close();
		await subject.close();
	});
}
