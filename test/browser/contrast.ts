/**
 * Text contrast as the browser computes it (bundled into the test page): each element's text colour against the
 * backgrounds behind it, composited up to the first opaque one, as a WCAG 2 contrast ratio.
 */
export interface ContrastSample {
	selector: string;
	text: string;
	color: string;
	background: string;
	ratio: number;
}

type Rgba = [number, number, number, number];

/** Computed colours come as rgb()/rgba() or, for color-mix, as color(srgb r g b / a). */
export function parseColor(value: string): Rgba {
	const rgb = /^rgba?\(([^)]+)\)$/.exec(value);
	if (rgb?.[1] !== undefined) {
		const [r = 0, g = 0, b = 0, a = 1] = rgb[1]
			.split(/[\s,/]+/)
			.filter(Boolean)
			.map(Number);
		return [r, g, b, a];
	}
	const srgb = /^color\(srgb ([^)]+)\)$/.exec(value);
	if (srgb?.[1] !== undefined) {
		const [r = 0, g = 0, b = 0, a = 1] = srgb[1]
			.split(/[\s/]+/)
			.filter(Boolean)
			.map(Number);
		return [r * 255, g * 255, b * 255, a];
	}
	throw new Error(`Unexpected computed colour ${value}`);
}

function over(top: Rgba, bottom: Rgba): Rgba {
	const a = top[3] + bottom[3] * (1 - top[3]);
	if (a === 0) return [0, 0, 0, 0];
	const mix = (i: 0 | 1 | 2) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
	return [mix(0), mix(1), mix(2), a];
}

function luminance([r, g, b]: Rgba): number {
	const channel = (value: number) => {
		const c = value / 255;
		return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: Rgba, b: Rgba): number {
	const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
	return (light + 0.05) / (dark + 0.05);
}

/** The colour behind an element: its own and its ancestors' backgrounds, composited over white. */
function backgroundOf(element: Element): Rgba {
	const layers: Rgba[] = [];
	for (let at: Element | null = element; at !== null; at = at.parentElement) {
		const layer = parseColor(getComputedStyle(at).backgroundColor);
		if (layer[3] > 0) layers.push(layer);
		if (layer[3] >= 1) break;
	}
	return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
}

/** Every visible element matching each selector; `pseudo` reads a ::before or ::placeholder colour. */
export function contrastSamples(selectors: readonly { selector: string; pseudo?: string }[]): ContrastSample[] {
	const samples: ContrastSample[] = [];
	for (const { selector, pseudo } of selectors) {
		for (const element of Array.from(document.querySelectorAll(selector))) {
			if (element.getClientRects().length === 0) continue;
			const background = backgroundOf(element);
			const color = over(parseColor(getComputedStyle(element, pseudo ?? null).color), background);
			samples.push({
				selector: pseudo === undefined ? selector : `${selector}${pseudo}`,
				text: (element.textContent ?? "").slice(0, 40),
				color: color.map((n) => Math.round(n)).join(","),
				background: background.map((n) => Math.round(n)).join(","),
				ratio: Math.round(contrastRatio(color, background) * 100) / 100,
			});
		}
	}
	return samples;
}
