/**
 * Moment.js date formats (the "Date format" of Obsidian's daily notes), formatted without moment: the headless host
 * names periodic notes with this, in the English locale moment starts in (weeks start on Sunday, and week 1 is the
 * week holding January 1st; `W`/`G` tokens are ISO weeks). Inside Obsidian, Obsidian's own moment formats instead, so
 * a person's locale names notes exactly as Obsidian does. A token this does not know (localized formats such as `LL`,
 * eras, time zones, fractions of a second) is refused rather than written out wrong.
 */

const MONTHS = [
	"January",
	"February",
	"March",
	"April",
	"May",
	"June",
	"July",
	"August",
	"September",
	"October",
	"November",
	"December",
];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const DAY_MS = 86_400_000;

export type FormatResult = { ok: true; text: string } | { ok: false; token: string };

/**
 * Bracketed literals, then moment's tokens longest first, then any other single character (which moment copies as
 * is). A backslash before a token makes it literal. `L`/`l` are localized formats and the rest are tokens we refuse.
 */
const TOKENS =
	/\[[^[]*\]|(\\)?(LTS|LT|L{1,4}|l{1,4}|YYYYYY|YYYYY|YYYY|YY|y{2,4}|yo|ggggg|gggg|gg|GGGGG|GGGG|GG|Mo|MMMM|MMM|MM|M|Qo|Q|DDDo|DDDD|DDD|Do|DD|D|do|dddd|ddd|dd|d|wo|ww|w|Wo|WW|W|[Hh]mmss|[Hh]mm|HH|H|hh|h|kk|k|mm|m|ss|s|N{1,5}|S{1,9}|zz?|ZZ?|[xXYeEaAy]|[\s\S])/g;

/** `date` formatted in its local time, as `moment(date).format(format)` does in the "en" locale. */
export function formatDate(format: string, date: Date): FormatResult {
	let text = "";
	for (const match of format.matchAll(TOKENS)) {
		const [whole, escaped, token] = match;
		if (token === undefined) {
			text += whole.slice(1, -1);
			continue;
		}
		// An escaped token is copied as is; a backslash on its own is dropped, as moment drops it.
		if (escaped !== undefined || token === "\\") {
			text += token === "\\" ? "" : token;
			continue;
		}
		const value = formatToken(token, date);
		if (value !== null) text += value;
		else if (token.length === 1 && !TOKEN_LETTERS.includes(token)) text += token;
		else return { ok: false, token };
	}
	return { ok: true, text };
}

/** Single letters that are tokens in moment: never copied as literals (a refused one stops the format instead). */
const TOKEN_LETTERS = "YMQDdwWeEHhkmsaAxXNSzZLly";

function formatToken(token: string, date: Date): string | null {
	const year = date.getFullYear();
	const month = date.getMonth();
	const day = date.getDate();
	const weekday = date.getDay();
	const hours = date.getHours();
	switch (token) {
		case "Y":
			return year <= 9999 ? String(year) : `+${year}`;
		case "YY":
			return pad(year % 100, 2);
		case "YYYY":
			return year <= 9999 ? pad(year, 4) : `+${year}`;
		case "M":
			return String(month + 1);
		case "Mo":
			return ordinal(month + 1);
		case "MM":
			return pad(month + 1, 2);
		case "MMM":
			return MONTHS[month]!.slice(0, 3);
		case "MMMM":
			return MONTHS[month]!;
		case "Q":
			return String(Math.floor(month / 3) + 1);
		case "Qo":
			return ordinal(Math.floor(month / 3) + 1);
		case "D":
			return String(day);
		case "Do":
			return ordinal(day);
		case "DD":
			return pad(day, 2);
		case "DDD":
			return String(dayOfYear(date));
		case "DDDo":
			return ordinal(dayOfYear(date));
		case "DDDD":
			return pad(dayOfYear(date), 3);
		case "d":
		case "e":
			return String(weekday);
		case "do":
			return ordinal(weekday);
		case "dd":
			return WEEKDAYS[weekday]!.slice(0, 2);
		case "ddd":
			return WEEKDAYS[weekday]!.slice(0, 3);
		case "dddd":
			return WEEKDAYS[weekday]!;
		case "E":
			return String(weekday === 0 ? 7 : weekday);
		case "w":
			return String(localWeek(date).week);
		case "wo":
			return ordinal(localWeek(date).week);
		case "ww":
			return pad(localWeek(date).week, 2);
		case "W":
			return String(isoWeek(date).week);
		case "Wo":
			return ordinal(isoWeek(date).week);
		case "WW":
			return pad(isoWeek(date).week, 2);
		case "gg":
			return pad(localWeek(date).year % 100, 2);
		case "gggg":
			return pad(localWeek(date).year, 4);
		case "ggggg":
			return pad(localWeek(date).year, 5);
		case "GG":
			return pad(isoWeek(date).year % 100, 2);
		case "GGGG":
			return pad(isoWeek(date).year, 4);
		case "GGGGG":
			return pad(isoWeek(date).year, 5);
		case "H":
			return String(hours);
		case "HH":
			return pad(hours, 2);
		case "h":
			return String(hours % 12 || 12);
		case "hh":
			return pad(hours % 12 || 12, 2);
		case "k":
			return String(hours || 24);
		case "kk":
			return pad(hours || 24, 2);
		case "m":
			return String(date.getMinutes());
		case "mm":
			return pad(date.getMinutes(), 2);
		case "s":
			return String(date.getSeconds());
		case "ss":
			return pad(date.getSeconds(), 2);
		case "a":
			return hours < 12 ? "am" : "pm";
		case "A":
			return hours < 12 ? "AM" : "PM";
		case "Hmm":
			return `${hours}${pad(date.getMinutes(), 2)}`;
		case "Hmmss":
			return `${hours}${pad(date.getMinutes(), 2)}${pad(date.getSeconds(), 2)}`;
		case "hmm":
			return `${hours % 12 || 12}${pad(date.getMinutes(), 2)}`;
		case "hmmss":
			return `${hours % 12 || 12}${pad(date.getMinutes(), 2)}${pad(date.getSeconds(), 2)}`;
		default:
			return null;
	}
}

/** Week numbers as moment counts them: a week starting on `firstDay` belongs to the year of its day `anchor` (0-6). */
function weekOf(date: Date, firstDay: number, anchor: number): { week: number; year: number } {
	const start = utcDay(date) - ((date.getDay() - firstDay + 7) % 7) * DAY_MS;
	const deciding = new Date(start + anchor * DAY_MS);
	const year = deciding.getUTCFullYear();
	const ordinalDay = (start + anchor * DAY_MS - Date.UTC(year, 0, 1)) / DAY_MS;
	return { week: Math.floor(ordinalDay / 7) + 1, year };
}

/** The "en" locale's weeks: they start on Sunday, and the week holding January 1st is week 1 (its Saturday decides). */
function localWeek(date: Date): { week: number; year: number } {
	return weekOf(date, 0, 6);
}

/** ISO weeks: they start on Monday, and the week's Thursday decides its year. */
function isoWeek(date: Date): { week: number; year: number } {
	return weekOf(date, 1, 3);
}

/** The local calendar day as a UTC midnight, so day arithmetic never meets a daylight-saving change. */
function utcDay(date: Date): number {
	return Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
}

function dayOfYear(date: Date): number {
	return (utcDay(date) - Date.UTC(date.getFullYear(), 0, 1)) / DAY_MS + 1;
}

function ordinal(number: number): string {
	const tens = Math.floor((number % 100) / 10);
	const last = number % 10;
	const suffix = tens === 1 ? "th" : last === 1 ? "st" : last === 2 ? "nd" : last === 3 ? "rd" : "th";
	return `${number}${suffix}`;
}

function pad(number: number, width: number): string {
	const sign = number < 0 ? "-" : "";
	return sign + String(Math.abs(number)).padStart(width, "0");
}
