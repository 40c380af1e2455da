/** UTF-8 sizes of text, without encoding it: file names are limited in bytes, answers are capped in bytes. */

/** Most file systems allow 255 bytes per name (ext4, APFS, and NTFS's 255 UTF-16 units are never fewer bytes). */
export const MAX_NAME_BYTES = 255;

/**
 * Node's native count, where the host has Node's Buffer (the headless host, and Obsidian on desktop): it reads the
 * string in place, about twenty times faster than counting here and without the copy an encoder makes.
 */
const nativeByteLength: ((text: string) => number) | null =
	typeof Buffer === "function" && typeof Buffer.byteLength === "function"
		? (text: string) => Buffer.byteLength(text, "utf8")
		: null;

/** UTF-8 byte length (a lone surrogate counts as the 3 bytes of U+FFFD, as encoders write it). */
export function utf8Length(text: string): number {
	return nativeByteLength !== null ? nativeByteLength(text) : countUtf8(text);
}

/** The same count, in JavaScript: for hosts without Node's Buffer. */
export function countUtf8(text: string): number {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const unit = text.charCodeAt(i);
		if (unit < 0x80) bytes += 1;
		else if (unit < 0x800) bytes += 2;
		else if (isPairAt(text, i)) {
			bytes += 4;
			i++;
		} else bytes += 3;
	}
	return bytes;
}

/** Whether `text` is at most `maxBytes` of UTF-8; reads no further than the limit, so a huge text costs no more. */
export function fitsInUtf8(text: string, maxBytes: number): boolean {
	// Every UTF-16 unit is 1 to 3 bytes (a pair of them 4).
	if (text.length > maxBytes) return false;
	if (text.length * 3 <= maxBytes) return true;
	return utf8Length(text) <= maxBytes;
}

/** The longest start of `text` that fits in `maxBytes` of UTF-8, never cutting a surrogate pair in two. */
export function truncateUtf8(text: string, maxBytes: number): string {
	let bytes = 0;
	let i = 0;
	while (i < text.length) {
		const unit = text.charCodeAt(i);
		const pair = isPairAt(text, i);
		const size = unit < 0x80 ? 1 : unit < 0x800 ? 2 : pair ? 4 : 3;
		if (bytes + size > maxBytes) break;
		bytes += size;
		i += pair ? 2 : 1;
	}
	return text.slice(0, i);
}

function isPairAt(text: string, i: number): boolean {
	const unit = text.charCodeAt(i);
	return unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}
