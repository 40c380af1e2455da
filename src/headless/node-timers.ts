/** Node's timers, for the headless host and tests. */
import type { Timers } from "../core/timers";

export const nodeTimers: Timers = {
	schedule: (callback, ms) => setTimeout(callback, ms),
	cancel: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout> | undefined),
};
