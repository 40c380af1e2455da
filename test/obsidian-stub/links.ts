/**
 * The link updates `fileManager.renameFile` makes in the notes that link to a moved note (which notes those are, the
 * metadata cache's `resolvedLinks` says: metadata-cache.ts). Like Obsidian, the updates follow the "Automatically
 * update internal links" setting (`alwaysUpdateLinks`, on unless set to false here) and are written through
 * `vault.process`, after the rename. Only the link forms tests use: wikilinks
 * and embeds (`[[Name]]`, `[[Folder/Name|alias]]`, `![[Name#Heading]]`) and markdown links from the vault root
 * (`[text](Folder/Name.md)`, spaces as %20).
 */
import type { TFile } from "./files";
import type { Vault } from "./vault";

const WIKILINK = /(!?\[\[)([^\]|#^\n]+)([^\]\n]*\]\])/g;
const MARKDOWN_LINK = /(\]\()([^)\s]+\.md)(\))/g;

/** What `fileManager.renameFile` does after the rename: rewrites the links that named the note's old path. */
export async function updateLinks(
	vault: Vault,
	file: TFile,
	oldPath: string,
	linking: readonly string[],
): Promise<void> {
	if (vault.getConfig("alwaysUpdateLinks") === false) return;
	const oldBase = oldPath.slice(oldPath.lastIndexOf("/") + 1).replace(/\.md$/, "");
	const named = (text: string) => [oldPath, stripMd(oldPath), oldBase].includes(safeDecode(text));
	const unique = vault.getMarkdownFiles().filter((other) => other.basename === file.basename).length === 1;
	for (const path of linking) {
		const note = vault.getFileByPath(path === oldPath ? file.path : path);
		if (!note) continue;
		await vault.process(note, (text) =>
			text
				.replace(WIKILINK, (whole, open: string, target: string, rest: string) =>
					named(target) ? open + (unique && !target.includes("/") ? file.basename : stripMd(file.path)) + rest : whole,
				)
				.replace(MARKDOWN_LINK, (whole, open: string, target: string, close: string) =>
					named(target) ? open + encodeURI(file.path) + close : whole,
				),
		);
	}
}

function stripMd(path: string): string {
	return path.replace(/\.md$/, "");
}

function safeDecode(text: string): string {
	try {
		return decodeURI(text);
	} catch {
		return text;
	}
}
