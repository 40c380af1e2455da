/**
 * One benchmark server in its own process (bench.ts forks this file): it loads the server under test and nothing
 * else. The benchmark's own tools (Chromium's driver among them) patch Node's fs module when loaded, which would tax
 * the server's every file call and measure something no real host runs.
 */
import { startServer } from "./servers";

const [kind, vault] = process.argv.slice(2);
// Stopped by the benchmark: exiting (rather than being killed) lets `--cpu-prof` write its profile.
process.on("SIGTERM", () => process.exit(0));
startServer(kind!, vault!).then(
	(port) => process.send?.({ port }),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
