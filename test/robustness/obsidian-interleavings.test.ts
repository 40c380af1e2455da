/**
 * Property test on the strict simulation of Obsidian: fast-check interleaves an agent's reads, guarded PUTs, PATCHes,
 * appends and DELETEs (over HTTP), the person typing in an open editor, the 2-second autosave, another program
 * writing the file, and the watcher noticing it late. Whatever the order, at the end:
 * - no keystroke is lost (every typed word is in the note, or in the trash with it after an accepted delete);
 * - every write the agent was told succeeded (2xx) is there too, and every refused body is kept in its `.bak`;
 * - every other program's save is there too, or kept in a `.bak` (it overlapped unsaved typing), unless the editor's
 *   autosave wrote over it before Obsidian's watcher noticed it (docs/outside-saves.md: what is not caught);
 * - nothing was written without a token check: the plugin wrote the note at most once per write it accepted (a
 *   delete it accepted may save the person's typing first, so it goes to the trash with the note).
 */
import fc from "fast-check";
import { readdir, readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { startObsidian } from "../helpers/obsidian-harness";
import { writeVaultFile } from "../helpers/vault-files";
import type { ObsidianGateway } from "../../src/vault/obsidian-gateway";

type Step =
	| { kind: "read" }
	| { kind: "put" }
	| { kind: "patch" }
	| { kind: "append" }
	| { kind: "delete" }
	| { kind: "type" }
	| { kind: "outside" }
	| { kind: "advance"; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
	fc.constant<Step>({ kind: "read" }),
	fc.constant<Step>({ kind: "put" }),
	fc.constant<Step>({ kind: "patch" }),
	fc.constant<Step>({ kind: "append" }),
	fc.constant<Step>({ kind: "delete" }),
	fc.constant<Step>({ kind: "type" }),
	fc.constant<Step>({ kind: "outside" }),
	fc.integer({ min: 1, max: 2_500 }).map((ms): Step => ({ kind: "advance", ms })),
);

describe("interleavings of an agent, the person and other programs", () => {
	it(
		"lose no keystroke and no acknowledged write, and write nothing unchecked (property)",
		{ timeout: 240_000 },
		async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.array(step, { minLength: 4, maxLength: 18 }),
					fc.boolean(),
					fc.integer({ min: 1, max: 1_000 }),
					async (steps, editorOpen, seed) => {
						const h = await startObsidian({}, undefined, { app: { watcher: { seed } } });
						try {
							await writeVaultFile(h.dir, "Note.md", "# Note\nstart\n");
							h.app.outside.write("Note.md", "# Note\nstart\n");
							await h.app.clock.runAll();
							const view = editorOpen ? h.app.openEditor("Note.md") : null;
							const typed: string[] = [];
							/** Each save of another program, and whether a write of the note came before the watcher noticed it. */
							const outside: { word: string; writesBefore: number; overwrittenUnnoticed: boolean | null }[] = [];
							const noteWrites = () => h.app.vault.writeLog.filter((write) => write.path === "Note.md").length;
							const notice = h.app.vault.noticed.bind(h.app.vault);
							h.app.vault.noticed = (path) => {
								if (path === "Note.md")
									for (const save of outside) save.overwrittenUnnoticed ??= noteWrites() > save.writesBefore;
								notice(path);
							};
							const accepted: string[] = [];
							const refused: { backupPath: string; body: string }[] = [];
							const patchKept: { backupPath: string; word: string }[] = [];
							let deletes = 0;
							let read: { etag: string; text: string } | null = null;
							let n = 0;
							for (const next of steps) {
								n++;
								if (next.kind === "read") {
									const res = await h.api("/vault/Note.md");
									expect([200, 404]).toContain(res.status);
									read = res.status === 200 ? { etag: res.headers.etag as string, text: res.text } : null;
								} else if (next.kind === "put" && read) {
									const body = `${read.text}agent-${n}\n`;
									const res = await h.api("/vault/Note.md", {
										method: "PUT",
										body,
										headers: { "If-Match": read.etag },
									});
									if (res.status === 204) accepted.push(`agent-${n}`);
									else if (res.status === 412)
										refused.push({ backupPath: res.json<{ backupPath: string }>().backupPath, body });
									// 409: another program changed the file and Obsidian has not noticed yet; retry later, nothing written.
									else if (res.status !== 409) throw new Error(`PUT answered ${res.status}: ${res.text}`);
								} else if (next.kind === "patch" && read) {
									const headers = {
										"If-Match": read.etag,
										"Markdown-Patch-Version": "1",
										Operation: "append",
										"Target-Type": "heading",
										Target: "Note",
									};
									const res = await h.api("/vault/Note.md", { method: "PATCH", body: `patch-${n}\n`, headers });
									if (res.status === 200) accepted.push(`patch-${n}`);
									else if (res.status === 412) {
										const { backupPath } = res.json<{ backupPath?: string }>();
										// A stale patch whose heading is not in the note now cannot be computed: there is no patched note to keep.
										if (backupPath) patchKept.push({ backupPath, word: `patch-${n}` });
										else
											expect(
												view?.file
													? view.editor.getValue()
													: await readFile(join(h.dir, "Note.md"), "utf8").catch(() => ""),
											).not.toMatch(/^# Note$/m);
									}
									// The note is gone, or its heading went with a delete and a re-create: nothing written.
									else if (res.status !== 404 && res.status !== 400 && res.status !== 409)
										throw new Error(`PATCH answered ${res.status}: ${res.text}`);
								} else if (next.kind === "append") {
									const res = await h.api("/vault/Note.md", { method: "POST", body: `append-${n}\n` });
									// 204 also when an accepted delete left no note to append to (it is created); 409 (retry) when another
									// program has just created one there that Obsidian has not taken in yet.
									expect([204, 409, 412], res.text).toContain(res.status);
									if (res.status === 204) accepted.push(`append-${n}`);
								} else if (next.kind === "delete" && read) {
									const res = await h.api("/vault/Note.md", { method: "DELETE", headers: { "If-Match": read.etag } });
									expect([204, 404, 409, 412], res.text).toContain(res.status);
									if (res.status === 204) {
										read = null;
										deletes++;
									}
								} else if (next.kind === "type" && view?.file) {
									view.type(` key-${n} `, view.editor.getValue().length);
									typed.push(`key-${n}`);
								} else if (next.kind === "outside") {
									const disk = await readFile(join(h.dir, "Note.md"), "utf8").catch(() => "");
									h.app.outside.write("Note.md", `${disk}outside-${n}\n`);
									outside.push({ word: `outside-${n}`, writesBefore: noteWrites(), overwrittenUnnoticed: null });
								} else if (next.kind === "advance") {
									await h.app.clock.advance(next.ms);
								}
							}
							await h.app.clock.runAll();
							await (h.guard.gateway as ObsidianGateway).editorFold.settled();
							await h.guard.tracker.flush();
							await h.app.clock.runAll();
							// What the note holds now, and every version an accepted delete put in the trash.
							const trash = await readdir(join(h.dir, ".trash")).catch(() => []);
							const kept = [
								await readFile(join(h.dir, "Note.md"), "utf8").catch(() => ""),
								...(await Promise.all(trash.map((name) => readFile(join(h.dir, ".trash", name), "utf8")))),
							].join("\n");
							for (const word of typed) expect(kept, `typed ${word}`).toContain(word);
							for (const word of accepted) expect(kept, `acknowledged ${word}`).toContain(word);
							// Another program's text is folded into the editor or kept as a .bak, unless the autosave wrote over it unnoticed.
							const backups = await Promise.all(
								(await readdir(h.dir))
									.filter((name) => name.endsWith(".bak.md"))
									.map((name) => readFile(join(h.dir, name), "utf8")),
							);
							for (const { word, overwrittenUnnoticed } of outside) {
								if (overwrittenUnnoticed) continue;
								expect(
									[kept, ...backups].some((text) => text.includes(word)),
									`outside ${word}`,
								).toBe(true);
							}
							for (const { backupPath, body } of refused)
								expect(await readFile(join(h.dir, backupPath), "utf8")).toBe(body);
							for (const { backupPath, word } of patchKept)
								expect(await readFile(join(h.dir, backupPath), "utf8")).toContain(word);
							const pluginWrites =
								h.app.vault.writeLog.filter((write) => write.path === "Note.md" && write.via !== "modify").length +
								(view?.saves.requested ?? 0);
							expect(pluginWrites).toBeLessThanOrEqual(accepted.length + deletes);
							expect(h.errors).toEqual([]);
						} finally {
							await h.close();
						}
					},
				),
				{ numRuns: 150 },
			);
		},
	);
});
