/**
 * Diffs handed to agents (in a refusal, GET /changes, MCP's note_changes), one page at a time. A diff of a huge note
 * is computed in slices (the host keeps serving), at most two at once (each can hold tens of megabytes), and the
 * last few are kept, so paging through one does not compute it again for every page.
 */
import { pageOfLines, type Page } from "../../core/diff/page";
import { unifiedDiffLines } from "../../core/diff/unified";
import { finishInSlices, SLICE_MS, type YieldToHost } from "../../core/steps";

export interface DiffSide {
	revision: string;
	content: string;
}

export interface PageRequest {
	path: string;
	from: DiffSide;
	to: DiffSide;
	/** The first line of the diff to send (0 for the start). */
	offset: number;
	maxBytes: number;
}

/** Diffs computed at once; more wait their turn. */
const AT_ONCE = 2;
/** Diffs kept for paging. */
const KEPT = 2;
const KB = 1024;

export class DiffPages {
	private running = 0;
	/** Diffs computed so far (tests check that paging reuses one). */
	computed = 0;
	private readonly waiting: (() => void)[] = [];
	/** Most recently used last. */
	private readonly kept = new Map<string, Promise<string[]>>();

	constructor(
		private readonly yieldToHost: YieldToHost,
		/** How long each slice may run before the host gets a turn (tests use 0: a turn at every step). */
		private readonly sliceMs = SLICE_MS,
	) {}

	/** One page of the unified diff from `from` to `to`; labels name the note and the starting revision, as git does. */
	async page(request: PageRequest): Promise<Page> {
		const lines = await this.diff(request.path, request.from, request.to);
		return pageOfLines(lines, request.offset, request.maxBytes);
	}

	private diff(path: string, from: DiffSide, to: DiffSide): Promise<string[]> {
		const key = `${path}\u0000${from.revision}\u0000${to.revision}`;
		const known = this.kept.get(key);
		if (known) {
			this.kept.delete(key);
			this.kept.set(key, known);
			return known;
		}
		const computed = this.compute(path, from, to);
		this.kept.set(key, computed);
		// A failed diff is not kept, so the next request tries again.
		computed.catch(() => this.kept.delete(key));
		for (const oldest of this.kept.keys()) {
			if (this.kept.size <= KEPT) break;
			this.kept.delete(oldest);
		}
		return computed;
	}

	private async compute(path: string, from: DiffSide, to: DiffSide): Promise<string[]> {
		if (this.running >= AT_ONCE) await new Promise<void>((resolve) => this.waiting.push(resolve));
		this.running++;
		this.computed++;
		try {
			const labels = { fromLabel: `a/${path}@${from.revision.slice(0, 12)}`, toLabel: `b/${path}` };
			return await finishInSlices(unifiedDiffLines(from.content, to.content, labels), this.yieldToHost, this.sliceMs);
		} finally {
			this.running--;
			this.waiting.shift()?.();
		}
	}
}

/** The answer cap for diffs and merge previews, from the settings. */
export function diffCapBytes(settings: { maxDiffKB: number }): number {
	return Math.max(1, settings.maxDiffKB) * KB;
}
