/** The CLI commands registered on the Obsidian simulation over the real stack (Obsidian gateway), called as the CLI calls them. */
import type { Plugin as ObsidianPlugin } from "obsidian";
import { afterEach, beforeEach, expect } from "vitest";
import { Plugin } from "../obsidian-stub";
import { registerCliCommands } from "../../src/cli/register";
import type { RevisionGuardSettings } from "../../src/settings";
import type { ProposalSink } from "../../src/service/proposals/proposal-sink";
import { startObsidian, type ObsidianHarness } from "../helpers/obsidian-harness";

/** A parsed answer: every command answers one JSON object. */
export type Answer = Record<string, unknown> & { ok: boolean };

export interface CliHarness extends ObsidianHarness {
	plugin: Plugin;
	/** `obsidian revision-guard:<action>` with these arguments; the raw text must be one JSON object. */
	cli(action: string, data?: Record<string, string>): Promise<Answer>;
	/** The same, from command-line words as the CLI parses them (`name=value`, bare flags, \n and \t turned into newline and tab). */
	invoke(action: string, ...words: string[]): Promise<Answer>;
	/** Creates a note as the person would (through Obsidian's vault). */
	create(path: string, content: string): Promise<void>;
	/** The person changes a note in Obsidian. */
	edit(path: string, content: string): Promise<void>;
}

export async function startCli(
	overrides: Partial<RevisionGuardSettings> = {},
	options: { proposals?: ProposalSink } = {},
): Promise<CliHarness> {
	const h = await startObsidian(overrides, undefined, options);
	const plugin = new Plugin(h.app, {
		id: "revision-guard",
		name: "Revision Guard",
		version: "0.0.0",
		minAppVersion: "1.6.6",
	});
	registerCliCommands(
		plugin as unknown as ObsidianPlugin,
		() => h.guard.notes,
		(error) => h.errors.push(error),
	);
	const parsed = (text: string): Answer => {
		expect(typeof text).toBe("string");
		const answer = JSON.parse(text) as Answer;
		expect(typeof answer.ok).toBe("boolean");
		return answer;
	};
	return {
		...h,
		plugin,
		cli: async (action, data = {}) => parsed(await h.app.cli.run(`revision-guard:${action}`, data)),
		invoke: async (action, ...words) => parsed(await h.app.cli.invoke([`revision-guard:${action}`, ...words])),
		create: async (path, content) => void (await h.app.vault.create(path, content)),
		edit: (path, content) => h.app.vault.modify(h.app.vault.getFileByPath(path)!, content),
	};
}

/** Base64 of a text's UTF-8 bytes, as an agent would pass it in content64=. */
export function base64(text: string): string {
	return Buffer.from(text, "utf8").toString("base64");
}

/**
 * For each test: a fresh Obsidian stack with the CLI commands registered and `notes` created, handed to `use`
 * (tests keep a `let h`); unloaded and closed after the test.
 */
export function eachCli(notes: Record<string, string>, use: (harness: CliHarness) => void): void {
	let harness: CliHarness;
	beforeEach(async () => {
		harness = await startCli();
		for (const [path, content] of Object.entries(notes)) await harness.create(path, content);
		use(harness);
	});
	afterEach(async () => {
		harness.plugin.unload();
		await harness.close();
	});
}
