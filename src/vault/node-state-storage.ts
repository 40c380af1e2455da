/** StateStorage in a folder on disk (the headless host's `.revision-guard/`), with atomic replaces. */
import { promises as fs } from "fs";
import { dirname, join } from "path";
import { writeFileAtomic } from "./atomic-file";
import type { StateStorage } from "./gateway";

export class NodeStateStorage implements StateStorage {
	constructor(private readonly folder: string) {}

	async read(name: string): Promise<string | null> {
		try {
			return await fs.readFile(join(this.folder, name), "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw error;
		}
	}

	async write(name: string, content: string): Promise<void> {
		const target = join(this.folder, name);
		await fs.mkdir(dirname(target), { recursive: true });
		await writeFileAtomic(target, content);
	}

	async remove(name: string): Promise<void> {
		await fs.rm(join(this.folder, name), { force: true });
	}
}
