// Lint: eslint-plugin-obsidianmd's recommended rules (which include eslint and typescript-eslint type-checked rules).
import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";

export default defineConfig([
	globalIgnores(["node_modules/", "main.js", "dist/", "demo-vault/", "test/artifacts/", "coverage/"]),
	...obsidianmd.configs.recommended,
	{
		languageOptions: {
			parserOptions: {
				projectService: { allowDefaultProject: ["eslint.config.mjs", "esbuild.config.mjs", "scripts/*.mjs"] },
				tsconfigRootDir: import.meta.dirname,
			},
		},
		rules: {
			// minAppVersion is below 1.13, so the settings tab must implement display() (require-display); the
			// declarative getSettingDefinitions() API arrives when minAppVersion is raised to 1.13.
			"obsidianmd/settings-tab/prefer-setting-definitions": "off",
		},
	},
	{
		// The headless host, the Node gateway, benchmarks, scripts, the agents' hook and tests are Node programs that never
		// run inside Obsidian: Obsidian's in-app rules (popout-window timers, configDir, DOM helpers) do not apply, and
		// printing is their UI. typescript-eslint's rules still do.
		files: [
			"src/headless/**",
			"src/vault/node-*.ts",
			"src/vault/atomic-file.ts",
			"bench/**",
			"scripts/**",
			"hooks/**",
			"test/**",
			"esbuild.config.mjs",
		],
		rules: {
			...Object.fromEntries(Object.keys(obsidianmd.rules).map((rule) => [`obsidianmd/${rule}`, "off"])),
			"no-console": "off",
			// vitest's asymmetric matchers (expect.any, expect.stringMatching) are typed `any`.
			"@typescript-eslint/no-unsafe-assignment": "off",
		},
	},
]);
