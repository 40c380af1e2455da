// @vitest-environment happy-dom
/**
 * The Obsidian note index on the simulation: tags from the metadata cache (so they lag Obsidian's indexing, and see
 * saved notes only), links resolved by Obsidian, backlinks from its resolved links, and rendering through Obsidian's
 * renderer written out safely.
 */
import { mkdir, mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { dirname, join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ObsidianNoteIndex } from "../../src/vault/obsidian-note-index";
import { App } from "../obsidian-stub";

let dir: string;
let app: App;
let index: ObsidianNoteIndex;
const all = () => true;

async function vaultWith(files: Record<string, string>): Promise<void> {
	for (const [path, content] of Object.entries(files)) {
		await mkdir(dirname(join(dir, path)), { recursive: true });
		await writeFile(join(dir, path), content);
	}
	app = new App(dir);
	app.workspace.triggerLayoutReady();
	await app.metadataCache.settled();
	index = new ObsidianNoteIndex(app as unknown as ObsidianApp, async () => undefined);
}

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "rg-oidx-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("ObsidianNoteIndex", () => {
	it("takes tag uses from the metadata cache (getAllTags), without '#', for the notes `include` admits", async () => {
		await vaultWith({
			"a.md": "---\ntags: [fm]\n---\n#x and #x\n",
			"b/c.md": "#y/z\n",
			"skip.md": "#no\n",
			"pic.png": "#no",
		});
		const uses = await index.tagUses((path) => path !== "skip.md");
		expect(uses.sort()).toEqual([["fm", "x", "x"], ["y/z"]].sort());
	});

	it("sees a note's tags once Obsidian has indexed it, and never an editor's unsaved typing", async () => {
		await vaultWith({ "a.md": "#old\n" });
		await app.vault.modify(app.vault.getFileByPath("a.md")!, "#new\n");
		await app.metadataCache.settled();
		expect(await index.tagUses(all)).toEqual([["new"]]);
		app.openEditor("a.md").type("#typed ");
		expect(await index.tagUses(all)).toEqual([["new"]]);
	});

	it("resolves links with Obsidian's getFirstLinkpathDest and takes backlinks from its resolved links", async () => {
		await vaultWith({
			"Plan.md": "x\n",
			"Projects/Goals.md": "[[Plan]]\n",
			"Other.md": "[[Plan]] [[Plan]]\n",
			"Skipped.md": "[[Plan]]\n",
			"pic.png": "png",
		});
		const links = await index.links(
			"Plan.md",
			["Goals", "pic.png", "Missing", "Goals"],
			(path) => path !== "Skipped.md",
		);
		expect(links).toEqual({
			links: ["Projects/Goals.md", "pic.png"],
			unresolvedLinks: ["Missing"],
			backlinks: ["Other.md", "Projects/Goals.md"],
		});
	});

	it("renders with Obsidian's renderer and writes the element out safely, whatever the renderer left in it", async () => {
		await vaultWith({ "a.md": "x\n" });
		const html = await index.renderHtml(
			"a.md",
			'# Title\nSee [[Plan|the plan]] and [bad](javascript:evil).\n<img src="x" onerror="alert(1)"><script>alert(2)</script>\n',
			1e6,
		);
		expect(html).toBe(
			'<h1>Title</h1><p>See <a class="internal-link" data-href="Plan" href="Plan">the plan</a> and <a>bad</a>.</p><img src="x">',
		);
	});

	it("gives null when the HTML would pass maxChars", async () => {
		await vaultWith({ "a.md": "x\n" });
		expect(await index.renderHtml("a.md", "# " + "x".repeat(200), 100)).toBeNull();
	});
});
