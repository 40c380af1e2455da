/**
 * The headless host takes its port before it creates anything: a start that fails on a busy port must leave the
 * folder as it was (no `.revision-guard/`, no new key). A plain socket holds the port while the guard opens and
 * reconciles; it is let go just before the API listens on the same port.
 */
import { createServer, type Server } from "net";
import { revisionGuardOn } from "../http/listener";

export interface HeldPort {
	/** The port held (the one the system picked, for port 0). */
	port: number;
	release(): Promise<void>;
}

export type PortAttempt = { held: HeldPort } | { busy: string };

export async function holdPort(port: number, address: string): Promise<PortAttempt> {
	// Connections that arrive meanwhile (another host asking who holds the port) are closed at once.
	const server = createServer((socket) => socket.destroy());
	try {
		await new Promise<void>((resolve, reject) => {
			server.once("error", reject);
			server.listen({ port, host: address, exclusive: true }, () => resolve());
		});
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EADDRINUSE") return { busy: portInUse(port, await revisionGuardOn(port)) };
		return {
			busy: `The API cannot listen on ${address}:${port} (${code ?? String(error)}); pick another port with --port N.`,
		};
	}
	return { held: { port: (server.address() as { port: number }).port, release: () => closeServer(server) } };
}

/** What the headless host says when its port is taken (here, or by the listener if it is taken in the last instant). */
export function portInUse(port: number, otherVault: string | null): string {
	if (otherVault !== null)
		return `Port ${port} is already used by Revision Guard for the vault "${otherVault}"; pick another with --port N.`;
	return `Port ${port} is in use; pick another with --port N.`;
}

function closeServer(server: Server): Promise<void> {
	return new Promise((resolve) => server.close(() => resolve()));
}
