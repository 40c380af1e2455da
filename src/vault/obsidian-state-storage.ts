/** StateStorage in the plugin's own folder (`<configDir>/plugins/revision-guard/`), through the vault adapter. */
import { normalizePath, type DataAdapter } from "obsidian";
import type { StateStorage } from "./gateway";

export class ObsidianStateStorage implements StateStorage {
	constructor(
		private readonly adapter: DataAdapter,
		/** The plugin folder, e.g. `manifest.dir`. */
		private readonly folder: string,
	) {}

	async read(name: string): Promise<string | null> {
		const path = this.pathOf(name);
		if (await this.adapter.exists(path)) return this.adapter.read(path);
		// A crash between removing the old file and renaming the new one leaves only the complete temp file.
		const temp = `${path}.tmp`;
		return (await this.adapter.exists(temp)) ? this.adapter.read(temp) : null;
	}

	async write(name: string, content: string): Promise<void> {
		const path = this.pathOf(name);
		const folder = path.slice(0, path.lastIndexOf("/"));
		if (!(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
		// Write beside, then swap in, so a crash mid-write cannot leave a torn state file.
		const temp = `${path}.tmp`;
		await this.adapter.write(temp, content);
		if (await this.adapter.exists(path)) await this.adapter.remove(path);
		await this.adapter.rename(temp, path);
	}

	async remove(name: string): Promise<void> {
		const path = this.pathOf(name);
		if (await this.adapter.exists(path)) await this.adapter.remove(path);
	}

	private pathOf(name: string): string {
		return normalizePath(`${this.folder}/${name}`);
	}
}
