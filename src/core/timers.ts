/**
 * Timers are injected: inside Obsidian they are the window's (popout-safe, per Obsidian's guidelines), in the
 * headless host and in tests they are Node's. Services never reach for a global timer themselves.
 */
export interface Timers {
	schedule(callback: () => void, ms: number): unknown;
	cancel(handle: unknown): void;
}
