/**
 * What Obsidian evaluates when it loads main.js: everything src/main.ts reaches through static imports. The host,
 * the MCP stack, the merge engine, search and yaml are reached only through `import()` (host/plugin-start-up.ts and
 * the first /mcp request), so esbuild defers their evaluation to first use (issue 28's plugin-load goal).
 */
import { existsSync, readFileSync, statSync } from "fs";
import { dirname, join, relative, resolve } from "path";
import { describe, expect, it } from "vitest";

const SRC = resolve(__dirname, "../../src");

function resolveLocal(from: string, specifier: string): string | null {
	const base = resolve(dirname(from), specifier);
	for (const candidate of [`${base}.ts`, join(base, "index.ts"), base]) {
		if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
	}
	return null;
}

/** Files and packages evaluated at load: static, non-type imports only. */
function loadedAtStart(entry: string): { files: Set<string>; packages: Set<string> } {
	const files = new Set<string>();
	const packages = new Set<string>();
	const pending = [entry];
	const staticImport = /^\s*(?:import|export)\s+(?!type\b)(?:[^;]*?\bfrom\s+)?"([^"]+)"/gm;
	while (pending.length > 0) {
		const file = pending.pop()!;
		if (files.has(file)) continue;
		files.add(file);
		for (const match of readFileSync(file, "utf8").matchAll(staticImport)) {
			const specifier = match[1]!;
			if (!specifier.startsWith(".")) {
				packages.add(specifier);
				continue;
			}
			const target = resolveLocal(file, specifier);
			if (target) pending.push(target);
		}
	}
	return { files, packages };
}

describe("what loading the plugin evaluates", () => {
	const { files, packages } = loadedAtStart(join(SRC, "main.ts"));
	const loaded = [...files].map((file) => relative(SRC, file));

	it("follows the imports it checks (the scan itself works)", () => {
		expect(loaded).toContain("ui/settings-tab.ts");
		expect(loaded).toContain("ui/history-ui.ts");
		expect(packages).toContain("obsidian");
	});

	it("leaves the host, the MCP stack, the merge engine, search and the modals to first use", () => {
		const deferred = (path: string) =>
			/^(host\/(start-host|revision-guard|api-server)|http\/|mcp\/|core\/(merge|search)\/|service\/(search|write|revisions)\/)/.test(
				path,
			) ||
			// The settings tab's small confirmation (before a key is deleted) is the one modal loaded with it.
			(/-modal\.ts$/.test(path) && path !== "ui/confirm-modal.ts");
		expect(loaded.filter(deferred)).toEqual([]);
		expect(
			[...packages].filter((name) => /^(yaml|diff-match-patch|@modelcontextprotocol|zod|@hono)/.test(name)),
		).toEqual([]);
	});
});
