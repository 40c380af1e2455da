/**
 * ScopeReach: where a key with lists could reach past its globs. Over REST and MCP: scope-symlinks.test.ts,
 * scope-move-links.test.ts and agent-notes-scopes.test.ts; here each rule on its own, with fakes.
 */
import { describe, expect, it } from "vitest";
import { compileKeyScope } from "../../../src/core/key-scope";
import { agentActor } from "../../../src/service/notes/actor";
import { ScopeGate } from "../../../src/service/scopes/scope-gate";
import { ScopeReach, type ScopeReachDeps } from "../../../src/service/scopes/scope-reach";
import { RevisionHistory } from "../../../src/service/stores/revision-history";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import type { VaultGateway } from "../../../src/vault/gateway";
import type { NoteIndex } from "../../../src/vault/note-index";

const compiled = compileKeyScope("narrow", { read: ["Public/**"], write: ["Public/**"] }, { caseInsensitive: false });
if (!compiled.ok) throw new Error(compiled.problem.message);
const NARROW = agentActor("narrow", "narrow", undefined, compiled.scope);
const WHOLE = agentActor("whole", "whole");

function reach(host: ScopeReachDeps["host"], linked: string[] = [], backlinks: string[] = []) {
	const history = new RevisionHistory();
	const gateway = { throughLink: async (path: string) => linked.includes(path) } as unknown as VaultGateway;
	const index = { links: async () => ({ links: [], unresolvedLinks: [], backlinks }) } as unknown as NoteIndex;
	const settings = structuredClone(DEFAULT_SETTINGS);
	return { history, reach: new ScopeReach({ gateway, index, history, host }, new ScopeGate(() => settings)) };
}

describe("ScopeReach", () => {
	it("refuses a path through a symbolic link to a key with lists only", async () => {
		const { reach: r } = reach("folder", ["Public/link.md"]);
		expect(await r.throughLink(NARROW, "Public/link.md")).toMatchObject({
			why: "through-link",
			path: "Public/link.md",
		});
		expect(await r.throughLink(NARROW, "Public/a.md")).toBeNull();
		expect(await r.throughLink(WHOLE, "Public/link.md")).toBeNull();
	});

	it("counts the notes linking to a moved one inside Obsidian only, and the notes an undone move rewrote anywhere", async () => {
		const obsidian = reach("obsidian", [], ["Secret/s.md"]).reach;
		expect(await obsidian.relinkRefusal(NARROW, "Public/a.md")).toMatchObject({ why: "links-outside-write" });
		expect(await obsidian.relinkRefusal(WHOLE, "Public/a.md")).toBeNull();
		const folder = reach("folder", [], ["Secret/s.md"]).reach;
		expect(await folder.relinkRefusal(NARROW, "Public/a.md")).toBeNull();
		expect(await folder.relinkRefusal(NARROW, "Public/a.md", ["Secret/s.md"])).toMatchObject({
			why: "links-outside-write",
		});
	});

	it("lets a key with lists diff a note only at that note's own revisions since it came from a hidden path", () => {
		const { history, reach: r } = reach("folder");
		history.observe("Public/a.md", "r-own", 3, { kind: "external" }, 1);
		expect(r.revisionsKnownTo(NARROW, "Public/a.md")("r-own")).toBe(true);
		expect(r.revisionsKnownTo(NARROW, "Public/a.md")("r-of-another-note")).toBe(false);
		expect(r.revisionsKnownTo(WHOLE, "Public/a.md")("r-of-another-note")).toBe(true);
	});
});
