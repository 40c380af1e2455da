/** Generates benchmark vaults: N notes of about S bytes, spread over a few folders, deterministic content. */
import { access, mkdir, rm, utimes, writeFile } from "fs/promises";
import { tmpdir } from "os";
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

/** When the start-up vault's notes were last modified: a fixed day, so every generation is the same. */
const FIXTURE_TIME = new Date("2025-01-01T00:00:00Z");

/** The start-up benchmarks' vault: 50,000 notes of about 4 KB in 200 folders (about 200 MB), as issue 28 measured. */
export const STARTUP_VAULT = { notes: 50_000, folders: 200, noteBytes: 4 * 1024 };

/**
 * The start-up vault, generated once into a cache folder and reused by later runs (its notes are never written to:
 * a run's state goes in its own folder). A marker written last says the generation finished; without it the folder
 * is generated again. Deterministic: the same notes every time, so runs on one machine compare.
 */
export async function cachedStartupVault(cacheRoot = join(tmpdir(), "revision-guard-bench")): Promise<string> {
	const { notes, folders, noteBytes } = STARTUP_VAULT;
	const dir = join(cacheRoot, `vault-${notes}x${noteBytes}-${folders}-v2`);
	const marker = join(cacheRoot, `vault-${notes}x${noteBytes}-${folders}-v2.done`);
	if (
		await access(marker).then(
			() => true,
			() => false,
		)
	)
		return dir;
	await rm(dir, { recursive: true, force: true });
	for (let folder = 0; folder < folders; folder++) await mkdir(join(dir, `folder-${folder}`), { recursive: true });
	let next = 0;
	// A few writes in flight: generation is not what is measured, only done once.
	const writer = async () => {
		while (next < notes) {
			const i = next++;
			const note = join(dir, `folder-${i % folders}`, `note-${i}.md`);
			await writeFile(note, noteText(i, noteBytes));
			// Last edited long ago, as nearly all of a real vault's notes were (the recently edited ones are kept as
			// merge bases at start-up; outside-saves.ts).
			await utimes(note, FIXTURE_TIME, FIXTURE_TIME);
		}
	};
	await Promise.all(Array.from({ length: 8 }, writer));
	await writeFile(marker, `${notes} notes\n`);
	return dir;
}
