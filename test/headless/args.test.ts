/** The headless host's command line. */
import { describe, expect, it } from "vitest";
import { parseArgs, USAGE } from "../../src/headless/args";

describe("parseArgs", () => {
	it("serves the demo vault on port 27125 with no arguments", () => {
		expect(parseArgs([])).toEqual({
			command: "serve",
			vault: "demo-vault",
			port: 27125,
			apiKey: null,
			demo: true,
			create: false,
			besideObsidian: false,
		});
	});

	it.each([[["--vault", "/notes/My Vault"]], [["--vault=/notes/My Vault"]]])(
		"takes the folder from %j and leaves demo mode",
		(argv) => {
			expect(parseArgs(argv)).toEqual({
				command: "serve",
				vault: "/notes/My Vault",
				port: 27125,
				apiKey: null,
				demo: false,
				create: false,
				besideObsidian: false,
			});
		},
	);

	it("does not treat an explicit --vault demo-vault as the demo", () => {
		expect(parseArgs(["--vault", "demo-vault"])).toMatchObject({ vault: "demo-vault", demo: false });
	});

	it.each([
		[["--port", "8080"], 8080],
		[["--port=8080"], 8080],
		[["--port", "0"], 0],
		[["--port=65535"], 65535],
	])("takes the port from %j", (argv, port) => {
		expect(parseArgs(argv)).toMatchObject({ command: "serve", port });
	});

	it.each([
		[["--api-key", "0123456789abcdef"], "0123456789abcdef"],
		[["--api-key=0123456789abcdef"], "0123456789abcdef"],
		[["--api-key=abcdefghijklmnop=="], "abcdefghijklmnop=="],
	])("takes the key from %j", (argv, apiKey) => {
		expect(parseArgs(argv)).toMatchObject({ command: "serve", apiKey });
	});

	it("combines every option in any order", () => {
		expect(parseArgs(["--api-key", "k".repeat(43), "--port=0", "--vault", "notes"])).toEqual({
			command: "serve",
			vault: "notes",
			port: 0,
			apiKey: "k".repeat(43),
			demo: false,
			create: false,
			besideObsidian: false,
		});
		expect(parseArgs(["--create", "--vault", "notes"])).toMatchObject({ vault: "notes", create: true });
		expect(parseArgs(["--create=yes"])).toEqual({ command: "error", message: "--create takes no value." });
		expect(parseArgs(["--vault", "notes", "--beside-obsidian"])).toMatchObject({
			vault: "notes",
			besideObsidian: true,
		});
		expect(parseArgs(["--beside-obsidian=yes"])).toEqual({
			command: "error",
			message: "--beside-obsidian takes no value.",
		});
	});

	it.each([
		[["--port", "-1"]],
		[["--port", "65536"]],
		[["--port", "abc"]],
		[["--port", "80.5"]],
		[["--port", "0x50"]],
		[["--port", "1e3"]],
		[["--port"]],
		[["--port="]],
		[["--port", ""]],
	])("refuses the port in %j", (argv) => {
		expect(parseArgs(argv)).toEqual({ command: "error", message: "--port needs a number from 0 to 65535." });
	});

	it.each([[["--vault"]], [["--vault="]]])("refuses %j without a folder", (argv) => {
		expect(parseArgs(argv)).toEqual({ command: "error", message: "--vault needs a folder." });
	});

	it.each([[["--api-key", "short"]], [["--api-key=0123456789abcde"]], [["--api-key"]]])(
		"refuses the key in %j (under 16 characters)",
		(argv) => {
			expect(parseArgs(argv)).toEqual({
				command: "error",
				message: "--api-key needs a key of at least 16 characters.",
			});
		},
	);

	it.each([
		[["--verbose"], "--verbose"],
		[["serve"], "serve"],
		[["--vault", "a", "extra"], "extra"],
		[["--Port", "80"], "--Port"],
		[["--colour=red"], "--colour=red"],
	])("refuses the unknown argument in %j", (argv, unknown) => {
		expect(parseArgs(argv)).toEqual({ command: "error", message: `Unknown argument "${unknown}".` });
	});

	it.each([[["--help"]], [["-h"]], [["--vault", "notes", "--help"]]])("asks for help with %j", (argv) => {
		expect(parseArgs(argv)).toEqual({ command: "help" });
	});

	it("documents every option in the usage text", () => {
		for (const option of ["--vault DIR", "--create", "--port N", "--api-key KEY", "--beside-obsidian", "--help"])
			expect(USAGE).toContain(option);
		for (const command of ["keys list", "keys add NAME", "keys revoke NAME", "conflicts list", "conflicts dismiss ID"])
			expect(USAGE).toContain(command);
		for (const command of [
			"proposals list",
			"proposals show ID",
			"proposals accept ID [--text FILE [--against REVISION]] [--note TEXT]",
			"proposals reject ID [--note TEXT]",
		])
			expect(USAGE).toContain(command);
		expect(USAGE).toContain("default 27125");
	});
});
