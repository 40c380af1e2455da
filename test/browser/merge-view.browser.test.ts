/**
 * The merge view in a real browser (Debian's Chromium via playwright-core, no network): clicking through a merge,
 * typing, saving, cancelling, screenshots in both themes, and the open time of a 1 MB note.
 */
import { mkdirSync } from "fs";
import { join } from "path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MergeViewInput } from "../../src/ui/merge/merge-view";
import { launchChromium, openPage, servePage, type PageServer } from "./harness";
import { BASE, MINE, THEIRS } from "./sample";

const ARTIFACTS = join(__dirname, "../artifacts");
const INPUT: MergeViewInput = { notePath: "Projects/Launch plan.md", agentName: "claude-code", base: BASE, mine: MINE, theirs: THEIRS };

let server: PageServer | undefined;
let browser: Browser | undefined;
let page: Page;

/** Why the browser could not be set up; every test then fails with it (a missing Chromium must not pass as skipped). */
let setupError: Error | null = null;

beforeAll(async () => {
	mkdirSync(ARTIFACTS, { recursive: true });
	try {
		server = await servePage();
		browser = await launchChromium();
		page = await openPage(browser, server);
	} catch (error) {
		setupError = error instanceof Error ? error : new Error(String(error));
	}
});

beforeEach(() => {
	if (setupError !== null) throw setupError;
});

afterAll(async () => {
	await browser?.close();
	await server?.close();
});

async function mount(input: MergeViewInput): Promise<void> {
	await page.evaluate((value) => window.mountMergeView(value), input);
	await page.waitForFunction(() => window.record.openMs !== null);
}

const record = () => page.evaluate(() => window.record);
const conflict = (index: number) => page.locator(".revision-guard-merge-row-conflict").nth(index);
const choice = (index: number, name: string) => conflict(index).getByRole("button", { name, exact: true });

