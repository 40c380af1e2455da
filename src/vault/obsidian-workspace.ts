/**
 * The workspace port inside Obsidian: its command registry, its panes and editors, its moment, and the periodic-notes
 * plugins' settings. Obsidian's typings do not include the command registry, so it is reached through a narrow shape
 * and checked before use.
 */
import { MarkdownView, moment, normalizePath, type App } from "obsidian";
import type { FormatResult } from "../core/periodic/date-format";
import type { Period, PeriodSettings } from "../core/periodic/periods";
import { obsidianPeriodSettings } from "./obsidian-periodic-settings";
import type { HostCommand, HostWorkspace } from "./workspace";

/**
 * Obsidian's moment. Its typings declare it as moment's namespace, which TypeScript (with esModuleInterop) does not
 * let one call; at run time it is the moment function.
 */
const momentOf = moment as unknown as (date: Date) => { format(format: string): string };

/** `app.commands`: every registered command by id, and the palette's way to run one. */
interface CommandRegistry {
	commands?: Record<string, { id?: unknown; name?: unknown }>;
	executeCommandById?(id: string): boolean;
}

export class ObsidianWorkspace implements HostWorkspace {
	constructor(private readonly app: App) {}

	periodSettings(period: Period): PeriodSettings | null {
		return obsidianPeriodSettings(this.app, period);
	}

	formatDate(format: string, date: Date): FormatResult {
		return { ok: true, text: momentOf(date).format(format) };
	}

	commands(): HostCommand[] {
		const registered = this.registry()?.commands ?? {};
		return Object.entries(registered).map(([id, command]) => ({
			id,
			name: typeof command.name === "string" ? command.name : id,
		}));
	}

	runCommand(id: string): boolean {
		const registry = this.registry();
		if (!registry?.commands?.[id] || typeof registry.executeCommandById !== "function") return false;
		try {
			return registry.executeCommandById(id) !== false;
		} catch (error) {
			// It ran, and failed part way: what it changed before failing is still credited to the key that ran it.
			console.error(`Revision Guard: the command ${id} failed`, error);
			return true;
		}
	}

	async openNote(path: string, newLeaf: boolean): Promise<boolean> {
		// By the exact file, never by link text (which could resolve to another note, or create one).
		const file = this.app.vault.getFileByPath(normalizePath(path));
		if (!file) return false;
		await this.app.workspace.getLeaf(newLeaf ? "tab" : false).openFile(file);
		return true;
	}

	openNotes(): string[] {
		const paths = new Set<string>();
		this.app.workspace.iterateAllLeaves((leaf) => {
			if (leaf.view instanceof MarkdownView && leaf.view.file) paths.add(leaf.view.file.path);
		});
		return [...paths];
	}

	async saveEditors(): Promise<string[]> {
		const views: MarkdownView[] = [];
		this.app.workspace.iterateAllLeaves((leaf) => {
			if (leaf.view instanceof MarkdownView && leaf.view.file) views.push(leaf.view);
		});
		const saved: string[] = [];
		for (const view of views) {
			const file = view.file;
			if (!file || saved.includes(file.path)) continue;
			if (view.editor.getValue() === (await this.app.vault.read(file))) continue;
			await view.save();
			saved.push(file.path);
		}
		return saved;
	}

	private registry(): CommandRegistry | undefined {
		const registry: unknown = (this.app as unknown as { commands?: unknown }).commands;
		return typeof registry === "object" && registry !== null ? registry : undefined;
	}
}
