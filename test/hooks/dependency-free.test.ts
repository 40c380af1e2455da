/**
 * The hook runs from a clone (or a copy of hooks/) with plain Node and nothing installed: it may import Node's own
 * modules and its own files, never a package or the plugin's sources.
 */
import { readdirSync, readFileSync, statSync } from "fs";
import { join, relative, resolve } from "path";
import { describe, expect, it } from "vitest";

const HOOKS = resolve(__dirname, "../../hooks");

function scripts(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		return statSync(path).isDirectory() ? scripts(path) : name.endsWith(".mjs") ? [path] : [];
	});
}

describe("hooks/", () => {
	it("imports only node: modules and its own files", () => {
		const files = scripts(HOOKS);
		expect(files.length).toBeGreaterThan(1);
		for (const file of files) {
			const text = readFileSync(file, "utf8");
			for (const match of text.matchAll(
				/^\s*(?:import|export)\s[^;]*?\bfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/gm,
			)) {
				const specifier = match[1] ?? match[2]!;
				const where = relative(HOOKS, file);
				if (specifier.startsWith("."))
					expect(relative(HOOKS, resolve(file, "..", specifier)), `${where} imports ${specifier}`).not.toMatch(/^\.\./);
				else expect(specifier, `${where} imports ${specifier}`).toMatch(/^node:/);
			}
		}
	});
});
