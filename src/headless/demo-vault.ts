/** The demo vault `npm start` serves when no folder is given: a few notes to read, edit and conflict on. */
import { promises as fs } from "fs";
import { dirname, join } from "path";
import { createFileExclusive } from "../vault/atomic-file";
import { makeFolderDurably } from "../vault/new-folders";

const DEMO_NOTES: Record<string, string> = {
	"Welcome.md": `---
tags: [demo]
---
# Welcome

This vault is served by Revision Guard's headless host.

- Read a note and you get its revision in the ETag header.
- Send that ETag back as If-Match to update it.
- Edit this file in any editor while an agent holds an old ETag: its write is refused and kept as a .bak note.
`,
	"Projects/Plan.md": `# Plan

## Goals
- [ ] Ship the guarded API
- [ ] Write the merge modal

## Notes
Agents append here.
`,
	"Daily/2026-11-21.md": `# 2026-11-21

- Tried Revision Guard on the demo vault.
`,
};

/**
 * Creates the demo vault if the folder is missing or empty; leaves an existing vault alone. Durably, as any note: each
 * file and every folder entry on its way are on disk before the host serves them, and a name taken meanwhile is kept.
 */
export async function ensureDemoVault(folder: string): Promise<boolean> {
	const existing = await fs.readdir(folder).catch(() => null);
	if (existing && existing.some((name) => !name.startsWith("."))) return false;
	for (const [path, content] of Object.entries(DEMO_NOTES)) {
		const target = join(folder, path);
		await makeFolderDurably(dirname(target));
		await createFileExclusive(target, content);
	}
	return true;
}
