/**
 * The VaultGateway contract: what `src/vault/gateway.ts` promises, as cases any gateway must pass. Not a test file
 * itself: `gateway-contract.test.ts` runs it for every implementation (the Node folder, the Obsidian gateway on the
 * simulation, the in-memory fake that service tests stand on), so they cannot drift apart. What only one gateway
 * does (races, editors, temp files, symlinks, where the trash is) stays in that gateway's own test file.
 *
 * No case is skipped for any gateway and there are no capability flags: none was needed.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { MovePlan, MutationPlan, VaultChange, VaultGateway } from "../../src/vault/gateway";
import { VaultPathError } from "../../src/vault/errors";

export interface GatewayUnderTest {
	gateway: VaultGateway;
	/**
	 * Lets the gateway deliver the change events of what was already done, as far as it can be made to: a listener
	 * may still hear of a change late (the Node watcher reports when the disk tells it), so the cases poll after it.
	 */
	settle(): Promise<void>;
	/** Another program writing a note (creating it if missing), as this gateway's vault would see it. */
	writeOutside(path: string, content: string): Promise<void>;
	close(): Promise<void>;
}

export interface GatewayFactory {
	/**
	 * Opens a gateway on a vault that already holds `files` when it opens (a path ending in "/" is an empty folder).
	 * Hidden entries among them (".secret.md", ".hidden/x.md") are there as another program left them.
	 */
	open(files?: Record<string, string>): Promise<GatewayUnderTest>;
}

/** How long a listener may take to hear of a change (a folder watcher is late, never this late). */
const DELIVERY_MS = 5000;

/** Exact texts that must come back byte for byte: nothing normalized, trimmed, re-encoded or stripped. */
export const EXACT_TEXTS: Record<string, string> = {
	"the empty note": "",
	"CRLF line ends": "one\r\ntwo\r\n",
	"lone CRs and mixed line ends": "a\rb\r\nc\n\r",
	"a byte-order mark": "\uFEFFtitle\r\nbody\n",
	"Unicode (NFD kept as NFD, astral characters, RTL)": "naïve café — 日本語 🎉 e\u0301 שלום\n",
	"no final newline, tabs and trailing spaces": "\t indented  \n\nlast line  ",
};

const write =
	<T = null>(content: string, result: T = null as T) =>
	(): MutationPlan<T> => ({ kind: "write", content, result });
const trash = (): MutationPlan<null> => ({ kind: "trash", result: null });
const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const paths = (entries: { path: string }[] | null) => entries?.map((entry) => entry.path).sort() ?? null;

