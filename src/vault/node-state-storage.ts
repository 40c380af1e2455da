/** StateStorage in a folder on disk (the headless host's `.revision-guard/`), with atomic replaces. */
import { promises as fs } from "fs";
import { dirname, join } from "path";
import { writeFileAtomic } from "./atomic-file";
import type { StateStorage } from "./gateway";

export class NodeStateStorage implements StateStorage {
	/** Folders already created, so hot paths skip a mkdir syscall. */
	private readonly madeFolders = new Set<string>();

	constructor(private readonly folder: string) {}

	async read(name: string): Promise<string | null> {
		try {
			return await fs.readFile(join(this.folder, name), "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw error;
		}
	}

	async write(name: string, content: string, options: { durable?: boolean } = {}): Promise<void> {
		const target = join(this.folder, name);
		const folder = dirname(target);
		if (!this.madeFolders.has(folder)) {
			await fs.mkdir(folder, { recursive: true });
			this.madeFolders.add(folder);
		}
		await writeFileAtomic(target, content, options.durable ?? true);
	}

	async remove(name: string): Promise<void> {
		await fs.rm(join(this.folder, name), { force: true });
	}
}