describe("merge view in Chromium", () => {
	it("saves exactly what was chosen and typed", async () => {
		await mount(INPUT);
		await expect.poll(() => page.locator(".revision-guard-merge-counter").textContent()).toBe("2 conflicts left");
		expect(await page.evaluate(() => document.activeElement?.classList.contains("revision-guard-merge-row-conflict"))).toBe(true);

		await choice(0, "Keep mine").click();
		await choice(1, "Take agent's").click();
		expect(await page.locator(".revision-guard-merge-counter").textContent()).toBe("All conflicts resolved");

		const partners = page.getByRole("textbox", { name: "Result: from your note" });
		await partners.click();
		await page.keyboard.press("Control+End");
		await page.keyboard.type(" Ana and Bo lead this.");
		expect(await partners.inputValue()).toBe("- Line up two launch partners. Ana and Bo lead this.");

		await page.getByRole("button", { name: "Save", exact: true }).click();
		await page.waitForFunction(() => window.record.saved !== null);
		const saved = await record();
		expect(saved.confirms).toEqual([]);
		expect(saved.saved).toBe(
			BASE.replace("50 testers by **June 14**", "80 testers by **June 14**")
				.replace("- Decide on pricing before the public launch.\n", "- Decide on pricing before the public launch.\n- Line up two launch partners. Ana and Bo lead this.\n")
				.replace("| 3 | Public launch |", "| 4 | Public launch |")
				.replace("Support docs are not written yet.", "Support docs are drafted; review is pending.")
				.replace("- Who owns the launch email?\n", "- Who owns the launch email?\n- Do we need a press kit?\n"),
		);
		expect(saved.summary).toEqual({ unresolved: 0 });
	});

	it("moves between conflicts with Alt+Arrow keys and cancels with Escape or Cancel, saving nothing", async () => {
		await mount(INPUT);
		await page.keyboard.press("Alt+ArrowDown");
		expect(await conflict(1).evaluate((row) => row === document.activeElement)).toBe(true);
		await page.keyboard.press("Escape");
		expect((await record()).cancelled).toBe(1);

		await page.getByRole("textbox", { name: "Result: from the agent" }).first().fill("| 5 | Public launch |");
		await page.getByRole("button", { name: "Cancel", exact: true }).click();
		const state = await record();
		expect(state.cancelled).toBe(2);
		expect(state.confirms).toEqual([]);
		expect(state.saved).toBeNull();
	});

	it("looks like a merge tool in the light and dark themes", async () => {
		await mount(INPUT);
		await choice(1, "Take agent's").click();
		await conflict(0).focus();
		expect(await page.locator(".revision-guard-merge-unresolved").count()).toBe(1);
		await page.screenshot({ path: join(ARTIFACTS, "merge-view.png") });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(ARTIFACTS, "merge-view-dark.png") });
		await page.getByRole("button", { name: "Show base", exact: true }).click();
		await page.screenshot({ path: join(ARTIFACTS, "merge-view-dark-base.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await mount({ ...INPUT, base: null });
		await page.locator(".revision-guard-merge-collapsed").first().scrollIntoViewIfNeeded();
		await page.screenshot({ path: join(ARTIFACTS, "merge-view-no-base.png") });
		// Every pane heading is visible side by side in one row.
		const headings = await page
			.locator(".revision-guard-merge-heading")
			.evaluateAll((elements) => elements.filter((element) => element.getClientRects().length > 0).map((element) => [element.textContent, element.getBoundingClientRect().top]));
		expect(headings.map(([text]) => text)).toEqual(["Your note", "Result", "Agent (claude-code)"]);
		expect(new Set(headings.map(([, top]) => top)).size).toBe(1);
	});

	it("opens a 1 MB note quickly, rendering collapsed stretches without text boxes", async () => {
		const lines = Array.from({ length: 12_000 }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog, then rests by the river bank.\n`);
		const base = lines.join("");
		// Every 1000 lines: line …10 changed by both (a conflict), line …510 by the agent only.
		const mine = lines.map((line, i) => (i % 1000 === 10 ? line.replace("fox", "fox (mine)") : line)).join("");
		const theirs = lines
			.map((line, i) => (i % 1000 === 10 ? line.replace("dog", "dog (agent)") : i % 1000 === 510 ? line.replace("fox", "fox (agent)") : line))
			.join("");
		expect(base.length).toBeGreaterThan(1_000_000);
		await mount({ ...INPUT, base, mine, theirs });
		const { openMs, constructMs } = await record();
		console.log(`Merge view, 1 MB note (12,000 lines): constructed in ${constructMs?.toFixed(0)} ms, on screen and interactive in ${openMs?.toFixed(0)} ms`);
		expect(await page.locator(".revision-guard-merge-counter").textContent()).toBe("12 conflicts left");
		expect(await page.locator("textarea").count()).toBeLessThan(200);
		expect(await page.locator(".revision-guard-merge-collapsed textarea").count()).toBe(0);
		await choice(0, "Keep mine").click();
		expect(await page.locator(".revision-guard-merge-counter").textContent()).toBe("11 conflicts left");

		// The same note changed densely: line 1 of every 20 by both sides (a conflict), line 11 by the agent alone.
		const every20 = (edit: (line: string, i: number) => string) => lines.map((line, i) => edit(line, i % 20)).join("");
		const denseMine = every20((line, i) => (i === 1 ? line.replace("fox", "fox (mine)") : line));
		const denseTheirs = every20((line, i) => (i === 1 ? line.replace("dog", "dog (agent)") : i === 11 ? line.replace("fox", "cat") : line));
		await mount({ ...INPUT, base, mine: denseMine, theirs: denseTheirs });
		const denseTimes = await record();
		const conflicts = await page.locator(".revision-guard-merge-counter").textContent();
		expect(conflicts).toBe("600 conflicts left");
		console.log(`Merge view, 1 MB note changed every 20 lines (${conflicts}): constructed in ${denseTimes.constructMs?.toFixed(0)} ms, on screen and interactive in ${denseTimes.openMs?.toFixed(0)} ms`);
		await choice(0, "Take agent's").click();
		expect(await page.locator(".revision-guard-merge-row-conflict.revision-guard-merge-resolved").count()).toBe(1);
	});
});
