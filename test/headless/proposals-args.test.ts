/** `proposals …` words, read strictly: each action takes only its own options, and a wrong word names the right ones. */
import { describe, expect, it } from "vitest";
import { parseProposalsArgs } from "../../src/headless/proposals-args";

describe("proposals arguments", () => {
	it("refuses what no action takes", () => {
		expect(parseProposalsArgs(["list", "--status", "open"])).toMatchObject({ command: "error" });
		expect(parseProposalsArgs(["accept"])).toMatchObject({ command: "error" });
		expect(parseProposalsArgs(["reject", "p-1", "--text", "f"])).toMatchObject({ command: "error" });
		expect(parseProposalsArgs(["accept", "p-1", "--against", "r"])).toMatchObject({ command: "error" });
		expect(parseProposalsArgs(["show", "p-1", "--note", "x"])).toMatchObject({ command: "error" });
		expect(parseProposalsArgs(["approve", "p-1"])).toMatchObject({ command: "error" });
	});

	it("reads a reject with its note", () => {
		expect(parseProposalsArgs(["reject", "p-1", "--note=no thanks"])).toEqual({
			command: "proposals",
			action: "reject",
			id: "p-1",
			status: null,
			json: false,
			note: "no thanks",
			text: null,
			against: null,
			vault: "demo-vault",
		});
	});

	it("reads a list filtered by status, as JSON, and an accept of a settled text against its revision", () => {
		expect(parseProposalsArgs(["list", "--status", "pending", "--json", "--vault", "v"])).toMatchObject({
			action: "list",
			id: "",
			status: "pending",
			json: true,
			vault: "v",
		});
		expect(
			parseProposalsArgs(["accept", "p-1", "--text", "merged.md", "--against", "sha256:abc", "--note", "ok"]),
		).toMatchObject({ action: "accept", id: "p-1", text: "merged.md", against: "sha256:abc", note: "ok" });
		expect(parseProposalsArgs(["show", "p-1", "--json"])).toMatchObject({ action: "show", id: "p-1", json: true });
	});

	it("says what each action takes", () => {
		expect(parseProposalsArgs(["list", "p-1"])).toMatchObject({
			message: expect.stringContaining("proposals needs list"),
		});
		expect(parseProposalsArgs(["list", "--note", "x"])).toEqual({
			command: "error",
			message: "proposals list takes --status, --json and --vault.",
		});
		expect(parseProposalsArgs(["show", "p-1", "p-2"])).toEqual({
			command: "error",
			message: "proposals show needs one proposal id (proposals list shows them).",
		});
		expect(parseProposalsArgs(["accept", "p-1", "--json"])).toEqual({
			command: "error",
			message: "proposals accept takes only an id, --text FILE, --against REVISION, --note TEXT and --vault.",
		});
		expect(parseProposalsArgs(["list", "--status", "open"])).toEqual({
			command: "error",
			message: "--status must be one of pending, accepted, accepted-with-edits, rejected.",
		});
		expect(parseProposalsArgs([])).toMatchObject({
			command: "error",
			message: expect.stringContaining("proposals needs list"),
		});
	});
});
