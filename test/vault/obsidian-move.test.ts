// @vitest-environment node
/**
 * Moving a note inside Obsidian (obsidian-move.ts through ObsidianGateway.rename): through the file manager, so links
 * are updated as the person's settings say, and what that rewrote is reported; what every gateway promises is in
 * gateway-contract.ts.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { dirname, join } from "path";
import type { App as ObsidianApp } from "obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MovePlan } from "../../src/vault/gateway";
import { ObsidianGateway } from "../../src/vault/obsidian-gateway";
import { App, settle, type AppOptions } from "../obsidian-stub";

let dir: string;
let app: App;
let gateway: ObsidianGateway;

async function open(files: Record<string, string>, options: AppOptions = {}): Promise<void> {
	dir = await mkdtemp(join(tmpdir(), "rg-omove-"));
	for (const [path, content] of Object.entries(files)) {
		await mkdir(dirname(join(dir, path)), { recursive: true });
		await writeFile(join(dir, path), content);
	}
	app = new App(dir, options);
	app.workspace.triggerLayoutReady();
	gateway = new ObsidianGateway(
		app as unknown as ObsidianApp,
		() => undefined,
		async () => undefined,
	);
}
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

const move = (): MovePlan<null> => ({ kind: "move", result: null });
const text = (path: string) => readFile(join(dir, path), "utf8").catch(() => null);

describe("moving a note in Obsidian", () => {
	it("goes through the file manager and reports the notes whose links it rewrote, the moved note's own included", async () => {
		await open({
			"Plan.md": "# Plan\nSee [[Plan]].\n",
			"Index.md": "- [[Plan]]\n- [[Other]]\n",
			"Other.md": "no links\n",
		});
		const renameFile = vi.spyOn(app.fileManager, "renameFile");
		const outcome = await gateway.rename("Plan.md", "Projects/Roadmap.md", move);
		expect(renameFile).toHaveBeenCalledOnce();
		expect(outcome.kind).toBe("moved");
		expect(outcome.kind === "moved" && [...outcome.rewritten].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
			{ path: "Index.md", before: "- [[Plan]]\n- [[Other]]\n", after: "- [[Roadmap]]\n- [[Other]]\n" },
			{ path: "Projects/Roadmap.md", before: "# Plan\nSee [[Plan]].\n", after: "# Plan\nSee [[Roadmap]].\n" },
		]);
		expect(await text("Other.md")).toBe("no links\n");
	});

	it("rewrites and reports nothing when the person turned link updates off", async () => {
		await open({ "Plan.md": "plan\n", "Index.md": "[[Plan]]\n" });
		app.vault.setConfig("alwaysUpdateLinks", false);
		const outcome = await gateway.rename("Plan.md", "Roadmap.md", move);
		expect(outcome).toMatchObject({ kind: "moved", rewritten: [] });
		expect(await text("Index.md")).toBe("[[Plan]]\n");
	});

	it("moves a note open in an editor with the person's unsaved typing, which decide is shown and which is kept", async () => {
		await open({ "Plan.md": "plan\n" });
		const view = app.openEditor("Plan.md");
		view.type("typed ");
		const seen: (string | null)[] = [];
		const outcome = await gateway.rename("Plan.md", "Moved.md", (current) => {
			seen.push(current);
			return move();
		});
		expect(outcome.kind).toBe("moved");
		expect(seen).toEqual(["typed plan\n"]);
		expect(view.file?.path).toBe("Moved.md");
		expect(view.editor.getValue()).toBe("typed plan\n");
		expect((await gateway.read("Moved.md"))?.content).toBe("typed plan\n");
	});

	it("never moves over a file another program just made at the destination, before Obsidian indexed it", async () => {
		await open({ "Plan.md": "plan\n" });
		app.outside.write("Fresh.md", "theirs\n");
		expect(app.vault.getFileByPath("Fresh.md")).toBeNull();
		expect((await gateway.rename("Plan.md", "Fresh.md", move)).kind).toBe("destination-taken");
		expect(await text("Fresh.md")).toBe("theirs\n");
		expect(await text("Plan.md")).toBe("plan\n");
	});

	it("takes a change of case of the note's own name as no clash on a case-insensitive disk, but another note's name as one", async () => {
		await open({ "plan.md": "plan\n", "Other.md": "other\n" }, { caseInsensitive: true });
		expect((await gateway.rename("plan.md", "OTHER.md", move)).kind).toBe("destination-taken");
		expect((await gateway.rename("plan.md", "Plan.md", move)).kind).toBe("moved");
		await settle();
		expect(app.vault.getFileByPath("Plan.md")).not.toBeNull();
	});
});
