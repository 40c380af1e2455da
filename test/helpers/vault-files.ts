/** Small filesystem helpers for tests that look at the vault folder directly. */
import { createHash } from "crypto";
import { mkdir, readdir, readFile, writeFile } from "fs/promises";
import { dirname, join } from "path";

/** The revision token the API should give these exact bytes: SHA-256, base64url, computed independently of src. */
export function sha256Token(content: string | Buffer): string {
	return createHash("sha256").update(content).digest("base64url");
}

/** Writes a file into the vault as another program would (parents created). */
export async function writeVaultFile(root: string, path: string, content: string | Buffer): Promise<void> {
	const absolute = join(root, path);
	await mkdir(dirname(absolute), { recursive: true });
	await writeFile(absolute, content);
}

export async function readVaultFile(root: string, path: string): Promise<Buffer> {
	return readFile(join(root, path));
}

/** Every file path under `root` (relative, with /), hidden ones included, sorted. */
export async function allFiles(root: string, prefix = ""): Promise<string[]> {
	const entries = await readdir(join(root, prefix), { withFileTypes: true }).catch(() => []);
	const found: string[] = [];
	for (const entry of entries) {
		const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
		if (entry.isDirectory()) found.push(...(await allFiles(root, path)));
		else found.push(path);
	}
	return found.sort();
}

/** Vault files that are notes a person would see: no hidden folders (state, trash). */
export async function visibleFiles(root: string): Promise<string[]> {
	return (await allFiles(root)).filter((path) => !path.split("/").some((part) => part.startsWith(".")));
}
