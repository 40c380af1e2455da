/**
 * Where text comes from (content=, content64=, file=) and what a malformed argument answers: always one JSON object
 * that names the argument and the fix, with nothing read or written.
 */
import { mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { revisionOf } from "../../src/core/revision";
import { base64, startCli, type CliHarness } from "./cli-harness";

const LATEX = "$$\\frac{a}{b} \\times \\nabla f$$\n\tindented\r\n";

let h: CliHarness;
let outside: string;
const onDisk = (path: string) => readFile(join(h.dir, path), "utf8");

beforeEach(async () => {
	h = await startCli();
	outside = await mkdtemp(join(tmpdir(), "rg-cli-files-"));
	await h.create("Plan.md", "# Plan\n");
});

afterEach(async () => {
	h.plugin.unload();
	await h.close();
	await rm(outside, { recursive: true, force: true });
});

describe("content sources", () => {
	it("plain content= loses backslash sequences to the CLI; content64= keeps every byte", async () => {
		expect(await h.invoke("write", "path=Plain.md", `content=${LATEX}`)).toMatchObject({ ok: true });
		expect(await onDisk("Plain.md")).not.toBe(LATEX);
		expect(await h.invoke("write", "path=Exact.md", `content64=${base64(LATEX)}`)).toMatchObject({
			ok: true,
			revision: revisionOf(LATEX),
		});
		expect(await onDisk("Exact.md")).toBe(LATEX);
	});

	it('never writes the word a bare content flag turns into ("true"): it names the argument and the fix', async () => {
		const before = await onDisk("Plan.md");
		const answer = await h.invoke("write", "path=Plan.md", `revision=${revisionOf(before)}`, "content");
		expect(answer).toMatchObject({ ok: false, error: "bad-argument", argument: "content" });
		expect(await onDisk("Plan.md")).toBe(before);
		expect(await h.invoke("write", "path=True.md", `content64=${base64("true")}`)).toMatchObject({ ok: true });
		expect(await onDisk("True.md")).toBe("true");
	});

	it("accepts base64 wrapped in lines, as the base64 tool prints it", async () => {
		const long = "x".repeat(200) + "\n";
		const wrapped = base64(long).replace(/(.{76})/g, "$1\n");
		expect(await h.cli("write", { path: "Wrapped.md", content64: wrapped })).toMatchObject({
			ok: true,
			revision: revisionOf(long),
		});
	});

	it("reads file= from an absolute path outside the vault, byte for byte", async () => {
		const draft = join(outside, "draft.md");
		await writeFile(draft, "\uFEFF" + LATEX);
		expect(await h.cli("write", { path: "FromFile.md", file: draft })).toMatchObject({
			ok: true,
			revision: revisionOf("\uFEFF" + LATEX),
		});
		expect(await readFile(join(h.dir, "FromFile.md"))).toEqual(await readFile(draft));
	});

	it("refuses file= that is relative, missing, a folder, too big or not UTF-8", async () => {
		expect(await h.cli("write", { path: "A.md", file: "draft.md" })).toMatchObject({
			ok: false,
			error: "bad-argument",
			argument: "file",
		});
		expect(await h.cli("write", { path: "A.md", file: join(outside, "missing.md") })).toMatchObject({
			ok: false,
			error: "file-not-readable",
			code: "ENOENT",
		});
		expect(await h.cli("write", { path: "A.md", file: outside })).toMatchObject({
			ok: false,
			error: "file-not-readable",
		});
		await writeFile(join(outside, "latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
		expect(await h.cli("write", { path: "A.md", file: join(outside, "latin1.md") })).toMatchObject({
			ok: false,
			error: "invalid-utf8",
			argument: "file",
		});
		h.settings.maxBodyMB = 0.001;
		await writeFile(join(outside, "big.md"), "y".repeat(1100));
		expect(await h.cli("write", { path: "A.md", file: join(outside, "big.md") })).toMatchObject({
			ok: false,
			error: "content-too-large",
			argument: "file",
		});
		expect(await h.cli("write", { path: "A.md", content64: base64("y".repeat(1100)) })).toMatchObject({
			ok: false,
			error: "content-too-large",
			argument: "content64",
		});
		expect(h.app.vault.getFileByPath("A.md")).toBeNull();
	});
});

describe("malformed arguments", () => {
	const cases: [string, string, Record<string, string>, string][] = [
		["an unknown argument (a typo)", "write", { path: "Plan.md", revison: "x", content: "y" }, "revison"],
		["a missing path", "read", {}, "path"],
		["an argument named like one of Object's members", "read", { path: "Plan.md", constructor: "x" }, "constructor"],
		["a path outside the vault", "read", { path: "../secrets.md" }, "path"],
		["the config folder", "read", { path: ".obsidian/app.json" }, "path"],
		["text given twice", "write", { path: "Plan.md", content: "a", content64: "YQ==" }, "content64"],
		["no text at all", "append", { path: "Plan.md" }, "content"],
		["base64 with other characters", "write", { path: "New.md", content64: "aGVsbG8*" }, "content64"],
		["base64 of the wrong length", "write", { path: "New.md", content64: "aGVsbG8" }, "content64"],
		["base64 with stray bits", "write", { path: "New.md", content64: "aGVsbG9=" }, "content64"],
		["a flag given a value", "edit", { path: "Plan.md", old: "a", new: "b", all: "yes" }, "all"],
		["an agent name with a slash", "append", { path: "Plan.md", content: "x", agent: "../me" }, "agent"],
		["an offset that is not a number", "changes", { path: "Plan.md", since: revisionOf("x"), offset: "-1" }, "offset"],
		["merge=auto without a revision", "write", { path: "Plan.md", content: "x", merge: "auto" }, "merge"],
	];

	it("refuses a revision that is not one with malformed-precondition, the code REST and MCP give it", async () => {
		const answer = await h.cli("write", { path: "Plan.md", revision: 'W/"abc"', content: "y" });
		expect(answer).toMatchObject({ ok: false, error: "malformed-precondition", argument: "revision" });
		expect(answer.detail).toEqual(expect.stringContaining("nothing was read or written"));
		expect(await onDisk("Plan.md")).toBe("# Plan\n");
	});

	it.each(cases)("%s gives a JSON error naming the argument", async (_, action, data, argument) => {
		const answer = await h.cli(action, data);
		expect(answer).toMatchObject({ ok: false, error: "bad-argument", argument });
		expect(answer.detail).toEqual(expect.stringContaining("Nothing was read or written"));
		expect(typeof answer.next).toBe("string");
		expect(await onDisk("Plan.md")).toBe("# Plan\n");
		expect(h.app.vault.getFileByPath("New.md")).toBeNull();
	});

	it("answers not-ready, never an exception, before the plugin has started", async () => {
		const { registerCliCommands } = await import("../../src/cli/register");
		const { App, Plugin } = await import("../obsidian-stub");
		const app = new App(outside);
		const plugin = new Plugin(app, {
			id: "revision-guard",
			name: "Revision Guard",
			version: "0.0.0",
			minAppVersion: "1.6.6",
		});
		registerCliCommands(plugin as never, () => null);
		const answer = JSON.parse(await app.cli.run("revision-guard:write", { path: "Plan.md", content: "x" })) as Record<
			string,
			unknown
		>;
		expect(answer).toMatchObject({ ok: false, error: "not-ready" });
	});

	it("answers an unexpected failure as JSON without internals, and reports it", async () => {
		const notes = h.guard.notes;
		const original = notes.read.bind(notes);
		notes.read = () => Promise.reject(new Error("disk on fire at /secret/place"));
		const answer = await h.cli("read", { path: "Plan.md" });
		notes.read = original;
		expect(answer).toMatchObject({ ok: false, error: "internal-error" });
		expect(JSON.stringify(answer)).not.toContain("secret");
		expect(h.errors).toHaveLength(1);
	});
});
