/**
 * What a session's tokenless writes are held to, captured when their request ARRIVES (REST captures it before reading
 * the body for the same reason): two write_note calls sent together after one read must not both land. Captured at
 * the tool call instead, the second could find the first already written, and be held to that (the session's own
 * write) rather than to the read both were based on.
 */
import { validateVaultPath, type PathPolicy } from "../core/path";
import type { HeldRead } from "../service/stores/read-ledger";

/** The tools whose missing revision stands for the session's last read (appends and edits need none). */
const HELD_TOOLS: ReadonlySet<string> = new Set(["write_note", "patch_note", "delete_note", "move_note"]);
/** Requests remembered per session until their tool runs; more in flight than this fall back to call-time capture. */
const MAX_PENDING = 256;

export class HeldAtArrival {
	/**
	 * By request id, kept apart by type (JSON-RPC's 1 and "1" are two ids); a list, because a client may reuse an id
	 * (in one batch, or while an earlier call of that id still runs), and each call must find its own capture.
	 */
	private readonly byRequest = new Map<string, { path: string; held: HeldRead | null }[]>();
	private size = 0;

	/** Notes, for every tools/call in this POST body that may be held, what it is held to now. */
	capture(body: unknown, policy: PathPolicy, hold: (path: string) => HeldRead | null): void {
		for (const message of Array.isArray(body) ? body : [body]) {
			const call = heldCall(message, policy);
			if (!call) continue;
			if (this.size >= MAX_PENDING) this.dropOldest();
			const entries = this.byRequest.get(call.id);
			const entry = { path: call.path, held: hold(call.path) };
			if (entries) entries.push(entry);
			else this.byRequest.set(call.id, [entry]);
			this.size++;
		}
	}

	/** What the call was held to on arrival (once), or undefined when nothing was captured for it and this path. */
	take(requestId: string | number, path: string): HeldRead | null | undefined {
		const key = keyOf(requestId);
		const entries = this.byRequest.get(key);
		if (!entries) return undefined;
		const index = entries.findIndex((entry) => entry.path === path);
		if (index === -1) return undefined;
		const [entry] = entries.splice(index, 1);
		this.size--;
		if (entries.length === 0) this.byRequest.delete(key);
		return entry!.held;
	}

	private dropOldest(): void {
		const [key, entries] = this.byRequest.entries().next().value!;
		entries.shift();
		this.size--;
		if (entries.length === 0) this.byRequest.delete(key);
	}
}

/** A request id as a map key that keeps a number apart from the string of its digits. */
function keyOf(id: string | number): string {
	return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

function heldCall(message: unknown, policy: PathPolicy): { id: string; path: string } | null {
	if (typeof message !== "object" || message === null) return null;
	const { method, id, params } = message as {
		method?: unknown;
		id?: unknown;
		params?: { name?: unknown; arguments?: { path?: unknown } };
	};
	if (method !== "tools/call" || (typeof id !== "string" && typeof id !== "number")) return null;
	if (typeof params?.name !== "string" || !HELD_TOOLS.has(params.name) || typeof params.arguments?.path !== "string")
		return null;
	const checked = validateVaultPath(params.arguments.path, policy, "note");
	return checked.ok ? { id: keyOf(id), path: checked.path } : null;
}
