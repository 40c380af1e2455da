/** An in-memory VaultGateway and StateStorage: a focused fake for service tests that need no disk. */
import type { FolderEntry, MutationOutcome, MutationPlan, NoteSnapshot, NoteStat, StateStorage, VaultChange, VaultGateway } from "../../src/vault/gateway";

export class MemoryGateway implements VaultGateway {
	readonly notes = new Map<string, string>();
	private readonly listeners = new Set<(change: VaultChange) => void>();
	/** The note "open in the active editor", for /active/ tests; null like a headless host. */
	active: string | null = null;
	/** Set to make the next createExclusive calls fail (a full disk, a read-only folder). */
	failCreates: Error | null = null;

	constructor(initial: Record<string, string> = {}) {
		for (const [path, content] of Object.entries(initial)) this.notes.set(path, content);
	}

	/** An edit by someone else, announced like a real vault would. */
	externalEdit(path: string, content: string): void {
		const existed = this.notes.has(path);
		this.notes.set(path, content);
		this.emit({ type: existed ? "modify" : "create", path });
	}

	async read(path: string): Promise<NoteSnapshot | null> {
		const content = this.notes.get(path);
		return content === undefined ? null : { path, content, stat: stat(content) };
	}

	async mutate<T>(path: string, decide: (current: string | null) => MutationPlan<T>): Promise<MutationOutcome<T>> {
		const plan = decide(this.notes.get(path) ?? null);
		if (plan.kind === "write") {
			const existed = this.notes.has(path);
			this.notes.set(path, plan.content);
			this.emit({ type: existed ? "modify" : "create", path });
			return { result: plan.result, stat: stat(plan.content) };
		}
		if (plan.kind === "trash") {
			this.notes.delete(path);
			this.emit({ type: "delete", path });
		}
		return { result: plan.result, stat: null };
	}

	async createExclusive(path: string, content: string): Promise<boolean> {
		if (this.failCreates) throw this.failCreates;
		if (this.notes.has(path)) return false;
		this.notes.set(path, content);
		this.emit({ type: "create", path });
		return true;
	}

	async list(folder: string): Promise<FolderEntry[] | null> {
		const prefix = folder === "" ? "" : folder + "/";
		return [...this.notes.keys()].filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes("/")).map((path) => ({ path, type: "file" as const }));
	}

	async listNotes(extensions: readonly string[]): Promise<string[]> {
		return [...this.notes.keys()].filter((path) => extensions.some((ext) => path.endsWith("." + ext)));
	}

	async stat(path: string): Promise<NoteStat | null> {
		const content = this.notes.get(path);
		return content === undefined ? null : stat(content);
	}

	async activeNote(): Promise<string | null> {
		return this.active;
	}

	onChange(listener: (change: VaultChange) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	emit(change: VaultChange): void {
		for (const listener of this.listeners) listener(change);
	}
}

export class MemoryStorage implements StateStorage {
	readonly files = new Map<string, string>();
	async read(name: string): Promise<string | null> {
		return this.files.get(name) ?? null;
	}
	async write(name: string, content: string): Promise<void> {
		this.files.set(name, content);
	}
	async remove(name: string): Promise<void> {
		this.files.delete(name);
	}
}

function stat(content: string): NoteStat {
	return { ctime: 0, mtime: 0, size: Buffer.byteLength(content) };
}
