/**
 * Other programs (a sync tool, git, an editor outside Obsidian) changing the vault's folder. Their changes are on
 * disk at once; Obsidian's file watcher notices them later: after a delay with jitter, in whatever order the delays
 * give, and sometimes twice. A rename made outside arrives as a delete plus a create, as it does in Obsidian.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "fs";
import { dirname, join } from "path";
import type { SimClock } from "./clock";
import type { Vault } from "./vault";
import { seededRandom } from "../helpers/seeded-random";

export interface WatcherOptions {
	/** Shortest and longest delay before a change is noticed, in simulated milliseconds. */
	minDelayMs?: number;
	maxDelayMs?: number;
	/** Chance (0–1) that a change is noticed twice. */
	duplicateChance?: number;
	/** Seed for the jitter, so a failing run can be replayed. */
	seed?: number;
}

export class OutsideWorld {
	private random: () => number;

	constructor(
		private readonly vault: Vault,
		private readonly clock: SimClock,
		private readonly options: WatcherOptions = {},
	) {
		this.random = seededRandom(options.seed ?? 1);
	}

	/** Another program writes `path` (creating its folders). */
	write(path: string, content: string | Buffer): void {
		const absolute = join(this.vault.basePath, path);
		mkdirSync(dirname(absolute), { recursive: true });
		writeFileSync(absolute, content);
		this.notice(path);
	}

	/** Another program deletes `path`. */
	remove(path: string): void {
		rmSync(join(this.vault.basePath, path), { recursive: true, force: true });
		this.notice(path);
	}

	/** Another program renames `from` to `to`: noticed as a delete and a create. */
	rename(from: string, to: string): void {
		const target = join(this.vault.basePath, to);
		mkdirSync(dirname(target), { recursive: true });
		renameSync(join(this.vault.basePath, from), target);
		this.notice(from);
		this.notice(to);
	}

	/** The watcher notices a change at `path`, late (and perhaps twice). */
	notice(path: string): void {
		const { minDelayMs = 20, maxDelayMs = 400, duplicateChance = 0.2 } = this.options;
		const delay = () => minDelayMs + Math.floor(this.random() * (maxDelayMs - minDelayMs + 1));
		this.clock.schedule(() => this.vault.noticed(path), delay());
		if (this.random() < duplicateChance) this.clock.schedule(() => this.vault.noticed(path), delay());
	}
}
