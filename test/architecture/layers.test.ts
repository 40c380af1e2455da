/**
 * The shape the code must keep (ARCHITECTURE.md, "The layer rules"): adapters (REST in `http/`, MCP in `mcp/`, the
 * Obsidian CLI in `cli/`) reach the
 * vault only through the application service, so every write goes through the one guarded writer by construction;
 * `http/` does not know what is mounted on it; and the core is pure.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "fs";
import { dirname, join, relative, resolve } from "path";
import { describe, expect, it } from "vitest";

const SRC = resolve(__dirname, "../../src");

interface Import {
	file: string;
	/** Resolved to a path under src/ without extension, or the bare package name. */
	target: string;
	typeOnly: boolean;
}

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith(".ts") ? [path] : [];
	});
}

function importsOf(file: string): Import[] {
	const text = readFileSync(file, "utf8");
	const found: Import[] = [];
	const pattern = /^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/gm;
	for (const match of text.matchAll(pattern)) {
		const specifier = match[3] ?? match[4]!;
		const target = specifier.startsWith(".") ? relative(SRC, resolve(dirname(file), specifier)) : specifier;
		found.push({ file: relative(SRC, file), target, typeOnly: match[2] !== undefined });
	}
	return found;
}

const ALL = sourceFiles(SRC).flatMap(importsOf);
const inFolder = (folder: string) => (entry: Import) => entry.file.startsWith(`${folder}/`);

/** The parts behind the application service, which adapters must not reach at run time. */
const BEHIND_THE_SERVICE = (target: string) =>
	["vault/", "service/stores/", "service/write/", "service/revisions/", "host/"].some((folder) =>
		target.startsWith(folder),
	);
const ADAPTERS = ["http", "mcp", "cli"];
const inAdapter = (entry: Import) => ADAPTERS.some((folder) => inFolder(folder)(entry));

describe("the layers", () => {
	it("finds the imports it checks (the scan itself works)", () => {
		expect(
			ALL.some(
				(entry) =>
					entry.file === "service/refusals/vault-refusals.ts" && entry.target === "vault/errors" && !entry.typeOnly,
			),
		).toBe(true);
		expect(ALL.some((entry) => entry.file === "mcp/mount.ts" && entry.target === "mcp/endpoint")).toBe(true);
		expect(
			ALL.some((entry) => entry.file === "cli/register.ts" && entry.target === "obsidian" && !entry.typeOnly),
		).toBe(true);
	});

	it("REST, MCP and the CLI reach the vault, the writer, the tracker, the stores and the composition only through the application service", () => {
		const leaks = ALL.filter((entry) => inAdapter(entry) && !entry.typeOnly && BEHIND_THE_SERVICE(entry.target));
		expect(leaks).toEqual([]);
	});

	it("of the CLI, only its registration imports obsidian", () => {
		expect(
			ALL.filter((entry) => inFolder("cli")(entry) && entry.target === "obsidian" && !entry.typeOnly).map(
				(entry) => entry.file,
			),
		).toEqual(["cli/register.ts"]);
	});

	it("http/ imports nothing from mcp/: the host mounts MCP on the server", () => {
		expect(ALL.filter((entry) => inFolder("http")(entry) && entry.target.startsWith("mcp/"))).toEqual([]);
	});

	it("the core imports nothing outside the core (no obsidian, no vault, no service)", () => {
		const outside = ALL.filter(
			(entry) =>
				inFolder("core")(entry) &&
				!entry.target.startsWith("core/") &&
				/^(obsidian|vault|service|http|mcp|ui|host|headless)(\/|$)/.test(entry.target),
		);
		expect(outside).toEqual([]);
	});

	it("the UI reaches the guard only through the person's service: never the composition, the writer, the resolver or the vault", () => {
		const forbidden = [
			"host/revision-guard",
			"service/revisions/revision-tracker",
			"service/conflicts/conflict-resolver",
			"service/stores/base-store",
			"service/stores/read-ledger",
		];
		const leaks = ALL.filter(
			(entry) =>
				inFolder("ui")(entry) &&
				(forbidden.includes(entry.target) ||
					(!entry.typeOnly && (entry.target.startsWith("vault/") || entry.target.startsWith("service/write/")))),
		);
		expect(leaks).toEqual([]);
		expect(ALL.some((entry) => inFolder("ui")(entry) && entry.target === "service/notes/person-notes")).toBe(true);
	});

	it("the core holds no stateful stores: they live in service/stores/", () => {
		const stores = ["base-store", "record-log", "read-ledger", "keyed-mutex", "conflict-log", "proposal-log"];
		for (const store of [...stores, "revision-history"]) {
			expect(existsSync(join(SRC, `service/stores/${store}.ts`)), store).toBe(true);
		}
		for (const store of stores) expect(existsSync(join(SRC, `core/${store}.ts`)), store).toBe(false);
		// core/revision-history.ts keeps only the record types; the store that holds them is not there.
		expect(readFileSync(join(SRC, "core/revision-history.ts"), "utf8")).not.toMatch(/\bclass\b/);
	});

	it("the service is split by concern: no flat files in service/, and no folder of more than a dozen", () => {
		const service = join(SRC, "service");
		const entries = readdirSync(service);
		expect(entries.filter((name) => name.endsWith(".ts"))).toEqual([]);
		for (const folder of entries) {
			expect(readdirSync(join(service, folder)).length, folder).toBeLessThanOrEqual(12);
		}
	});

	it("the core keeps no state between calls: no module-level variables", () => {
		const variables = sourceFiles(join(SRC, "core")).flatMap((file) =>
			[...readFileSync(file, "utf8").matchAll(/^(?:export\s+)?(?:let|var)\s+(\w+)/gm)].map(
				(match) => `${relative(SRC, file)}: ${match[1]}`,
			),
		);
		expect(variables).toEqual([]);
	});
});
