import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { decodeUrlPath, validateVaultPath, type PathPolicy, type PathResult } from "../../src/core/path";
import { RememberedPaths } from "../../src/http/remembered-paths";

describe("RememberedPaths (decode and validate, remembered)", () => {
	const direct = (raw: string, policy: PathPolicy, kind: "note" | "folder"): PathResult => {
		const decoded = decodeUrlPath(raw);
		return decoded.ok ? validateVaultPath(decoded.path, policy, kind) : decoded;
	};
	let paths: RememberedPaths;
	beforeEach(() => {
		paths = new RememberedPaths();
	});

	it("answers as decoding and validating would, asked once or again (property)", () => {
		const policy: PathPolicy = { configDir: ".obsidian", noteExtensions: ["md"], deniedFolders: [".revision-guard"] };
		fc.assert(
			fc.property(
				fc.string({ unit: "binary", maxLength: 30 }),
				fc.constantFrom("note" as const, "folder" as const),
				(raw, kind) => {
					expect(paths.resolve(raw, policy, kind)).toEqual(direct(raw, policy, kind));
					expect(paths.resolve(raw, policy, kind)).toEqual(direct(raw, policy, kind));
				},
			),
		);
	});

	it("keeps the answers for notes and for folders apart", () => {
		const policy: PathPolicy = { configDir: ".obsidian", noteExtensions: ["md"] };
		expect(paths.resolve("Projects", policy, "folder")).toEqual({ ok: true, path: "Projects" });
		expect(paths.resolve("Projects", policy, "note").ok).toBe(false);
	});

	it("follows a change of settings, even one made in place", () => {
		const extensions = ["md"];
		const policy: PathPolicy = { configDir: ".obsidian", noteExtensions: extensions };
		expect(paths.resolve("a.txt", policy, "note").ok).toBe(false);
		extensions.push("txt");
		expect(paths.resolve("a.txt", policy, "note")).toEqual({ ok: true, path: "a.txt" });
		expect(paths.resolve("Private/a.md", { ...policy, deniedFolders: ["Private"] }, "note").ok).toBe(false);
		expect(paths.resolve("cfg/a.md", { ...policy, configDir: "cfg" }, "note").ok).toBe(false);
		expect(paths.resolve("cfg/a.md", policy, "note").ok).toBe(true);
	});

	it("stays bounded: many different paths are all answered right", () => {
		const policy: PathPolicy = { configDir: ".obsidian", noteExtensions: ["md"] };
		for (let n = 0; n < 3000; n++)
			expect(paths.resolve(`n${n}.md`, policy, "note")).toEqual({ ok: true, path: `n${n}.md` });
		expect(paths.resolve("../x.md", policy, "note").ok).toBe(false);
	});
});