/** Registers the contract's cases, under `name`, for the gateways `factory` opens. */
export function runGatewayContract(name: string, factory: GatewayFactory): void {
	describe(`${name}: the VaultGateway contract`, () => {
		let opened: GatewayUnderTest[] = [];
		afterEach(async () => {
			for (const t of opened) await t.close();
			opened = [];
		});
		async function open(files: Record<string, string> = {}): Promise<GatewayUnderTest> {
			const t = await factory.open(files);
			opened.push(t);
			return t;
		}

		/** Subscribes, and gives what the listener heard so far and a way to wait until it heard `change`. */
		async function listen(t: GatewayUnderTest) {
			const heard: VaultChange[] = [];
			const off = t.gateway.onChange((change) => heard.push(change));
			await t.settle();
			return {
				heard,
				off,
				async hears(change: VaultChange): Promise<void> {
					await t.settle();
					await expect.poll(() => heard, { timeout: DELIVERY_MS }).toContainEqual(change);
				},
			};
		}

		describe("read", () => {
			it("answers null for a note that is not there, also under a parent that is a note or in a missing folder", async () => {
				const { gateway } = await open({ "file.md": "x" });
				expect(await gateway.read("missing.md")).toBeNull();
				expect(await gateway.read("no/such/folder/n.md")).toBeNull();
				expect(await gateway.read("file.md/child.md")).toBeNull();
			});

			it("gives the note's path, content and stat (the stat stat() gives, its size in bytes)", async () => {
				const content = "héllo\nworld\n";
				const { gateway } = await open({ "sub/n.md": content });
				const snapshot = await gateway.read("sub/n.md");
				expect(snapshot).toMatchObject({ path: "sub/n.md", content });
				expect(snapshot!.stat.size).toBe(bytes(content));
				expect(snapshot!.stat).toEqual(await gateway.stat("sub/n.md"));
			});
		});

		describe("stat", () => {
			it("answers null for a missing note and a note's times and size in bytes", async () => {
				const { gateway } = await open({ "n.md": "日本\n" });
				expect(await gateway.stat("missing.md")).toBeNull();
				const stat = await gateway.stat("n.md");
				expect(stat).toEqual({ ctime: expect.any(Number), mtime: expect.any(Number), size: 7 });
				expect(Number.isFinite(stat!.ctime) && Number.isFinite(stat!.mtime)).toBe(true);
			});
		});

		describe("mutate", () => {
			it("shows decide the note as it is, once, and a keep plan changes nothing", async () => {
				const { gateway } = await open({ "n.md": "now\n" });
				const seen: (string | null)[] = [];
				const outcome = await gateway.mutate("n.md", (current) => {
					seen.push(current);
					return { kind: "keep", result: 7 };
				});
				expect(seen).toEqual(["now\n"]);
				expect(outcome).toEqual({ result: 7, stat: null });
				expect((await gateway.read("n.md"))?.content).toBe("now\n");
			});

			it("shows decide null for a missing note, and a keep plan creates nothing", async () => {
				const { gateway } = await open({ "other.md": "x" });
				const seen: (string | null)[] = [];
				const outcome = await gateway.mutate("sub/missing.md", (current) => {
					seen.push(current);
					return { kind: "keep", result: "kept" };
				});
				expect(seen).toEqual([null]);
				expect(outcome).toEqual({ result: "kept", stat: null });
				expect(await gateway.read("sub/missing.md")).toBeNull();
				expect(await gateway.list("sub")).toBeNull();
				expect(await gateway.listNotes(["md"])).toEqual(["other.md"]);
			});

			it("writes a new note, creating its parent folders, and returns the stat after the write", async () => {
				const { gateway } = await open();
				const outcome = await gateway.mutate("a/b/c.md", write("hello\n", "written"));
				expect(outcome.result).toBe("written");
				expect(outcome.stat).toMatchObject({ size: bytes("hello\n") });
				const snapshot = await gateway.read("a/b/c.md");
				expect(snapshot?.content).toBe("hello\n");
				// mtime and size describe what was written. ctime is left out: the Node gateway takes its stat from the temp file
				// before the rename (atomic-file.ts), and where a disk keeps no birth time, ctime stands in and the rename moves it.
				expect(outcome.stat).toMatchObject({ mtime: snapshot!.stat.mtime, size: snapshot!.stat.size });
				expect(await gateway.list("a")).toEqual([{ path: "a/b/", type: "folder" }]);
				expect(paths(await gateway.list("a/b"))).toEqual(["a/b/c.md"]);
			});

			it("overwrites an existing note, and the next decide is shown what was written", async () => {
				const { gateway } = await open({ "n.md": "before\n" });
				const outcome = await gateway.mutate("n.md", write("after, and longer\n"));
				expect(outcome.stat).toMatchObject({ size: bytes("after, and longer\n") });
				expect(await gateway.stat("n.md")).toMatchObject({ mtime: outcome.stat!.mtime, size: outcome.stat!.size });
				let seen: string | null = null;
				await gateway.mutate("n.md", (current) => {
					seen = current;
					return { kind: "keep", result: null };
				});
				expect(seen).toBe("after, and longer\n");
				expect((await gateway.read("n.md"))?.content).toBe("after, and longer\n");
			});

			it("trashes a note: it is gone for read, stat, list and listNotes; its folder stays", async () => {
				const { gateway } = await open({ "sub/t.md": "bye\n", "keep.md": "stay\n" });
				const seen: (string | null)[] = [];
				const outcome = await gateway.mutate("sub/t.md", (current) => {
					seen.push(current);
					return { kind: "trash", result: "trashed" };
				});
				expect(seen).toEqual(["bye\n"]);
				expect({ result: outcome.result, stat: outcome.stat }).toEqual({ result: "trashed", stat: null });
				// Where the gateway chose the place in the trash, it says where; a durability step is awaited as a writer does.
				if (outcome.trashedTo !== undefined) expect(outcome.trashedTo).toBe(".trash/sub/t.md");
				await outcome.durable;
				expect(await gateway.read("sub/t.md")).toBeNull();
				expect(await gateway.stat("sub/t.md")).toBeNull();
				expect(await gateway.list("sub")).toEqual([]);
				expect(await gateway.listNotes(["md"])).toEqual(["keep.md"]);
				// And a note can be created again under the freed name.
				await gateway.mutate("sub/t.md", write("again\n"));
				expect((await gateway.read("sub/t.md"))?.content).toBe("again\n");
			});

			it("does nothing for a trash plan on a note that is not there (the note was already gone)", async () => {
				const { gateway } = await open({ "keep.md": "stay\n" });
				const outcome = await gateway.mutate("gone.md", () => ({ kind: "trash", result: "nothing to trash" }));
				expect(outcome).toEqual({ result: "nothing to trash", stat: null });
				expect(await gateway.listNotes(["md"])).toEqual(["keep.md"]);
			});

			it("refuses to write where a folder or a file is in the way (folder-in-the-way, file-in-the-way)", async () => {
				const { gateway } = await open({ "empty.md/": "", "full.md/inner.md": "in\n", "file.md": "x" });
				await expect(gateway.mutate("empty.md", write("x"))).rejects.toMatchObject({ reason: "folder-in-the-way" });
				await expect(gateway.mutate("full.md", write("x"))).rejects.toMatchObject({ reason: "folder-in-the-way" });
				await expect(gateway.mutate("file.md/child.md", write("x"))).rejects.toBeInstanceOf(VaultPathError);
				await expect(gateway.mutate("file.md/child.md", write("x"))).rejects.toMatchObject({
					reason: "file-in-the-way",
				});
				expect((await gateway.read("file.md"))?.content).toBe("x");
				expect(paths(await gateway.list("full.md"))).toEqual(["full.md/inner.md"]);
			});
		});

		describe("rename", () => {
			const move =
				<T>(result: T) =>
				(): MovePlan<T> => ({ kind: "move", result });

			it("moves a note to a free path, creating its folders: same bytes, gone from the old path, decide shown it once", async () => {
				const text = EXACT_TEXTS["Unicode (NFD kept as NFD, astral characters, RTL)"]!;
				const { gateway } = await open({ "sub/a.md": text, "keep.md": "stay\n" });
				const seen: (string | null)[] = [];
				const outcome = await gateway.rename("sub/a.md", "x/y/b.md", (current) => {
					seen.push(current);
					return { kind: "move", result: "moved" };
				});
				if (outcome.kind === "moved") await outcome.durable;
				expect(outcome).toMatchObject({ kind: "moved", result: "moved", rewritten: [] });
				expect(seen).toEqual([text]);
				expect(await gateway.read("sub/a.md")).toBeNull();
				expect((await gateway.read("x/y/b.md"))?.content).toBe(text);
				expect((await gateway.listNotes(["md"])).sort()).toEqual(["keep.md", "x/y/b.md"]);
				// The folder it left stays, as a trashed note's does; and a note can be made again under the old name.
				expect(await gateway.list("sub")).toEqual([]);
				await gateway.mutate("sub/a.md", write("again\n"));
				expect((await gateway.read("sub/a.md"))?.content).toBe("again\n");
			});

			it("moves nothing for a keep plan, and shows decide null for a missing note", async () => {
				const { gateway } = await open({ "a.md": "a\n" });
				expect(await gateway.rename("a.md", "b.md", () => ({ kind: "keep", result: 1 }))).toEqual({
					kind: "kept",
					result: 1,
				});
				const seen: (string | null)[] = [];
				const missing = await gateway.rename("gone.md", "c.md", (current) => {
					seen.push(current);
					return { kind: "keep", result: 2 };
				});
				expect(missing).toEqual({ kind: "kept", result: 2 });
				expect(seen).toEqual([null]);
				expect((await gateway.listNotes(["md"])).sort()).toEqual(["a.md"]);
			});

			it("never replaces what is at the destination: a note, a folder or a hidden file (destination-taken)", async () => {
				const { gateway } = await open({
					"a.md": "mine\n",
					"b.md": "theirs\n",
					"folder.md/inner.md": "in\n",
					".hidden.md": "h\n",
				});
				for (const destination of ["b.md", "folder.md", ".hidden.md"]) {
					expect(await gateway.rename("a.md", destination, move(destination)), destination).toEqual({
						kind: "destination-taken",
						result: destination,
					});
				}
				expect((await gateway.read("a.md"))?.content).toBe("mine\n");
				expect((await gateway.read("b.md"))?.content).toBe("theirs\n");
				expect(paths(await gateway.list("folder.md"))).toEqual(["folder.md/inner.md"]);
			});

			it("refuses (file-in-the-way) a destination under a parent that is a note, and leaves the note where it was", async () => {
				const { gateway } = await open({ "a.md": "mine\n", "file.md": "x" });
				await expect(gateway.rename("a.md", "file.md/child.md", move(null))).rejects.toMatchObject({
					reason: "file-in-the-way",
				});
				expect((await gateway.read("a.md"))?.content).toBe("mine\n");
			});

			it("tells listeners the note left its old path and is at its new one (a rename, or a delete and a create)", async () => {
				const t = await open({ "a.md": "mine\n" });
				const listener = await listen(t);
				await t.gateway.rename("a.md", "moved/b.md", move(null));
				await t.settle();
				await expect
					.poll(
						() =>
							listener.heard.some(
								(change) =>
									(change.type === "rename" && change.oldPath === "a.md") ||
									(change.type === "delete" && change.path === "a.md"),
							),
						{ timeout: DELIVERY_MS },
					)
					.toBe(true);
				await expect
					.poll(() => listener.heard.some((change) => change.path === "moved/b.md" && change.type !== "delete"), {
						timeout: DELIVERY_MS,
					})
					.toBe(true);
				listener.off();
			});
		});

		describe("createExclusive", () => {
			it("creates a new note with its parent folders", async () => {
				const { gateway } = await open();
				expect(await gateway.createExclusive("x/y/new.md", "first\n")).toBe(true);
				expect((await gateway.read("x/y/new.md"))?.content).toBe("first\n");
				expect(await gateway.list("x")).toEqual([{ path: "x/y/", type: "folder" }]);
			});

			it("never overwrites: resolves false when a note, a folder or a hidden file is already there", async () => {
				const { gateway } = await open({ "n.md": "start\n", "folder.md/inner.md": "in\n", ".secret.md": "hidden\n" });
				expect(await gateway.createExclusive("n.md", "other")).toBe(false);
				expect(await gateway.createExclusive("folder.md", "other")).toBe(false);
				expect(await gateway.createExclusive(".secret.md", "other")).toBe(false);
				expect((await gateway.read("n.md"))?.content).toBe("start\n");
				expect(paths(await gateway.list("folder.md"))).toEqual(["folder.md/inner.md"]);
				// A second create of a note it just made is refused the same way.
				expect(await gateway.createExclusive("b/new.md", "first")).toBe(true);
				expect(await gateway.createExclusive("b/new.md", "second")).toBe(false);
				expect((await gateway.read("b/new.md"))?.content).toBe("first");
			});

			it("refuses (file-in-the-way) under a parent that is a note", async () => {
				const { gateway } = await open({ "file.md": "x" });
				await expect(gateway.createExclusive("file.md/child.md", "x")).rejects.toMatchObject({
					reason: "file-in-the-way",
				});
				expect((await gateway.read("file.md"))?.content).toBe("x");
			});
		});

		describe("list and listNotes", () => {
			const vault = {
				"a.md": "a",
				"b.txt": "b",
				"Upper.MD": "u",
				".secret.md": "s",
				".hidden/d.md": "d",
				"sub/c.md": "c",
				"sub/.hidden/f.md": "f",
				"sub/deep/e.canvas": "{}",
				"empty/": "",
			};

			it("lists a folder's immediate children, folders ending in /, hidden entries excluded", async () => {
				const { gateway } = await open(vault);
				const root = await gateway.list("");
				expect(root?.map(({ path, type }) => ({ path, type })).sort((x, y) => (x.path < y.path ? -1 : 1))).toEqual([
					{ path: "Upper.MD", type: "file" },
					{ path: "a.md", type: "file" },
					{ path: "b.txt", type: "file" },
					{ path: "empty/", type: "folder" },
					{ path: "sub/", type: "folder" },
				]);
				expect(paths(await gateway.list("sub"))).toEqual(["sub/c.md", "sub/deep/"]);
				expect(paths(await gateway.list("sub/deep"))).toEqual(["sub/deep/e.canvas"]);
				expect(await gateway.list("empty")).toEqual([]);
			});

			it("gives each file entry its stat, and folder entries none", async () => {
				const { gateway } = await open(vault);
				const root = (await gateway.list(""))!;
				expect(root.find((entry) => entry.path === "a.md")?.stat).toEqual(await gateway.stat("a.md"));
				expect(root.find((entry) => entry.path === "sub/")?.stat).toBeUndefined();
			});

			it("answers null for a folder that does not exist, or is a note", async () => {
				const { gateway } = await open(vault);
				expect(await gateway.list("nope")).toBeNull();
				expect(await gateway.list("sub/nope")).toBeNull();
				expect(await gateway.list("a.md")).toBeNull();
			});

			it("walks every note with one of the extensions (in any case), hidden files and folders excluded", async () => {
				const { gateway } = await open(vault);
				expect((await gateway.listNotes(["md"])).sort()).toEqual(["Upper.MD", "a.md", "sub/c.md"]);
				expect((await gateway.listNotes(["md", "canvas"])).sort()).toEqual([
					"Upper.MD",
					"a.md",
					"sub/c.md",
					"sub/deep/e.canvas",
				]);
				expect(await gateway.listNotes(["pdf"])).toEqual([]);
				expect(await gateway.listNotes([])).toEqual([]);
			});

			it("sees what its own writes created and removed", async () => {
				const { gateway } = await open(vault);
				await gateway.mutate("sub/deep/new.md", write("n"));
				await gateway.createExclusive("made.md", "m");
				await gateway.mutate("a.md", trash);
				expect((await gateway.listNotes(["md"])).sort()).toEqual([
					"Upper.MD",
					"made.md",
					"sub/c.md",
					"sub/deep/new.md",
				]);
				expect(paths(await gateway.list("sub/deep"))).toEqual(["sub/deep/e.canvas", "sub/deep/new.md"]);
				expect(paths(await gateway.list(""))).toEqual(["Upper.MD", "b.txt", "empty/", "made.md", "sub/"]);
			});
		});

		describe("onChange", () => {
			it("reports other programs' creates and modifies, and its own deletes, each as what it is", async () => {
				const t = await open({ "old.md": "old\n" });
				const { gateway } = t;
				const listener = await listen(t);
				await t.writeOutside("new.md", "one\n");
				await listener.hears({ type: "create", path: "new.md" });
				await t.writeOutside("old.md", "changed\n");
				await listener.hears({ type: "modify", path: "old.md" });
				await gateway.mutate("old.md", trash);
				await listener.hears({ type: "delete", path: "old.md" });
				// Each change is what it is: a modify is not told as a delete, a create not as a modify.
				expect(listener.heard).not.toContainEqual({ type: "delete", path: "new.md" });
				expect(listener.heard).not.toContainEqual({ type: "create", path: "old.md" });
				listener.off();
			});

			it("may or may not report its own writes and creates (the writer records what it wrote), but never as anything else", async () => {
				// The Obsidian vault reports every change; the Node folder's watcher leaves out the renames and .bak
				// notes it made itself (folder-watch-session.ts): nothing may depend on hearing them.
				const t = await open({ "old.md": "old\n" });
				const { gateway } = t;
				const listener = await listen(t);
				await gateway.mutate("new.md", write("one\n"));
				await gateway.mutate("old.md", write("changed\n"));
				await gateway.createExclusive("sub/made.md", "made\n");
				await t.writeOutside("marker.md", "m\n");
				await listener.hears({ type: "create", path: "marker.md" });
				// (An outside save may be heard as a create and then a modify: the marker is left out.)
				for (const change of listener.heard.filter((heard) => heard.path !== "marker.md"))
					expect(change.type === "create" ? ["new.md", "sub/made.md"] : ["old.md"]).toContain(change.path);
				listener.off();
			});

			it("stops telling a listener once it unsubscribes, and others still hear", async () => {
				const t = await open();
				const gone = await listen(t);
				const staying = await listen(t);
				gone.off();
				await t.writeOutside("after.md", "x");
				await staying.hears({ type: "create", path: "after.md" });
				await t.writeOutside("after.md", "y");
				await staying.hears({ type: "modify", path: "after.md" });
				expect(gone.heard).toEqual([]);
				staying.off();
			});
		});

		describe("activeNote", () => {
			it("is absent or null when no editor is open", async () => {
				const { gateway } = await open({ "n.md": "x" });
				expect((await gateway.activeNote?.()) ?? null).toBeNull();
			});
		});

		describe("exact bytes", () => {
			it.each(Object.entries(EXACT_TEXTS))(
				"keeps %s as it is, through write, createExclusive, decide and read",
				async (_label, text) => {
					const { gateway } = await open({ "seeded.md": text });
					// As found in the vault.
					expect((await gateway.read("seeded.md"))?.content).toBe(text);
					expect(await gateway.stat("seeded.md")).toMatchObject({ size: bytes(text) });
					// Written new, written over something else, created exclusively.
					const outcome = await gateway.mutate("new.md", write(text));
					expect(outcome.stat).toMatchObject({ size: bytes(text) });
					await gateway.createExclusive("made.md", "placeholder");
					await gateway.mutate("made.md", write(text));
					expect(await gateway.createExclusive("exclusive.md", text)).toBe(true);
					for (const path of ["new.md", "made.md", "exclusive.md"]) {
						const seen: (string | null)[] = [];
						await gateway.mutate(path, (current) => {
							seen.push(current);
							return { kind: "keep", result: null };
						});
						expect(seen, path).toEqual([text]);
						const snapshot = await gateway.read(path);
						expect(snapshot?.content, path).toBe(text);
						expect(snapshot?.stat.size, path).toBe(bytes(text));
					}
					// And something else written over it is exact too (an empty note made non-empty, and back).
					await gateway.mutate("new.md", write(text + "\r\n"));
					expect((await gateway.read("new.md"))?.content).toBe(text + "\r\n");
				},
			);
		});
	});
}
