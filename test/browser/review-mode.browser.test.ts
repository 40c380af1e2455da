/**
 * The merge view's review mode (a proposal) in a real browser (Debian's Chromium via playwright-core, no network):
 * accepting and rejecting by clicking, body text at WCAG AA contrast, and screenshots in both themes
 * (test/artifacts/review-mode*.png; docs/review-mode*.png are copies of the plain review and the merge, taken by this test).
 */
import { mkdirSync } from "fs";
import { join } from "path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MergeViewInput } from "../../src/ui/merge/merge-view";
import { skipNote } from "../helpers/prerequisites";
import { chromiumMissing, launchChromium, openPage, servePage, type PageServer } from "./harness";
import { BASE, MINE, THEIRS } from "./sample";

const ARTIFACTS = join(__dirname, "../artifacts");
const CLS = "revision-guard-merge";
/** The launch plan, unchanged since claude-code proposed its version: the note is base and mine, as the modal passes it. */
const REVIEW: MergeViewInput = {
	notePath: "Projects/Launch plan.md",
	agentName: "claude-code",
	base: BASE,
	mine: BASE,
	theirs: THEIRS,
	agentWroteAt: "2026-11-23T05:42:00.000Z",
	backupPath: "Projects/Launch plan.20261123-054200.bak.md",
	review: { changedSince: false },
};
const TEXT = [
	{ selector: `.${CLS}-cell .${CLS}-side .${CLS}-line` },
	{ selector: `textarea.${CLS}-text` },
	{ selector: `.${CLS}-heading` },
	{ selector: `.${CLS}-block-label` },
	{ selector: `.${CLS}-counter` },
	{ selector: `.${CLS}-title` },
	{ selector: `.${CLS}-review-intro` },
	{ selector: `textarea.${CLS}-reject-note` },
	{ selector: `textarea.${CLS}-reject-note`, pseudo: "::placeholder" },
	{ selector: `ins.${CLS}-added` },
	{ selector: `.${CLS} button:not(.mod-cta):not(.mod-warning)` },
];

let server: PageServer | undefined;
let browser: Browser | undefined;
let page: Page;
const skipWhy = skipNote(chromiumMissing());
let setupError: Error | null = null;

beforeAll(async () => {
	if (skipWhy !== null) return;
	mkdirSync(ARTIFACTS, { recursive: true });
	try {
		server = await servePage();
		browser = await launchChromium();
		page = await openPage(browser, server);
	} catch (error) {
		setupError = error instanceof Error ? error : new Error(String(error));
	}
});

beforeEach((context) => {
	if (skipWhy !== null) context.skip(skipWhy);
	if (setupError !== null) throw setupError;
});

afterAll(async () => {
	await browser?.close();
	await server?.close();
});

async function setTheme(theme: "light" | "dark"): Promise<void> {
	await page.evaluate((name) => (document.body.className = `theme-${name}`), theme);
}

async function screenshots(name: string): Promise<void> {
	await setTheme("light");
	await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
	await setTheme("dark");
	await page.screenshot({ path: join(ARTIFACTS, `${name}-dark.png`) });
	await setTheme("light");
}

async function mount(input: MergeViewInput): Promise<void> {
	await page.evaluate((value) => {
		window.mountMergeView(value);
		document.getElementById("modal-title")!.textContent = `Review ${value.agentName}'s proposal for ${value.notePath}`;
	}, input);
	await page.waitForFunction(() => window.record.openMs !== null);
}

const record = () => page.evaluate(() => window.record);
const footerButton = (name: string) => page.locator(`.${CLS}-footer`).getByRole("button", { name, exact: true });

describe("review mode in Chromium", () => {
	it("accepts the proposal as sent, or what is left once a change is unticked", async () => {
		await mount(REVIEW);
		expect(await page.locator(`.${CLS}-counter`).textContent()).toBe("No conflicts");
		await footerButton("Accept").click();
		await page.waitForFunction(() => window.record.saved !== null);
		expect((await record()).saved).toBe(THEIRS);

		await mount(REVIEW);
		await page.getByRole("checkbox", { name: "Keep the agent's change" }).first().uncheck();
		await footerButton("Accept with edits").click();
		await page.waitForFunction(() => window.record.saved !== null);
		const saved = (await record()).saved!;
		expect(saved).not.toBe(THEIRS);
		expect(saved).not.toBe(BASE);
	});

	it("rejects with a typed note, writing nothing", async () => {
		await mount(REVIEW);
		await footerButton("Reject…").click();
		await page.keyboard.type("Keep the beta at 50 testers.");
		await footerButton("Reject proposal").click();
		await page.waitForFunction(() => window.record.rejected !== null);
		const state = await record();
		expect(state.rejected).toBe("Keep the beta at 50 testers.");
		expect(state.saved).toBeNull();
	});

	it("keeps body text at WCAG AA contrast (4.5:1) in the light and dark themes", async () => {
		await mount(REVIEW);
		await footerButton("Reject…").click();
		for (const theme of ["light", "dark"] as const) {
			await setTheme(theme);
			const samples = await page.evaluate((selectors) => window.contrastSamples(selectors), TEXT);
			expect(samples.length).toBeGreaterThan(30);
			const low = samples.filter((sample) => sample.ratio < 4.5);
			if (low.length > 0) console.log(theme, JSON.stringify(low));
			expect({ theme, low }).toEqual({ theme, low: [] });
		}
		await setTheme("light");
	});

	it("looks like the merge view, in review mode, in the light and dark themes", async () => {
		await mount(REVIEW);
		await page.locator(`.${CLS}-cell-result textarea`).nth(1).focus();
		await screenshots("review-mode");
		await footerButton("Reject…").click();
		await page.keyboard.type("Keep the beta at 50 testers; the rest is fine.");
		await screenshots("review-mode-reject");
		// The note changed since the proposal: the three-way merge, with Accept merge.
		await mount({ ...REVIEW, mine: MINE, review: { changedSince: true } });
		expect(await footerButton("Accept merge").count()).toBe(1);
		await screenshots("review-mode-merge");
	});
});
