/** Whether a folder's disk ignores case (vault/case-probe.ts), checked against the disk itself. */
import { mkdtemp, rm, writeFile } from "fs/promises";
import { existsSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { caseInsensitiveFolder } from "../../src/vault/case-probe";

describe("caseInsensitiveFolder", () => {
	it("answers what the disk does: a name found under its other case is the same file", async () => {
		const dir = await mkdtemp(join(tmpdir(), "rg-case-"));
		try {
			await writeFile(join(dir, "probe-note.md"), "x");
			expect(await caseInsensitiveFolder(dir)).toBe(existsSync(join(dir, "PROBE-NOTE.MD")));
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it("never takes two spellings that are two files for one", async () => {
		const dir = await mkdtemp(join(tmpdir(), "rg-case-"));
		try {
			await writeFile(join(dir, "a.md"), "lower");
			// On a case-sensitive disk this is a second file; on an insensitive one it rewrites the first.
			await writeFile(join(dir, "A.md"), "upper");
			const twoFiles =
				existsSync(join(dir, "a.md")) &&
				existsSync(join(dir, "A.md")) &&
				(await import("fs/promises")).readFile(join(dir, "a.md"), "utf8").then((text) => text === "lower");
			expect(await caseInsensitiveFolder(dir)).toBe(!(await twoFiles));
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});

describe("ObsidianGateway.caseInsensitive", () => {
	it("asks Obsidian's adapter for the config folder spelled otherwise, so it follows the disk Obsidian sees", async () => {
		const { App } = await import("../obsidian-stub");
		const { ObsidianGateway } = await import("../../src/vault/obsidian-gateway");
		const { mkdir } = await import("fs/promises");
		for (const caseInsensitive of [true, false]) {
			const dir = await mkdtemp(join(tmpdir(), "rg-case-obsidian-"));
			try {
				await mkdir(join(dir, ".obsidian"));
				const app = new App(dir, { caseInsensitive });
				// The stub implements the slice of App the gateway uses.
				const gateway = new ObsidianGateway(
					app as unknown as ConstructorParameters<typeof ObsidianGateway>[0],
					() => undefined,
					async () => undefined,
				);
				expect(await gateway.caseInsensitive(), `caseInsensitive: ${caseInsensitive}`).toBe(caseInsensitive);
			} finally {
				await rm(dir, { recursive: true, force: true });
			}
		}
	});
});
