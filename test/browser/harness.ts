/** Browser test harness: bundles the test page, serves it from 127.0.0.1 and launches Debian's Chromium (no network). */
import { build } from "esbuild";
import { accessSync, constants, existsSync, readFileSync } from "fs";
import { createServer, type Server } from "http";
import type { AddressInfo } from "net";
import { join } from "path";
import { chromium, type Browser, type Page } from "playwright-core";

/** This folder, also when the harness is bundled elsewhere (the benchmark runs it from dist/). */
const HERE = existsSync(join(__dirname, "page.ts")) ? __dirname : join(process.cwd(), "test/browser");
const ROOT = join(HERE, "../..");
/**
 * Debian's Chromium, or the one REVISION_GUARD_CHROMIUM names (Chromium installed elsewhere; a path with nothing there
 * runs the suite as on a machine without Chromium).
 */
export const CHROMIUM = process.env.REVISION_GUARD_CHROMIUM || "/usr/bin/chromium";

/** Why the browser tests cannot run here (no Chromium at CHROMIUM), or null when they can. */
export function chromiumMissing(executable = CHROMIUM): string | null {
	try {
		accessSync(executable, constants.X_OK);
		return null;
	} catch {
		return `no Chromium at ${executable} (apt-get install chromium, or set REVISION_GUARD_CHROMIUM to its path)`;
	}
}

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Merge view</title>
<link rel="stylesheet" href="/obsidian-theme.css">
<link rel="stylesheet" href="/styles.css">
</head>
<body class="theme-light">
<div class="modal-container">
<div class="modal-bg"></div>
<div class="modal revision-guard-merge-modal" role="dialog" aria-labelledby="modal-title">
<div class="modal-header"><div class="modal-title" id="modal-title">Merge the agent's changes</div></div>
<div class="modal-content" id="host"></div>
</div>
</div>
<script src="/page.js"></script>
</body>
</html>`;

export interface PageServer {
	url: string;
	close(): Promise<void>;
}

/** Serves the page, its bundle, the plugin's styles.css and an Obsidian-like theme; nothing else. */
export async function servePage(): Promise<PageServer> {
	const bundle = await build({
		entryPoints: [join(HERE, "page.ts")],
		bundle: true,
		write: false,
		format: "iife",
		platform: "browser",
		target: "es2022",
		logLevel: "silent",
	});
	const script = bundle.outputFiles[0]?.text ?? "";
	const files = new Map<string, { type: string; body: string }>([
		["/", { type: "text/html", body: HTML }],
		["/page.js", { type: "text/javascript", body: script }],
		["/styles.css", { type: "text/css", body: readFileSync(join(ROOT, "styles.css"), "utf8") }],
		["/obsidian-theme.css", { type: "text/css", body: readFileSync(join(HERE, "obsidian-theme.css"), "utf8") }],
	]);
	const server: Server = createServer((request, response) => {
		const file = files.get((request.url ?? "/").split("?")[0] ?? "/");
		if (!file) {
			response.writeHead(404).end();
			return;
		}
		response
			.writeHead(200, { "Content-Type": `${file.type}; charset=utf-8`, "Cache-Control": "no-store" })
			.end(file.body);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** Fails loudly when Chromium is missing or cannot start (the tests decide beforehand whether to skip). */
export async function launchChromium(): Promise<Browser> {
	try {
		return await chromium.launch({
			executablePath: CHROMIUM,
			args: [
				"--headless",
				"--no-sandbox",
				"--disable-gpu",
				"--disable-quic",
				"--no-first-run",
				"--disable-background-networking",
				"--disable-component-update",
				"--disable-sync",
			],
		});
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new Error(
			`The browser tests need Chromium at ${CHROMIUM} (Debian's: apt-get install -y chromium; or set REVISION_GUARD_CHROMIUM to ` +
				`another one), and it could not be launched (under CI a missing Chromium fails rather than skips): ${reason}`,
		);
	}
}

/** A page that can reach only our server: any other request is refused before it leaves the browser. */
export async function openPage(browser: Browser, server: PageServer, width = 1200, height = 800): Promise<Page> {
	const page = await browser.newPage({ viewport: { width, height } });
	const errors: string[] = [];
	page.on("pageerror", (error) => errors.push(error.message));
	await page.route("**/*", (route) =>
		route.request().url().startsWith(server.url) ? route.continue() : route.abort(),
	);
	await page.goto(server.url);
	await page.waitForFunction(() => typeof window.mountMergeView === "function");
	if (errors.length > 0) throw new Error(`The page failed: ${errors.join("; ")}`);
	return page;
}
