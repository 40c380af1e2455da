/**
 * Starting a host, the same way for the Obsidian plugin and the headless CLI: a key on first run, then open the
 * guard, start tracking, listen (answering "starting up" to requests about notes), reconcile what changed while the
 * host was down, and only then answer them, with clear words
 * when the port is taken and a warning when the address reaches beyond this computer. Each host supplies what
 * differs: how it opens its vault, saves its settings and tells the person things.
 */
import { ApiListener } from "../http/listener";
import type { RevisionGuard } from "./revision-guard";
import type { ReconcileReport } from "../service/revisions/revision-tracker";
import type { AgentKey, RevisionGuardSettings } from "../settings";
import { createApiServer } from "./api-server";
import { addFirstKey } from "./first-key";

export interface HostOptions {
	settings: () => RevisionGuardSettings;
	/** Saves the settings (a first key was just made). */
	saveSettings: () => Promise<void>;
	/** Keys that exist elsewhere (another device's): a first key is named so it does not clash with them. */
	otherKeyNames?: readonly string[];
	/** Null when the host was stopped before anything was opened (the plugin, disabled while it waited for its state). */
	openGuard: () => Promise<RevisionGuard | null>;
	/** Called once the guard is open, before tracking starts (the plugin's conflict UI listens from here). */
	opened?: (guard: RevisionGuard) => void;
	/** Start-up reconcile progress. */
	onProgress?: (done: number, total: number) => void;
	/** A message the person must see (a notice in Obsidian, stderr headless). */
	warn: (message: string) => void;
	/** How this host's person picks another port when the port is taken (`otherVault`: Revision Guard holds it). */
	portInUse?: (port: number, otherVault: string | null) => string;
	/** Called just before the API listens (the headless host lets go of the port it held from the start). */
	beforeListen?: () => Promise<void>;
	/** Unexpected errors of requests (never sent to clients). */
	onError: (error: unknown) => void;
	/** True once the host is being stopped (the plugin disabled mid-start): then no port is opened. */
	stopped?: () => boolean;
}

export interface Host {
	guard: RevisionGuard;
	listener: ApiListener;
	reconcile: ReconcileReport;
	/** The key made on this first run, if one was. */
	firstKey: AgentKey | null;
	close: () => Promise<void>;
}

/** Starts the host, or resolves null when it was stopped while starting (everything opened is closed again). */
export async function startHost(options: HostOptions): Promise<Host | null> {
	const firstKey = addFirstKey(options.settings(), options.otherKeyNames ?? []);
	if (firstKey) await options.saveSettings();
	const guard = await options.openGuard();
	if (!guard) return null;
	const stopIfAsked = async () => {
		if (!options.stopped?.()) return false;
		await guard.close();
		return true;
	};
	if (await stopIfAsked()) return null;
	options.opened?.(guard);
	guard.tracker.start();
	// Listening before the reconcile: until it is done, requests about notes are answered "starting up, retry"
	// (StartupReadiness), so a client learns at once that the host is there and when to come back.
	guard.readiness.begin();
	const listener = new ApiListener(() => createApiServer(guard.notes, { onError: options.onError }), {
		warn: options.warn,
		...(options.portInUse ? { portInUse: options.portInUse } : {}),
	});
	const settings = options.settings();
	await options.beforeListen?.();
	await listener.listen(settings.port, settings.bindAddress);
	let reconcile: ReconcileReport;
	let lettingGo = false;
	try {
		reconcile = await guard.tracker.reconcile((done, total) => {
			guard.readiness.noted(done, total);
			options.onProgress?.(done, total);
			// Stopped meanwhile (the plugin disabled): the port is let go at once, so an instance enabled again can
			// take it, rather than when this reconcile is done.
			if (!lettingGo && options.stopped?.()) {
				lettingGo = true;
				listener.close().catch(options.onError);
			}
		});
	} catch (error) {
		await listener.close();
		throw error;
	}
	guard.readiness.markReady();
	// Stopped while reconciling: the port opened for a guard that is being closed is closed too.
	if (options.stopped?.()) {
		await listener.close();
		await guard.close();
		return null;
	}
	return {
		guard,
		listener,
		reconcile,
		firstKey,
		async close() {
			await listener.close();
			await guard.close();
		},
	};
}
