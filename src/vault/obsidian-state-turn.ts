/**
 * Turns at the plugin folder's state, between instances of the plugin in one Obsidian window. Disabling and enabling
 * the plugin makes a new instance (from main.js evaluated again, so no module state is shared) while Obsidian does not
 * wait for the old one's onunload, whose last save is still under way. So each instance leaves a claim in `owners/`
 * before it reads the state and removes it once its last save is done, and reads the state only when no earlier claim
 * of this window is left: it never reads a half-saved or older state, and no save of the old instance lands after it.
 * A claim from another window (Obsidian quit or crashed without unloading, or another device's claim arrived by sync)
 * belongs to no running instance, and is removed.
 */
import { normalizePath, type DataAdapter } from "obsidian";
import type { Timers } from "../core/timers";

export const OWNERS_FOLDER = "owners";
/** How often an instance looks whether the one before it has finished (its close takes a few adapter calls). */
const POLL_MS = 25;
/** Longer than any close should take: past it, an earlier instance that never finished is not waited for. */
const WAIT_LIMIT_MS = 10_000;

/** This window, as every instance in it sees it, and never the same in another window or after a restart. */
const thisWindow = () => Math.round(performance.timeOrigin * 1000).toString(36);

export interface TurnOptions {
	adapter: DataAdapter;
	/** The plugin folder, e.g. `manifest.dir`. */
	folder: string;
	timers: Timers;
	/** True once this instance is disabled: it then gives its turn up before it reads anything. */
	stopped: () => boolean;
	/** An earlier instance was not waited for (its claim outlived the wait limit). */
	warn: (message: string) => void;
}

export class StateTurn {
	private released: Promise<void> | null = null;

	private constructor(
		private readonly adapter: DataAdapter,
		private readonly claim: string,
	) {}

	/** Waits for this instance's turn; null when it was disabled first (it then holds no claim). */
	static async take(options: TurnOptions): Promise<StateTurn | null> {
		const { adapter, timers } = options;
		const owners = normalizePath(`${options.folder}/${OWNERS_FOLDER}`);
		if (!(await adapter.exists(owners))) await adapter.mkdir(owners);
		// Ordered by the window's clock: of two instances that wait, the one that claimed first goes first.
		const mine = {
			window: thisWindow(),
			order: Math.round(performance.now() * 1000),
			id: Math.random().toString(36).slice(2, 10).padEnd(8, "0"),
		};
		const turn = new StateTurn(adapter, `${owners}/${mine.window}-${mine.order.toString(36)}-${mine.id}`);
		await adapter.write(turn.claim, "");
		const giveUpAt = performance.now() + WAIT_LIMIT_MS;
		for (;;) {
			// Checked only once the claim is on disk: a later instance exists only after this one was disabled, so
			// either that instance sees this claim and waits, or this one sees it was disabled here and gives up.
			if (options.stopped()) {
				await turn.release();
				return null;
			}
			const earlier = await earlierClaims(adapter, owners, mine);
			if (earlier === 0) return turn;
			if (performance.now() > giveUpAt) {
				options.warn(
					`Revision Guard: an earlier instance of the plugin did not finish saving its state within ${WAIT_LIMIT_MS / 1000} ` +
						`s; starting without it.`,
				);
				return turn;
			}
			await new Promise<void>((resolve) => timers.schedule(resolve, POLL_MS));
		}
	}

	/** Hands the state on to the next instance (once; later calls wait for the first). */
	release(): Promise<void> {
		this.released ??= this.adapter.remove(this.claim);
		return this.released;
	}
}

/** How many claims of this window came before `mine`; claims of other windows are removed on the way. */
async function earlierClaims(
	adapter: DataAdapter,
	owners: string,
	mine: { window: string; order: number; id: string },
): Promise<number> {
	let earlier = 0;
	for (const path of (await adapter.list(owners)).files) {
		const [window, order, id] = path.slice(owners.length + 1).split("-");
		if (window !== mine.window) await adapter.remove(path).catch(() => undefined);
		else if (order !== undefined && id !== undefined && before(parseInt(order, 36), id, mine)) earlier++;
	}
	return earlier;
}

function before(order: number, id: string, mine: { order: number; id: string }): boolean {
	return order < mine.order || (order === mine.order && id < mine.id);
}
