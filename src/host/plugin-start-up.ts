/**
 * What the plugin needs only once the workspace is ready: the guard, its Obsidian adapters and the host (the REST
 * routes, the merge engine, search, yaml), and the person's modals. main.ts loads this module with `import()` when it starts the host, so
 * esbuild evaluates it then, not while Obsidian loads main.js. It stays one file (no code splitting).
 */
export { ConflictUi } from "../ui/conflict-ui";
export { historyViews } from "../ui/history-views";
export { proposalViews } from "../ui/proposal-views";
export { openObsidianGuard } from "./obsidian-guard";
export { startHost } from "./start-host";
