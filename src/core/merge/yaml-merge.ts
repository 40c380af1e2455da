/** Key-by-key three-way merge of frontmatter YAML; keys nobody combined keep their exact source text. */
import { Document, YAMLMap, isScalar, isSeq, type Pair, type Scalar, type YAMLSeq } from "yaml";
import { chunkYaml, PRINT, type Chunk } from "./yaml-chunks";
import { neighboursChanged } from "./yaml-neighbours";

export type YamlMergeResult =
	/**
	 * `listsCombined`: some key's list both sides changed was merged as a set. `neighbours`: one side's change sits
	 * right next to the other's (yaml-neighbours.ts), which the caller leaves to git's rule.
	 */
	| { kind: "clean"; text: string; listsCombined: boolean; neighbours: boolean }
	| { kind: "conflict"; keys: string[] }
	/** Some side is not a plain mapping of scalar keys: the caller falls back to the line merge. */
	| { kind: "unparseable" };

export function mergeYaml(base: string, mine: string, theirs: string): YamlMergeResult {
	const b = chunkYaml(base);
	const m = chunkYaml(mine);
	const t = chunkYaml(theirs);
	if (!b || !m || !t) return { kind: "unparseable" };
	const conflicts: string[] = [];
	const pick = (name: string, bt: string, mt: string, tt: string): string => {
		const chosen = pickChange(bt, mt, tt);
		if (chosen === null) conflicts.push(name);
		return chosen ?? mt;
	};
	const header = pick("(comments above the first key)", b.header, m.header, t.header);
	const trailer = pick("(comments below the last key)", b.trailer, m.trailer, t.trailer);

	const baseChunks = byKey(b.chunks);
	const mineChunks = byKey(m.chunks);
	const theirsChunks = byKey(t.chunks);
	// The result starts as mine (the note now) in mine's key order; theirs' changes are applied to it.
	const out = m.chunks.map((chunk) => ({ key: chunk.key, text: chunk.text }));
	const eol = mine.includes("\r\n") ? "\r\n" : "\n";
	const keys = new Set([...mineChunks.keys(), ...theirsChunks.keys(), ...baseChunks.keys()]);
	let listsCombined = false;
	for (const key of keys) {
		const bc = baseChunks.get(key);
		const mc = mineChunks.get(key);
		const tc = theirsChunks.get(key);
		if (tc?.text === bc?.text || mc?.text === tc?.text) continue;
		const at = out.findIndex((entry) => entry.key === key);
		if (mc?.text === bc?.text) {
			if (!tc) out.splice(at, 1);
			else if (mc) out[at] = { key, text: tc.text };
			else out.splice(insertionPoint(out, t.chunks, key), 0, { key, text: tc.text });
			continue;
		}
		const combined = mc && tc ? unionOfLists(bc, mc, tc, eol) : null;
		if (combined === null) conflicts.push(String(JSON.parse(key)));
		else {
			out[at] = { key, text: combined };
			listsCombined = true;
		}
	}
	if (conflicts.length > 0) return { kind: "conflict", keys: conflicts };
	return {
		kind: "clean",
		text: header + out.map((entry) => entry.text).join("") + trailer,
		listsCombined,
		neighbours: neighboursChanged(b, m, t),
	};
}

/** The one-line three-way rule: take whichever side changed; null when both changed differently. */
function pickChange(base: string, mine: string, theirs: string): string | null {
	if (theirs === base || mine === theirs) return mine;
	if (mine === base) return theirs;
	return null;
}

function byKey(chunks: readonly Chunk[]): Map<string, Chunk> {
	return new Map(chunks.map((chunk) => [chunk.key, chunk]));
}

/** A key theirs added goes right after the nearest key above it in theirs that the result has, else first. */
function insertionPoint(out: readonly { key: string }[], theirs: readonly Chunk[], key: string): number {
	const index = theirs.findIndex((chunk) => chunk.key === key);
	for (let i = index - 1; i >= 0; i--) {
		const previous = theirs[i];
		const at = previous ? out.findIndex((entry) => entry.key === previous.key) : -1;
		if (at >= 0) return at + 1;
	}
	return 0;
}

/**
 * tags/aliases-style lists (sequences of scalars) merge as sets: mine's items, minus what theirs removed, plus what
 * theirs added. Mine's node is edited in place so its style (flow or block, quoting) survives; only this key is
 * reprinted. Null when the values are not all scalar lists, or theirs also changed the comments above the key.
 */
function unionOfLists(base: Chunk | undefined, mine: Chunk, theirs: Chunk, eol: string): string | null {
	const baseItems = base ? scalarItems(base.pair) : [];
	const mineSeq = mine.pair.value;
	const theirsItems = scalarItems(theirs.pair);
	if (!baseItems || !theirsItems || !isSeq(mineSeq) || !scalarItems(mine.pair)) return null;
	if (theirs.prefix !== (base?.prefix ?? theirs.prefix) && theirs.prefix !== mine.prefix) return null;

	const inBase = new Set(baseItems.map(identity));
	const inTheirs = new Set(theirsItems.map(identity));
	const kept = (mineSeq as YAMLSeq<Scalar>).items.filter(
		(item) => !inBase.has(identity(item)) || inTheirs.has(identity(item)),
	);
	const present = new Set(kept.map(identity));
	for (const item of theirsItems) {
		const id = identity(item);
		if (inBase.has(id) || present.has(id)) continue;
		present.add(id);
		kept.push(item.clone() as Scalar);
	}
	mineSeq.items = kept;
	return mine.prefix + printPair(mine.pair).replace(/\r?\n/g, eol);
}

function scalarItems(pair: Pair): Scalar[] | null {
	const value = pair.value;
	if (!isSeq(value)) return null;
	return value.items.every((item) => isScalar(item)) ? value.items : null;
}

function identity(item: Scalar): string {
	return JSON.stringify(item.value) ?? String(item.value);
}

/** Prints one pair alone; the comment lines above it are kept verbatim by the caller instead. */
function printPair(pair: Pair): string {
	const copy = pair.clone();
	if (isScalar(copy.key)) {
		copy.key.commentBefore = undefined;
		copy.key.spaceBefore = false;
	}
	const doc = new Document();
	const map = new YAMLMap();
	map.items.push(copy);
	doc.contents = map;
	return doc.toString(PRINT);
}
