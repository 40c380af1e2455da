/**
 * An in-memory VaultGateway and StateStorage: a focused fake for service tests that need no disk. It keeps the
 * gateway contract (test/vault/gateway-contract.ts) like the real gateways do: a note's folders exist while it does
 * (and stay when it is trashed), hidden entries are never listed, and a folder or a file in the way is refused.
 */
import type {
	FolderEntry,
	MoveOutcome,
	MovePlan,
	MutationOutcome,
	MutationPlan,
	NoteSnapshot,
	NoteStat,
	StateStorage,
	VaultChange,
	VaultGateway,
} from "../../src/vault/gateway";
import { VaultPathError } from "../../src/vault/errors";

export class MemoryGateway implements VaultGateway {
	readonly notes = new Map<string, string>();
	/** Folders that stand without a note of their own in them (a note's folders exist anyway, as long as it does). */
	readonly folders = new Set<string>();
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
		if (this.isFolder(path)) throw new VaultPathError(path, "folder-in-the-way");
		const plan = decide(this.notes.get(path) ?? null);
		if (plan.kind === "write") {
			this.refuseFileInTheWay(path);
			const existed = this.notes.has(path);
			this.notes.set(path, plan.content);
			this.emit({ type: existed ? "modify" : "create", path });
			return { result: plan.result, stat: stat(plan.content) };
		}
		if (plan.kind === "trash" && this.notes.has(path)) {
			this.notes.delete(path);
			// The folder it was in stays, as a folder on disk does.
			const slash = path.lastIndexOf("/");
			if (slash !== -1) this.folders.add(path.slice(0, slash));
			this.emit({ type: "delete", path });
		}
		return { result: plan.result, stat: null };
	}

	/** A move as a plain folder makes one: no links are rewritten, and nothing at the destination is ever replaced. */
	async rename<T>(from: string, to: string, decide: (current: string | null) => MovePlan<T>): Promise<MoveOutcome<T>> {
		const content = this.notes.get(from) ?? null;
		const plan = decide(content);
		if (plan.kind === "keep" || content === null) return { kind: "kept", result: plan.result };
		if (this.notes.has(to) || this.isFolder(to)) return { kind: "destination-taken", result: plan.result };
		this.refuseFileInTheWay(to);
		this.notes.delete(from);
		this.notes.set(to, content);
		const slash = from.lastIndexOf("/");
		if (slash !== -1) this.folders.add(from.slice(0, slash));
		this.emit({ type: "rename", path: to, oldPath: from });
		return { kind: "moved", result: plan.result, rewritten: [] };
	}

	async createExclusive(path: string, content: string): Promise<boolean> {
		if (this.failCreates) throw this.failCreates;
		if (this.notes.has(path) || this.isFolder(path)) return false;
		this.refuseFileInTheWay(path);
		this.notes.set(path, content);
		this.emit({ type: "create", path });
		return true;
	}

	async list(folder: string): Promise<FolderEntry[] | null> {
		if (folder !== "" && !this.isFolder(folder)) return null;
		const prefix = folder === "" ? "" : folder + "/";
		const entries = new Map<string, FolderEntry>();
		for (const path of [...this.notes.keys(), ...[...this.folders].map((f) => f + "/")]) {
			if (!path.startsWith(prefix) || path === prefix) continue;
			const rest = path.slice(prefix.length);
			const name = rest.split("/")[0]!;
			if (name.startsWith(".")) continue;
			if (rest.includes("/")) entries.set(prefix + name + "/", { path: prefix + name + "/", type: "folder" });
			else entries.set(path, { path, type: "file", stat: stat(this.notes.get(path)!) });
		}
		return [...entries.values()].sort((a, b) => a.path.localeCompare(b.path));
	}

	async listNotes(extensions: readonly string[]): Promise<string[]> {
		return [...this.notes.keys()].filter(
			(path) =>
				!path.split("/").some((part) => part.startsWith(".")) &&
				extensions.some((ext) => path.toLowerCase().endsWith("." + ext.toLowerCase())),
		);
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

	private isFolder(path: string): boolean {
		return (
			this.folders.has(path) || [...this.notes.keys(), ...this.folders].some((other) => other.startsWith(path + "/"))
		);
	}

	/** Creating a note's folders is part of a write; a note standing where one of them must go is in the way. */
	private refuseFileInTheWay(path: string): void {
		for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
			if (this.notes.has(path.slice(0, slash))) throw new VaultPathError(path, "file-in-the-way");
		}
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
	async append(name: string, text: string): Promise<void> {
		this.files.set(name, (this.files.get(name) ?? "") + text);
	}
	async remove(name: string): Promise<void> {
		this.files.delete(name);
	}
}

function stat(content: string): NoteStat {
	return { ctime: 0, mtime: 0, size: Buffer.byteLength(content) };
}
