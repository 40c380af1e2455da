/**
 * Owns the API server's listening socket for a host: one start or restart at a time (changing the port while the
 * server is still starting never listens twice), the status line a person sees, and clear words when the port is
 * taken, naming the vault whose Revision Guard holds it when that is what answers there.
 */
import { request } from "http";
import { isLoopback } from "./security";
import { LOOPBACK, type ApiServer } from "./server";
import { SERVICE_NAME } from "./routes/service";

export interface ListenerHooks {
	/** A message the person must see (a notice in Obsidian, stderr headless). */
	warn: (message: string) => void;
	/**
	 * What to say when the port is taken, in this host's words for picking another; `otherVault` names the vault
	 * when Revision Guard itself holds it. Without it, the plugin's words (a port in settings).
	 */
	portInUse?: (port: number, otherVault: string | null) => string;
}

export class ApiListener {
	private server: ApiServer | null = null;
	private error: string | null = null;
	private queue: Promise<void> = Promise.resolve();
	private stopped = false;

	constructor(
		/** Builds a fresh server (with its mounts) for each start. */
		private readonly createServer: () => ApiServer,
		private readonly hooks: ListenerHooks,
	) {}

	/** Starts listening, or listens again on a changed address; calls run one after another. */
	listen(port: number, host = LOOPBACK): Promise<void> {
		return this.serially(async () => {
			await this.closeServer();
			if (this.stopped) return;
			const server = this.createServer();
			try {
				await server.listen(port, host);
			} catch (error) {
				await server.close();
				this.error = await describeListenError(error, port, this.hooks.portInUse);
				this.hooks.warn(`Revision Guard: ${this.error}`);
				return;
			}
			this.server = server;
			this.error = null;
			if (!isLoopback(host))
				this.hooks.warn(
					`Revision Guard: the agent API listens on ${host}, beyond this computer. Keys travel ` +
						`unencrypted; prefer 127.0.0.1.`,
				);
		});
	}

	/** Stops listening for good (the plugin unloads); a start still queued then does nothing. */
	close(): Promise<void> {
		this.stopped = true;
		return this.serially(() => this.closeServer());
	}

	/** Records why the API could not start at all (the guard failed to open, say). */
	failed(message: string): void {
		this.error = message;
	}

	get port(): number | null {
		return this.server?.boundPort ?? null;
	}

	/** One line for the person: where the API listens, or why it does not. */
	status(host: string): string {
		if (this.error) return this.error;
		if (!this.server) return "Starting…";
		return `Listening on http://${host}:${this.server.boundPort}`;
	}

	private serially(task: () => Promise<void>): Promise<void> {
		this.queue = this.queue.then(task, task);
		return this.queue;
	}

	private async closeServer(): Promise<void> {
		const server = this.server;
		this.server = null;
		await server?.close();
	}
}

/** Why listening failed, in words: a taken port names the vault whose Revision Guard holds it, when one does. */
async function describeListenError(
	error: unknown,
	port: number,
	portInUse?: ListenerHooks["portInUse"],
): Promise<string> {
	const code = (error as NodeJS.ErrnoException).code;
	if (code !== "EADDRINUSE") return `The agent API could not start (${code ?? "unknown error"}).`;
	const other = await revisionGuardOn(port);
	if (portInUse) return portInUse(port, other);
	if (other !== null)
		return (
			`Port ${port} is already used by Revision Guard for the vault "${other}". Give this ` +
			`vault another port in settings.`
		);
	return `Port ${port} is in use by another program. Choose another port in settings.`;
}

/** The vault name Revision Guard reports on 127.0.0.1:`port` (its `GET /` needs no key), or null. */
export function revisionGuardOn(port: number): Promise<string | null> {
	return new Promise((resolve) => {
		const req = request(
			{ host: LOOPBACK, port, path: "/", headers: { Host: `${LOOPBACK}:${port}` }, timeout: 1_000 },
			(res) => {
				let text = "";
				res.setEncoding("utf8");
				res.on("data", (chunk: string) => {
					if (text.length < 4_096) text += chunk;
				});
				res.on("end", () => {
					try {
						const body = JSON.parse(text) as { service?: unknown; vault?: unknown };
						resolve(body.service === SERVICE_NAME && typeof body.vault === "string" ? body.vault : null);
					} catch {
						resolve(null);
					}
				});
			},
		);
		req.on("timeout", () => req.destroy());
		req.on("error", () => resolve(null));
		req.end();
	});
}
