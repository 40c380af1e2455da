/**
 * git's touching rule, one frontmatter key at a time: did one side change a key right next to a key the other side
 * changed (or add a key where the other added or changed one)? Neighbouring keys are often edited together
 * (`title`/`description`, `description`/`toc`), so the key-by-key merge leaves those to a person, as git does.
 */
import type { Chunked } from "./yaml-chunks";

/**
 * The base's units in order: 0 is the header (comments above the first key), 1..k the keys, k + 1 the trailer.
 * Per unit, whether the side changed or removed it; per gap after a unit, the keys the side added there.
 */
interface SideChanges {
	changed: Uint8Array;
	added: Map<number, string>;
}

/**
 * Whether a change of mine touches a change of theirs. A unit or gap both sides changed is not counted: the YAML
 * merge combined it by a rule of its own (the same text, or a set of list items). Linear in the number of keys.
 */
export function neighboursChanged(base: Chunked, mine: Chunked, theirs: Chunked): boolean {
	const units = base.chunks.length + 2;
	const position = new Map(base.chunks.map((chunk, index) => [chunk.key, index + 1]));
	const m = sideChanges(base, mine, position, units);
	const t = sideChanges(base, theirs, position, units);
	for (let u = 0; u < units; u++) {
		if (m.changed[u] === 1 && t.changed[u] === 1) m.changed[u] = t.changed[u] = 0;
		// The same keys added at the same place on both sides were combined too; different ones collide, as in git.
		if (m.added.has(u) && m.added.get(u) === t.added.get(u)) {
			m.added.delete(u);
			t.added.delete(u);
		}
	}
	const touches = (a: SideChanges, b: SideChanges, u: number): boolean =>
		a.changed[u] === 1 && (b.changed[u + 1] === 1 || b.added.has(u) || b.added.has(u - 1));
	for (let u = 0; u < units; u++) {
		if (touches(m, t, u) || touches(t, m, u) || (m.added.has(u) && t.added.has(u))) return true;
	}
	return false;
}

function sideChanges(base: Chunked, side: Chunked, position: ReadonlyMap<string, number>, units: number): SideChanges {
	const changes: SideChanges = { changed: new Uint8Array(units + 1), added: new Map() };
	if (side.header !== base.header) changes.changed[0] = 1;
	if (side.trailer !== base.trailer) changes.changed[units - 1] = 1;
	const sideText = new Map(side.chunks.map((chunk) => [chunk.key, chunk.text]));
	for (const [index, chunk] of base.chunks.entries())
		if (sideText.get(chunk.key) !== chunk.text) changes.changed[index + 1] = 1;
	let after = 0;
	for (const chunk of side.chunks) {
		const at = position.get(chunk.key);
		if (at !== undefined) after = at;
		else changes.added.set(after, (changes.added.has(after) ? `${changes.added.get(after)}\u0000` : "") + chunk.key);
	}
	return changes;
}
