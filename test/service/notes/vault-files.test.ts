import { describe, expect, it } from "vitest";
import { VaultFiles, WALK_MS } from "../../../src/service/notes/vault-files";
import type { FolderEntry } from "../../../src/vault/gateway";
import { MemoryGateway } from "../../helpers/memory-gateway";

/** A memory gateway that counts folder listings (a walk lists every folder). */
class ListingGateway extends MemoryGateway {
	lists = 0;
	override async list(folder: string): Promise<FolderEntry[] | null> {
		this.lists++;
		return super.list(folder);
	}
}

describe("VaultFiles", () => {
	it("walks every folder once, then keeps the files current from what it hears, without walking again", async () => {
		const gateway = new ListingGateway({ "a.md": "a", "f/b.md": "b", "f/g/pic.png": "png" });
		const files = new VaultFiles(gateway, () => 0);
		const first = await files.now();
		expect([...first.files.keys()].sort()).toEqual(["a.md", "f/b.md", "f/g/pic.png"]);
		expect(first.walked).toBe(true);
		const lists = gateway.lists;
		gateway.externalEdit("f/new.md", "n");
		files.touch("a.md");
		const second = await files.now();
		expect(second.walked).toBe(false);
		expect([...second.touched].sort()).toEqual(["a.md", "f/new.md"]);
		expect([...second.files.keys()].sort()).toEqual(["a.md", "f/b.md", "f/g/pic.png", "f/new.md"]);
		expect(gateway.lists).toBe(lists);
	});

	it("drops a file that went, and every file of a folder that went", async () => {
		const gateway = new MemoryGateway({ "a.md": "a", "f/b.md": "b", "f/g/c.md": "c", "fg.md": "x" });
		const files = new VaultFiles(gateway, () => 0);
		await files.now();
		gateway.notes.delete("a.md");
		gateway.notes.delete("f/b.md");
		gateway.notes.delete("f/g/c.md");
		gateway.emit({ type: "delete", path: "a.md" });
		gateway.emit({ type: "delete", path: "f" });
		expect([...(await files.now()).files.keys()]).toEqual(["fg.md"]);
	});

	it("walks again when a name without an extension (perhaps a folder) appears, and once WALK_MS has passed", async () => {
		const gateway = new MemoryGateway({ "a.md": "a" });
		let clock = 0;
		const files = new VaultFiles(gateway, () => clock);
		await files.now();
		gateway.notes.set("New folder/inside.md", "i");
		gateway.emit({ type: "create", path: "New folder" });
		const after = await files.now();
		expect(after.walked).toBe(true);
		expect([...after.files.keys()].sort()).toEqual(["New folder/inside.md", "a.md"]);
		gateway.notes.set("unheard.md", "u");
		expect((await files.now()).files.has("unheard.md")).toBe(false);
		clock = WALK_MS + 1;
		expect((await files.now()).files.has("unheard.md")).toBe(true);
	});

	it("hears a rename as the old name gone and the new one come", async () => {
		const gateway = new MemoryGateway({ "a.md": "a" });
		const files = new VaultFiles(gateway, () => 0);
		await files.now();
		gateway.notes.set("b.md", gateway.notes.get("a.md")!);
		gateway.notes.delete("a.md");
		gateway.emit({ type: "rename", path: "b.md", oldPath: "a.md" });
		expect([...(await files.now()).files.keys()]).toEqual(["b.md"]);
	});
});
