/** Writes BENCHMARKS.md: one table of measured figures, their baselines, ratios and targets. */
import { writeFile } from "fs/promises";

export interface Row {
	measure: string;
	ours: number;
	baseline: number | null;
	unit: string;
	target: string;
	/** null for figures that are reported, not judged. */
	pass: boolean | null;
}

/** Units of time: the ratio is baseline ÷ ours, so higher is better in every row. */
const LOWER_IS_BETTER = new Set(["ms", "µs"]);

/** Counts as they are; measurements to about three significant digits. */
const format = (value: number) =>
	Number.isInteger(value) || value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

export async function writeReport(
	path: string,
	rows: Row[],
	context: { machine: string; method: string },
): Promise<void> {
	const lines = [
		"# Benchmarks",
		"",
		"Written by `npm run bench`; do not edit by hand. Targets are ratios measured side by side in one run (or",
		"plain bounds where the issue sets one), so a noisy shared machine slows both sides alike. Nothing here is",
		"asserted in the test suite.",
		"",
		`- Date: ${new Date().toISOString()}`,
		`- Machine: ${context.machine}`,
		`- Method: ${context.method}`,
		"",
		"| measure | ours | baseline | ratio | target | met |",
		"|---|---:|---:|---:|---|---|",
		...rows.map((row) => {
			const ratio =
				row.baseline === null
					? ""
					: LOWER_IS_BETTER.has(row.unit)
						? `${(row.baseline / row.ours).toFixed(2)}×`
						: `${(row.ours / row.baseline).toFixed(2)}×`;
			const baseline = row.baseline === null ? "" : `${format(row.baseline)} ${row.unit}`;
			const met = row.pass === null ? "—" : row.pass ? "yes" : "**no**";
			return `| ${row.measure} | ${format(row.ours)} ${row.unit} | ${baseline} | ${ratio} | ${row.target} | ${met} |`;
		}),
		"",
		"For time rows the ratio is baseline ÷ ours (p99 for latency), so higher is better everywhere.",
		"",
	];
	await writeFile(path, lines.join("\n"));
}
