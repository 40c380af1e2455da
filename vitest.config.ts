import { defineConfig } from "vitest/config";
import { fileURLToPath } from "url";

export default defineConfig({
	resolve: {
		// Obsidian ships types only; tests run against a small stub of the API.
		alias: { obsidian: fileURLToPath(new URL("./test/obsidian-stub/index.ts", import.meta.url)) },
	},
	test: {
		include: ["test/**/*.test.ts"],
		environment: "node",
		testTimeout: 30_000,
		hookTimeout: 30_000,
		pool: "forks",
	},
});
