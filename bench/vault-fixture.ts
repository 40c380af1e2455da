/** Generates benchmark vaults: N notes of about S bytes, spread over a few folders, deterministic content. */
import { mkdir, writeFile } from "fs/promises";
import { join } from "path";

export async function makeVault(dir: string, notes: number, noteBytes: number): Promise<string[]> {
	const paths: string[] = [];
	for (let i = 0; i < notes; i++) {
		const folder = `folder-${i % 20}`;
		const path = `${folder}/note-${i}.md`;
		paths.push(path);
		await mkdir(join(dir, folder), { recursive: true });
		await writeFile(join(dir, path), noteText(i, noteBytes));
	}
	return paths;
}

export function noteText(seed: number, bytes: number, variant = 0): string {
	const lines = [`---\ntags: [bench, n${seed % 7}]\n---\n`, `# Note ${seed} (${variant})\n\n`];
	let size = lines.join("").length;
	for (let line = 0; size < bytes; line++) {
		const text = `- item ${line} of note ${seed}: the quick brown fox jumps over the lazy dog ${(seed * 31 + line) % 97}\n`;
		lines.push(text);
		size += text.length;
	}
	return lines.join("");
}

/** ~5 MB of distinct lines tagged `tag`: rewriting a note with another tag changes every line, the worst diff. */
export function hugeNoteText(tag: string): string {
	const out: string[] = [];
	for (let i = 0, size = 0; size < 5 * 1024 * 1024; i++) {
		const line = `${tag} line ${i}: the quick brown fox jumps over the lazy dog\n`;
		out.push(line);
		size += line.length;
	}
	return out.join("");
}
