/** Which note a period names for a day, the days a dated URL can name, and templates filled in for a day. */
import { describe, expect, it } from "vitest";
import { formatDate } from "../../../src/core/periodic/date-format";
import {
	calendarDay,
	defaultPeriodSettings,
	fillTemplate,
	isPeriod,
	periodicNotePath,
	templateNotePath,
} from "../../../src/core/periodic/periods";

const DAY = new Date(2026, 2, 5, 12);

describe("periodicNotePath", () => {
	it("puts the formatted day in the folder, with .md; a / in the format makes folders", () => {
		const settings = defaultPeriodSettings();
		expect(periodicNotePath(settings.daily, DAY, formatDate)).toEqual({
			ok: true,
			path: "2026-03-05.md",
			title: "2026-03-05",
		});
		expect(periodicNotePath({ folder: "/Journal/", format: "YYYY/MM/DD", template: "" }, DAY, formatDate)).toEqual({
			ok: true,
			path: "Journal/2026/03/05.md",
			title: "05",
		});
		expect(periodicNotePath({ folder: "", format: "  ", template: "" }, DAY, formatDate)).toEqual({
			ok: true,
			path: "2026-03-05.md",
			title: "2026-03-05",
		});
	});

	it("says which token it cannot format", () => {
		expect(periodicNotePath({ folder: "", format: "LL", template: "" }, DAY, formatDate)).toEqual({
			ok: false,
			token: "LL",
		});
	});
});

describe("calendarDay", () => {
	it("names real days only", () => {
		expect(calendarDay(2024, 2, 29)?.getDate()).toBe(29);
		for (const [year, month, day] of [
			[2026, 2, 29],
			[2026, 13, 1],
			[2026, 0, 1],
			[2026, 4, 31],
			[0, 1, 1],
			[10000, 1, 1],
			[2026, 1.5, 1],
		]) {
			expect(calendarDay(year!, month!, day!), `${year}/${month}/${day}`).toBeNull();
		}
	});
});

describe("fillTemplate", () => {
	it("fills title, date (in the note's format or its own), and time; leaves what it cannot format", () => {
		const filled = fillTemplate(
			"# {{title}}\n{{date}} {{ date:dddd }} {{time}} {{time:h a}} {{date:LL}} {{unknown}}\n",
			{ date: new Date(2026, 2, 5, 9, 7), noteFormat: "YYYY-MM-DD", title: "Today", format: formatDate },
		);
		expect(filled).toBe("# Today\n2026-03-05 Thursday 09:07 9 am {{date:LL}} {{unknown}}\n");
	});
});

describe("names", () => {
	it("knows the five periods and a template's path, .md added when left out", () => {
		expect(["daily", "weekly", "monthly", "quarterly", "yearly"].every(isPeriod)).toBe(true);
		expect(isPeriod("hourly")).toBe(false);
		expect(templateNotePath({ folder: "", format: "", template: "Templates/Daily" })).toBe("Templates/Daily.md");
		expect(templateNotePath({ folder: "", format: "", template: "/Templates/Daily.MD" })).toBe("Templates/Daily.MD");
		expect(templateNotePath({ folder: "", format: "", template: " " })).toBeNull();
	});
});
