/** Merge modal open-to-interactive time for a 1 MB note, in headless Chromium (the browser test's page). */
import { launchChromium, openPage, servePage } from "../test/browser/harness";

export interface ModalFigures {
	constructMs: number;
	openMs: number;
}

export async function measureModalOpen(): Promise<ModalFigures> {
	const lines = Array.from(
		{ length: 12_000 },
		(_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog, then rests by the river bank.\n`,
	);
	const base = lines.join("");
	const mine = lines.map((line, i) => (i % 1000 === 10 ? line.replace("fox", "fox (mine)") : line)).join("");
	const theirs = lines
		.map((line, i) =>
			i % 1000 === 10
				? line.replace("dog", "dog (agent)")
				: i % 1000 === 510
					? line.replace("fox", "fox (agent)")
					: line,
		)
		.join("");
	const server = await servePage();
	const browser = await launchChromium();
	try {
		const page = await openPage(browser, server);
		const samples: ModalFigures[] = [];
		for (let i = 0; i < 5; i++) {
			await page.evaluate((input) => window.mountMergeView(input), {
				notePath: "Big.md",
				agentName: "bench",
				base,
				mine,
				theirs,
			});
			await page.waitForFunction(() => window.record.openMs !== null);
			const record = await page.evaluate(() => window.record);
			samples.push({ constructMs: record.constructMs ?? 0, openMs: record.openMs ?? 0 });
		}
		// The first mount pays for compiling the page's code; the median of the rest is what a person sees.
		const rest = samples.slice(1).sort((a, b) => a.openMs - b.openMs);
		return rest[Math.floor(rest.length / 2)]!;
	} finally {
		await browser.close();
		await server.close();
	}
}
