/**
 * The agents' hook (hooks/revision-guard-hook.mjs) spawned as Claude Code and Gemini CLI spawn it, against a real
 * headless host on loopback: a session's Read is remembered, its own writes move what it knows along, and a Write or
 * Edit of a note that changed since (or was never read) is refused with what changed and the next step.
 */
import { chmod, mkdir, mkdtemp, rm, symlink, unlink, writeFile } from "fs/promises";
import { createServer } from "net";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TEST_KEY, startHeadless, type Harness } from "../helpers/headless-harness";
import { forbidServerErrors } from "../helpers/no-server-errors";
import { writeVaultFile } from "../helpers/vault-files";
import { openSessionReads } from "../../hooks/lib/session-reads.mjs";
import { realVaultRoot } from "../../hooks/lib/vault-path.mjs";
import { claudeCall, geminiCall, runHook, type CallOptions, type HookEnv } from "./hook-process";

forbidServerErrors();

let h: Harness;
let stateDir: string;
let env: HookEnv;
const at = (path: string) => join(h.dir, path);

beforeEach(async () => {
	h = await startHeadless();
	stateDir = await mkdtemp(join(tmpdir(), "rg-hook-state-"));
	env = {
		RG: `http://127.0.0.1:${h.port}`,
		RG_KEY: TEST_KEY,
		RG_VAULT: h.dir,
		RG_HOOK_STATE_DIR: join(stateDir, "state"),
	};
});

afterEach(async () => {
	await h.close();
	await rm(stateDir, { recursive: true, force: true });
});

const read = (path: string, options: CallOptions = {}, withEnv = env) =>
	runHook(claudeCall("PostToolUse", "Read", at(path), options), withEnv);
const before = (tool: string, path: string, options: CallOptions = {}, withEnv = env) =>
	runHook(claudeCall("PreToolUse", tool, at(path), options), withEnv);
/** The session's Write as Claude Code makes it: the file saved, then PostToolUse with what it wrote. */
async function written(path: string, content: string, options: CallOptions = {}) {
	await writeVaultFile(h.dir, path, content);
	return runHook(claudeCall("PostToolUse", "Write", at(path), { ...options, toolInput: { content } }), env);
}
/** The session's Edit: the file saved with the replacement, then PostToolUse. */
async function edited(path: string, content: string, options: CallOptions = {}) {
	await writeVaultFile(h.dir, path, content);
	return runHook(
		claudeCall("PostToolUse", "Edit", at(path), { ...options, toolInput: { old_string: "x", new_string: "y" } }),
		env,
	);
}
const allowed = (run: { code: number | null; stderr: string }) =>
	expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });

