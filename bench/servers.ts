/**
 * The servers the benchmark compares, each run in its own child process so the load generator does not share
 * an event loop with them:
 * - `revision-guard`: the real stack (NodeFsGateway + guard + ApiServer).
 * - `unguarded`: the same stack, but PUT writes straight through the gateway with no token check, history or base
 *   retention. This switch exists only here, in the benchmark; the plugin has no way to turn the guard off.
 * - `bare`: a plain Node http server that reads the same file and returns the same bytes.
 */
import { createServer } from "http";
import { readFile } from "fs/promises";
import { join } from "path";
import { decodeUrlPath } from "../src/core/path";
import { openFolder, openFolderGuard } from "../src/headless/folder-guard";
import { json } from "../src/http/response";
import type { Route } from "../src/http/router";
import { ROUTES } from "../src/http/routes";
import { createApiServer } from "../src/host/api-server";
import type { VaultGateway } from "../src/vault/gateway";
import { DEFAULT_SETTINGS } from "../src/settings";

export const BENCH_KEY = "bench-key-0123456789abcdef0123456789abcdef";

export async function startServer(kind: string, vault: string): Promise<number> {
	if (kind === "bare") {
		const server = createServer((req, res) => {
			const path = decodeURIComponent((req.url ?? "/").slice("/vault/".length));
			readFile(join(vault, path)).then(
				(bytes) => {
					res.writeHead(200, { "Content-Type": "text/markdown; charset=utf-8", "Content-Length": bytes.length });
					res.end(bytes);
				},
				() => {
					res.writeHead(404);
					res.end();
				},
			);
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		return (server.address() as { port: number }).port;
	}
	const settings = { ...structuredClone(DEFAULT_SETTINGS), keys: [{ name: "bench", key: BENCH_KEY, created: "2026-01-01" }] };
	const guard = await openFolderGuard(await openFolder(vault), () => settings);
	guard.tracker.start();
	await guard.tracker.reconcile();
	const routes = kind === "unguarded" ? withUnguardedPut(guard.gateway) : ROUTES;
	const server = createApiServer(guard.notes, { routes });
	return server.listen(0);
}

function withUnguardedPut(gateway: VaultGateway): Route[] {
	return ROUTES.map((route) =>
		route.template !== "/vault/{path}"
			? route
			: {
					...route,
					handlers: {
						...route.handlers,
						PUT: async (context) => {
							const decoded = decodeUrlPath(context.rest);
							const body = await context.body();
							if (!decoded.ok) return json(400, {});
							await gateway.mutate(decoded.path, () => ({ kind: "write", content: body, result: null }));
							return { status: 204 };
						},
					},
				},
	);
}
