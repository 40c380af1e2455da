/**
 * The bytes of a base pack (see base-pack.ts): segment file names, and records of the form
 * `rgbase <key> <byte length>\n`, the content's UTF-8 bytes, `\n`.
 */
const SEGMENT_NAME = /^pack-(\d{8})\.rgpack$/;
const KEY = /^[A-Za-z0-9_-]{1,128}$/;
const HEADER = /^rgbase ([A-Za-z0-9_-]{1,128}) (\d{1,12})$/;
/** No valid header is longer: a longer line is not a record. */
const MAX_HEADER_BYTES = 200;
const NEWLINE = 10;

/** Where one record lies in its segment. */
export interface RecordPlace {
	key: string;
	/** Where the content starts, and its length in bytes. */
	offset: number;
	length: number;
	/** Header, content and newline together. */
	recordBytes: number;
}

export function segmentName(number: number): string {
	return `pack-${String(number).padStart(8, "0")}.rgpack`;
}

/** The segment number a file name stands for, or null for any other file. */
export function segmentNumber(name: string): number | null {
	const match = SEGMENT_NAME.exec(name);
	return match === null ? null : Number(match[1]);
}

/** Keys go into the header as they are, so only names that cannot break a line or a field are accepted. */
export function isPackKey(key: string): boolean {
	return KEY.test(key);
}

/** A record's bytes, and where its content starts within them. */
export function encodeRecord(
	key: string,
	content: string,
): { bytes: Buffer; contentOffset: number; contentLength: number } {
	// Sized first and encoded once, straight into the record (every accepted write packs one).
	const contentLength = Buffer.byteLength(content, "utf8");
	const header = `rgbase ${key} ${contentLength}\n`;
	const bytes = Buffer.allocUnsafe(header.length + contentLength + 1);
	const contentOffset = bytes.write(header, 0, "latin1");
	bytes.write(content, contentOffset, "utf8");
	bytes[bytes.length - 1] = NEWLINE;
	return { bytes, contentOffset, contentLength };
}

/** The records of one segment, in order; a record cut short by a crash ends it (what follows is dead space). */
export function* scanSegment(bytes: Buffer): Generator<RecordPlace> {
	for (let start = 0; start < bytes.length;) {
		const newline = bytes.indexOf(NEWLINE, start);
		const header =
			newline === -1 || newline - start > MAX_HEADER_BYTES
				? null
				: HEADER.exec(bytes.toString("latin1", start, newline));
		if (header === null) return;
		const length = Number(header[2]);
		const end = newline + 1 + length;
		if (end >= bytes.length || bytes[end] !== NEWLINE) return;
		yield { key: header[1]!, offset: newline + 1, length, recordBytes: end + 1 - start };
		start = end + 1;
	}
}