/** A loopback port with nothing listening: a host that is not running. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

describe("a session that read a note", () => {
	it("may write it while it is unchanged, and the hook says nothing", async () => {
		await writeVaultFile(h.dir, "Plan.md", "# Plan\n\n- one\n");
		const afterRead = await read("Plan.md", {
			toolResponse: {
				type: "text",
				file: { filePath: at("Plan.md"), content: "# Plan\n\n- one\n", numLines: 3, startLine: 1, totalLines: 3 },
			},
		});
		expect({ code: afterRead.code, stdout: afterRead.stdout, stderr: afterRead.stderr }).toEqual({
			code: 0,
			stdout: "",
			stderr: "",
		});
		allowed(await before("Write", "Plan.md", { toolInput: { content: "# Plan\n\n- one\n- two\n" } }));
		allowed(await before("Edit", "Plan.md"));
		allowed(await before("MultiEdit", "Plan.md"));
	});

	it("is refused a Write once the person edited the note, with the diff and the next step", async () => {
		await writeVaultFile(h.dir, "Plan.md", "# Plan\n\n- one\n");
		await read("Plan.md");
		await writeVaultFile(h.dir, "Plan.md", "# Plan\n\n- one\n- the person's line\n");
		const run = await before("Write", "Plan.md", { toolInput: { content: "# Plan\n\n- one\n- agent\n" } });
		expect(run.code).toBe(2);
		expect(run.stderr).toContain('"Plan.md" changed since this session last read it');
		expect(run.stderr).toContain("your Write was not made");
		expect(run.stderr).toContain("+- the person's line\n");
		expect(run.stderr).toContain("Next step: Read the note again, then redo your edit");
		expect(run.stdout).toBe("");
	});

	it("is refused an Edit too, and may edit again after reading the new version", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		await read("Plan.md");
		await writeVaultFile(h.dir, "Plan.md", "one\ntwo\n");
		const refused = await before("Edit", "Plan.md");
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain("your Edit was not made");
		expect(refused.stderr).toContain("+two\n");
		await read("Plan.md");
		allowed(await before("Edit", "Plan.md"));
	});

	it("keeps going after its own writes: write, then edit, then edit again", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		await read("Plan.md");
		allowed(await before("Write", "Plan.md"));
		const afterWrite = await written("Plan.md", "one\ntwo\n");
		expect({ code: afterWrite.code, stdout: afterWrite.stdout }).toEqual({ code: 0, stdout: "" });
		allowed(await before("Edit", "Plan.md"));
		await edited("Plan.md", "one\n2\n");
		allowed(await before("Edit", "Plan.md"));
		// ...and the person's edit after them is still caught.
		await writeVaultFile(h.dir, "Plan.md", "one\n2\nthree\n");
		const refused = await before("Edit", "Plan.md");
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain("+three\n");
	});

	it("forgets its own Write when the file on disk is not what it wrote, and asks for a read", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		await read("Plan.md");
		await writeVaultFile(h.dir, "Plan.md", "one\nthe person, right after\n");
		const afterWrite = await runHook(
			claudeCall("PostToolUse", "Write", at("Plan.md"), { toolInput: { content: "one\nagent\n" } }),
			env,
		);
		expect(afterWrite.code).toBe(0);
		expect(afterWrite.context).toContain('"Plan.md" on disk is not exactly what you wrote');
		expect(afterWrite.json).toEqual({
			hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: afterWrite.context },
		});
		const next = await before("Edit", "Plan.md");
		expect(next.code).toBe(2);
		expect(next.stderr).toContain("has not read");
	});

	it("takes its own Write back with the note's CRLF line endings kept as its own", async () => {
		await writeVaultFile(h.dir, "Windows.md", "one\r\n");
		await read("Windows.md");
		await writeVaultFile(h.dir, "Windows.md", "one\r\ntwo\r\n");
		const afterWrite = await runHook(
			claudeCall("PostToolUse", "Write", at("Windows.md"), { toolInput: { content: "one\ntwo\n" } }),
			env,
		);
		expect({ code: afterWrite.code, stdout: afterWrite.stdout }).toEqual({ code: 0, stdout: "" });
		allowed(await before("Edit", "Windows.md"));
	});

	it("may write a note deleted since it was read (a Write makes it anew)", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		await read("Plan.md");
		await unlink(at("Plan.md"));
		allowed(await before("Write", "Plan.md"));
	});

	it("holds only for that session: another session's read does not count", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		await read("Plan.md", { session: "session-a" });
		const other = await before("Write", "Plan.md", { session: "session-b" });
		expect(other.code).toBe(2);
		expect(other.stderr).toContain("has not read");
		allowed(await before("Write", "Plan.md", { session: "session-a" }));
	});

	it("keeps every read when several Reads finish at once", async () => {
		const names = Array.from({ length: 8 }, (_, i) => `Notes/n${i}.md`);
		for (const name of names) await writeVaultFile(h.dir, name, `note ${name}\n`);
		const runs = await Promise.all(names.map((name) => read(name)));
		for (const run of runs) expect(run.code).toBe(0);
		for (const name of names) allowed(await before("Edit", name));
	});

	it("is refused without a diff when the host no longer keeps the version it read, unless the note is still that version", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		await read("Plan.md");
		// What the session holds after a read whose text the host has since let go of (a long session, a restart).
		const reads = await openSessionReads(env.RG_HOOK_STATE_DIR!, `session-1\0${env.RG}\0${await realVaultRoot(h.dir)}`);
		await reads.remember("Plan.md", { revision: "a-revision-the-host-no-longer-keeps", part: false });
		const run = await before("Edit", "Plan.md");
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(
			'"Plan.md" changed since this session last read it, so your Edit was not made (the host no longer keeps',
		);
		expect(run.stderr).toContain("Read the note again");
		await read("Plan.md");
		allowed(await before("Edit", "Plan.md"));
	});

	it("caps the diff it shows, saying there is more", async () => {
		await writeVaultFile(h.dir, "Long.md", "start\n");
		await read("Long.md");
		const lines = Array.from({ length: 2000 }, (_, i) => `line ${i} of what the person pasted in\n`).join("");
		await writeVaultFile(h.dir, "Long.md", `start\n${lines}`);
		const run = await before("Write", "Long.md");
		expect(run.code).toBe(2);
		expect(run.stderr.length).toBeLessThan(8000);
		expect(run.stderr).toContain("+line 0 of what the person pasted in\n");
		expect(run.stderr).not.toContain("line 1999 of");
		expect(run.stderr).toMatch(/\[… \d+ more characters of the diff not shown/);
		expect(run.stderr).toContain("Next step: Read the note again");
	});
});

describe("a note the session did not read", () => {
	it("is refused when it exists, with the next step", async () => {
		await writeVaultFile(h.dir, "Plan.md", "the person's note\n");
		for (const tool of ["Write", "Edit", "MultiEdit"]) {
			const run = await before(tool, "Plan.md");
			expect(run.code, tool).toBe(2);
			expect(run.stderr).toContain('"Plan.md" is a note in the vault that this session has not read');
			expect(run.stderr).toContain("Read the note first");
		}
	});

	it("is allowed when it does not exist yet, in a new folder too", async () => {
		allowed(await before("Write", "Ideas/New/Idea.md", { toolInput: { content: "new\n" } }));
		allowed(await before("Write", "Fresh.md"));
	});

	it("read only in part may be edited, but not replaced whole", async () => {
		await writeVaultFile(h.dir, "Big.md", Array.from({ length: 50 }, (_, i) => `line ${i}\n`).join(""));
		await read("Big.md", {
			toolInput: { offset: 10, limit: 5 },
			toolResponse: {
				type: "text",
				file: { filePath: at("Big.md"), content: "", numLines: 5, startLine: 10, totalLines: 50 },
			},
		});
		allowed(await before("Edit", "Big.md"));
		const whole = await before("Write", "Big.md");
		expect(whole.code).toBe(2);
		expect(whole.stderr).toContain('this session read only part of "Big.md"');
		// A Read the tool cut short (it stops at 2000 lines) is a read of part of the note too.
		await read("Big.md", {
			toolResponse: {
				type: "text",
				file: { filePath: at("Big.md"), content: "", numLines: 20, startLine: 1, totalLines: 50 },
			},
		});
		expect((await before("Write", "Big.md")).code).toBe(2);
		await read("Big.md", {
			toolResponse: {
				type: "text",
				file: { filePath: at("Big.md"), content: "", numLines: 50, startLine: 1, totalLines: 50 },
			},
		});
		allowed(await before("Write", "Big.md"));
	});
});

describe("files the hook leaves alone", () => {
	it("never holds up a file outside the vault, a hidden one or another type, even when nothing is set up", async () => {
		const elsewhere = await mkdtemp(join(tmpdir(), "rg-elsewhere-"));
		try {
			await writeFile(join(elsewhere, "Other.md"), "not in the vault\n");
			await writeVaultFile(h.dir, ".obsidian/app.json", "{}\n");
			await writeVaultFile(h.dir, ".obsidian/snippets/notes.md", "hidden\n");
			await writeVaultFile(h.dir, "data.csv", "a,b\n");
			for (const withEnv of [
				env,
				{ ...env, RG: undefined, RG_KEY: undefined },
				{ ...env, RG: `http://127.0.0.1:${await closedPort()}` },
			]) {
				allowed(await runHook(claudeCall("PreToolUse", "Write", join(elsewhere, "Other.md")), withEnv));
				allowed(await runHook(claudeCall("PreToolUse", "Write", join(h.dir, "..", "beside-the-vault.md")), withEnv));
				allowed(await before("Write", ".obsidian/app.json", {}, withEnv));
				allowed(await before("Edit", ".obsidian/snippets/notes.md", {}, withEnv));
				allowed(await before("Write", "data.csv", {}, withEnv));
			}
		} finally {
			await rm(elsewhere, { recursive: true, force: true });
		}
	});

	it("ignores other tools and the moment before a Read", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		allowed(await before("Read", "Plan.md"));
		allowed(await before("NotebookEdit", "Plan.md"));
		allowed(
			await runHook(
				{ ...claudeCall("PreToolUse", "Bash", at("Plan.md")), tool_input: { command: "echo hi > Plan.md" } },
				env,
			),
		);
	});

	it("covers the note types named in RG_NOTE_EXTENSIONS that the host serves", async () => {
		await writeVaultFile(h.dir, "Board.canvas", "{}\n");
		const canvas = { ...env, RG_NOTE_EXTENSIONS: "md, .canvas" };
		allowed(await before("Write", "Board.canvas"));
		// Named, but the host does not serve it as a note: not the hook's business either.
		allowed(await before("Write", "Board.canvas", {}, canvas));
		h.settings.noteExtensions = ["md", "canvas"];
		expect((await before("Write", "Board.canvas", {}, canvas)).code).toBe(2);
	});
});

describe("paths", () => {
	it("names one note whether the tool gave a relative path, `..` or a path through a link to the vault", async () => {
		await writeVaultFile(h.dir, "Projects/Plan.md", "one\n");
		await mkdir(at("Projects/Sub"), { recursive: true });
		await runHook(claudeCall("PostToolUse", "Read", "Plan.md", { cwd: at("Projects") }), env);
		allowed(await runHook(claudeCall("PreToolUse", "Edit", "../Plan.md", { cwd: at("Projects/Sub") }), env));
		allowed(await before("Edit", "Projects/Sub/../Plan.md"));
		const links = await mkdtemp(join(tmpdir(), "rg-links-"));
		try {
			await symlink(h.dir, join(links, "vault"), "dir");
			const throughLink = join(links, "vault", "Projects", "Plan.md");
			allowed(await runHook(claudeCall("PreToolUse", "Edit", throughLink), env));
			// The vault named through the link, the file by its real path: still the same note.
			allowed(await before("Edit", "Projects/Plan.md", {}, { ...env, RG_VAULT: join(links, "vault") }));
			await writeVaultFile(h.dir, "Projects/Plan.md", "one\ntwo\n");
			expect((await runHook(claudeCall("PreToolUse", "Edit", throughLink), env)).code).toBe(2);
		} finally {
			await rm(links, { recursive: true, force: true });
		}
	});

	it("asks the host with each segment percent-encoded", async () => {
		const name = "Ideas/Café #1 at 100% ?.md".replace("?", "and more");
		await writeVaultFile(h.dir, name, "first\n");
		await read(name);
		allowed(await before("Edit", name));
		await writeVaultFile(h.dir, name, "first\nsecond\n");
		const run = await before("Edit", name);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(`"${name}" changed since`);
		expect(run.stderr).toContain("+second\n");
	});
});

describe("setup problems", () => {
	it("refuses vault edits, naming the variable, when RG_VAULT is not set or not a folder", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		const unset = await before("Write", "Plan.md", {}, { ...env, RG_VAULT: undefined });
		expect(unset.code).toBe(2);
		expect(unset.stderr).toContain("Revision Guard's hook is not set up: RG_VAULT is not set");
		expect(unset.stderr).toContain("remove the hook from the agent's settings");
		const missing = await before("Write", "Plan.md", {}, { ...env, RG_VAULT: join(stateDir, "no-such-vault") });
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain("RG_VAULT is not a folder that exists");
	});

	it("refuses vault edits, naming each missing setting, when RG or RG_KEY is not set", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		const run = await before("Write", "Plan.md", {}, { ...env, RG: undefined, RG_KEY: "" });
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("RG is not set");
		expect(run.stderr).toContain("RG_KEY is not set");
		const notUrl = await before("Write", "Plan.md", {}, { ...env, RG: "127.0.0.1:27125" });
		expect(notUrl.stderr).toContain('RG is not an http:// address (it is "127.0.0.1:27125")');
		const badMode = await before("Write", "Plan.md", {}, { ...env, RG_HOOK_WHEN_DOWN: "sometimes" });
		expect(badMode.stderr).toContain('RG_HOOK_WHEN_DOWN must be "block" or "allow"');
	});

	it("tells the model after a Read that nothing was recorded when the setup is incomplete", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		const run = await read("Plan.md", {}, { ...env, RG_KEY: undefined });
		expect(run.code).toBe(0);
		expect(run.context).toContain("RG_KEY is not set");
		expect(run.context).toContain("was not recorded");
	});

	it("refuses with the key named when the host does not accept it", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		const wrongKey = { ...env, RG_KEY: "not-a-key-of-this-vault" };
		const afterRead = await read("Plan.md", {}, wrongKey);
		expect(afterRead.context).toContain("did not accept the hook's key (RG_KEY)");
		const run = await before("Write", "Plan.md", {}, wrongKey);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("did not accept the hook's key (RG_KEY)");
	});

	it("refuses a state folder others could read", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		const shared = join(stateDir, "shared");
		await mkdir(shared, { mode: 0o777 });
		await chmod(shared, 0o777);
		const run = await before("Edit", "Plan.md", {}, { ...env, RG_HOOK_STATE_DIR: shared });
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("is not a private folder of this user");
	});
});

describe("when the host is not running", () => {
	it("refuses an edit of a note it cannot check, saying how to start the host or turn the check off", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		await read("Plan.md");
		const down = { ...env, RG: `http://127.0.0.1:${await closedPort()}` };
		const run = await before("Edit", "Plan.md", {}, down);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain('Revision Guard could not check "Plan.md"');
		expect(run.stderr).toContain("did not answer (ECONNREFUSED)");
		expect(run.stderr).toContain("npm start -- --vault");
		expect(run.stderr).toContain("RG_HOOK_WHEN_DOWN=allow");
		// A note the session never read is refused the same way: whether the person edited it cannot be known.
		await writeVaultFile(h.dir, "Other.md", "the person's\n");
		expect((await before("Write", "Other.md", {}, down)).code).toBe(2);
	});

	it("still allows new notes", async () => {
		allowed(await before("Write", "New.md", {}, { ...env, RG: `http://127.0.0.1:${await closedPort()}` }));
	});

	it("with RG_HOOK_WHEN_DOWN=allow, lets the edit through and warns the person", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		const run = await before(
			"Edit",
			"Plan.md",
			{},
			{ ...env, RG: `http://127.0.0.1:${await closedPort()}`, RG_HOOK_WHEN_DOWN: "allow" },
		);
		expect(run.code).toBe(0);
		expect(run.json?.systemMessage).toContain('"Plan.md" is being changed without checking');
	});

	it("tells the model after a Read that the read was not recorded", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		const run = await read("Plan.md", {}, { ...env, RG: `http://127.0.0.1:${await closedPort()}` });
		expect(run.code).toBe(0);
		expect(run.context).toContain('could not record which version of "Plan.md" you read');
		expect(run.context).toContain("did not answer (ECONNREFUSED)");
	});
});

describe("Gemini CLI", () => {
	it("reads with read_file and is refused write_file and replace after the person's edit", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		const afterRead = await runHook(geminiCall("AfterTool", "read_file", at("Plan.md")), env);
		expect({ code: afterRead.code, stdout: afterRead.stdout }).toEqual({ code: 0, stdout: "" });
		allowed(await runHook(geminiCall("BeforeTool", "replace", at("Plan.md")), env));
		await writeVaultFile(h.dir, "Plan.md", "one\nperson\n");
		for (const tool of ["write_file", "replace"]) {
			const run = await runHook(geminiCall("BeforeTool", tool, at("Plan.md")), env);
			expect(run.code, tool).toBe(2);
			expect(run.stderr).toContain(`your ${tool} was not made`);
			expect(run.stderr).toContain("+person\n");
		}
	});

	it("answers an AfterTool with the event's own name, and skips a tool that failed", async () => {
		await writeVaultFile(h.dir, "Plan.md", "one\n");
		const run = await runHook(geminiCall("AfterTool", "read_file", at("Plan.md")), { ...env, RG_KEY: undefined });
		expect((run.json?.hookSpecificOutput as { hookEventName?: string }).hookEventName).toBe("AfterTool");
		const failed = await runHook(
			geminiCall("AfterTool", "read_file", at("Plan.md"), { toolResponse: { error: "no such file" } }),
			env,
		);
		expect({ code: failed.code, stdout: failed.stdout }).toEqual({ code: 0, stdout: "" });
		expect((await runHook(geminiCall("BeforeTool", "replace", at("Plan.md")), env)).code).toBe(2);
	});
});

describe("input that is not a tool call", () => {
	it("says so without refusing anything", async () => {
		const run = await runHook("not json", env);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("stdin was not the JSON of a tool call");
		allowed(await runHook({ hook_event_name: "Stop" }, env));
	});
});
