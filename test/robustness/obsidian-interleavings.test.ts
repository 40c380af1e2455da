/**
 * Property test on the strict simulation of Obsidian: fast-check interleaves an agent's reads, guarded writes and
 * appends (over HTTP), the person typing in an open editor, the 2-second autosave, another program writing the file,
 * and the watcher noticing it late. Whatever the order, at the end:
 * - no keystroke is lost (every typed word is in the note);
 * - every write the agent was told succeeded (2xx) is in the note, and every refused body is kept byte for byte;
 * - nothing was written without a token check: the plugin wrote the note at most once per write it accepted.
 */
import fc from "fast-check";
import { readFile } from "fs/promises";
import { join } from "path";
import { describe, expect, it } from "vitest";
import { startObsidian } from "../helpers/obsidian-harness";
import { writeVaultFile } from "../helpers/vault-files";

type Step =
	| { kind: "read" }
	| { kind: "put" }
	| { kind: "append" }
	| { kind: "type" }
	| { kind: "outside" }
	| { kind: "advance"; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
	fc.constant<Step>({ kind: "read" }),
	fc.constant<Step>({ kind: "put" }),
	fc.constant<Step>({ kind: "append" }),
	fc.constant<Step>({ kind: "type" }),
	fc.constant<Step>({ kind: "outside" }),
	fc.integer({ min: 1, max: 2_500 }).map((ms): Step => ({ kind: "advance", ms })),
);

describe("interleavings of an agent, the person and other programs", () => {
	it("lose no keystroke and no acknowledged write, and write nothing unchecked (property)", { timeout: 240_000 }, async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 18 }), fc.boolean(), fc.integer({ min: 1, max: 1_000 }), async (steps, editorOpen, seed) => {
				const h = await startObsidian({}, undefined, { app: { watcher: { seed } } });
				try {
					await writeVaultFile(h.dir, "Note.md", "start\n");
					h.app.outside.write("Note.md", "start\n");
					await h.app.clock.runAll();
					const view = editorOpen ? h.app.openEditor("Note.md") : null;
					const typed: string[] = [];
					const accepted: string[] = [];
					const refused: { backupPath: string; body: string }[] = [];
					let read: { etag: string; text: string } | null = null;
					let n = 0;
					for (const next of steps) {
						n++;
						if (next.kind === "read") {
							const res = await h.api("/vault/Note.md");
							read = { etag: res.headers.etag as string, text: res.text };
						} else if (next.kind === "put" && read) {
							const body = `${read.text}agent-${n}\n`;
							const res = await h.api("/vault/Note.md", { method: "PUT", body, headers: { "If-Match": read.etag } });
							if (res.status === 204) accepted.push(`agent-${n}`);
							else if (res.status === 412) refused.push({ backupPath: res.json<{ backupPath: string }>().backupPath, body });
							else throw new Error(`PUT answered ${res.status}: ${res.text}`);
						} else if (next.kind === "append") {
							const res = await h.api("/vault/Note.md", { method: "POST", body: `append-${n}\n` });
							expect([204, 412]).toContain(res.status);
							if (res.status === 204) accepted.push(`append-${n}`);
						} else if (next.kind === "type" && view) {
							view.type(` key-${n} `, view.editor.getValue().length);
							typed.push(`key-${n}`);
						} else if (next.kind === "outside") {
							const disk = await readFile(join(h.dir, "Note.md"), "utf8");
							h.app.outside.write("Note.md", `${disk}outside-${n}\n`);
						} else if (next.kind === "advance") {
							await h.app.clock.advance(next.ms);
						}
					}
					await h.app.clock.runAll();
					await h.guard.tracker.flush();
					await h.app.clock.runAll();
					const final = await readFile(join(h.dir, "Note.md"), "utf8");
					for (const word of typed) expect(final, `typed ${word}`).toContain(word);
					for (const word of accepted) expect(final, `acknowledged ${word}`).toContain(word);
					for (const { backupPath, body } of refused) expect(await readFile(join(h.dir, backupPath), "utf8")).toBe(body);
					const pluginWrites = h.app.vault.writeLog.filter((write) => write.path === "Note.md" && write.via !== "modify").length + (view?.saves.requested ?? 0);
					expect(pluginWrites).toBeLessThanOrEqual(accepted.length);
					expect(h.errors).toEqual([]);
				} finally {
					await h.close();
				}
			}),
			{ numRuns: 60 },
		);
	});
});
