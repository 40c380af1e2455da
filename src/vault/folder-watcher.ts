/**
 * Changes other programs make to a plain folder, as vault changes. Hidden files and folders (our state, temp files,
 * the trash) are not notes and are not reported. Starts on the first listener, stops with the last.
 */
import { watch, type FSWatcher } from "chokidar";
import { relative, sep } from "path";
import type { VaultChange } from "./gateway";

export class FolderWatcher {
	private readonly listeners = new Set<(change: VaultChange) => void>();
	private watcher: FSWatcher | null = null;
	private ready: Promise<void> = Promise.resolve();

	constructor(private readonly root: string) {}

	subscribe(listener: (change: VaultChange) => void): () => void {
		this.listeners.add(listener);
		this.start();
		return () => {
			this.listeners.delete(listener);
			if (this.listeners.size === 0) void this.close();
		};
	}

	/** Resolves once the watcher is ready (tests wait on it so early edits are not missed). */
	async watching(): Promise<void> {
		this.start();
		await this.ready;
	}

	async close(): Promise<void> {
		const watcher = this.watcher;
		this.watcher = null;
		await watcher?.close();
	}

	private start(): void {
		if (this.watcher) return;
		const watcher = watch(this.root, {
			ignoreInitial: true,
			followSymlinks: false,
			ignored: (path: string) => relative(this.root, path).split(sep).some((part) => part.startsWith(".")),
		});
		const emit = (type: "create" | "modify" | "delete") => (absolute: string) => {
			const path = relative(this.root, absolute).split(sep).join("/");
			for (const listener of this.listeners) listener({ type, path });
		};
		watcher.on("add", emit("create")).on("change", emit("modify")).on("unlink", emit("delete"));
		watcher.on("error", () => undefined);
		this.ready = new Promise((resolve) => watcher.once("ready", () => resolve()));
		this.watcher = watcher;
	}
}
