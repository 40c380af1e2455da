/**
 * Reads a JavaScript regular expression (no flags, as the Local REST API's `regexp` operator builds it) into a tree
 * the search's own matcher runs in linear time. Everything JavaScript offers is read except what needs
 * backtracking: back-references and lookaround are refused with a reason, never run. The pattern has already been
 * checked by JavaScript's own parser (see `compileRegExp`), so this reader only has to agree with it on valid input.
 */
import { CharSet, DIGITS, DOT, SPACE, WORD, single } from "./char-set";

export type RegExpNode =
	| { kind: "empty" }
	| { kind: "char"; set: CharSet }
	| { kind: "assert"; what: "start" | "end" | "boundary" | "not-boundary" }
	| { kind: "sequence"; items: RegExpNode[] }
	| { kind: "choice"; options: RegExpNode[] }
	/** `max` null: no upper bound. */
	| { kind: "repeat"; node: RegExpNode; min: number; max: number | null };

/** A pattern the search will not run, and why (shown to the agent). */
export class UnsupportedPattern extends Error {
	constructor(message: string) {
		super(message);
		this.name = "UnsupportedPattern";
	}
}

const HEX = /^[0-9a-fA-F]+$/;
const QUANTIFIER = /^\{(\d+)(,(\d*))?\}/;

export function parseRegExp(pattern: string): RegExpNode {
	const reader = new Reader(pattern);
	const node = reader.choice();
	if (!reader.done()) throw new UnsupportedPattern(`unexpected "${pattern[reader.at]}" at ${reader.at}`);
	return node;
}

class Reader {
	at = 0;

	constructor(private readonly text: string) {}

	done(): boolean {
		return this.at >= this.text.length;
	}

	choice(): RegExpNode {
		const options = [this.sequence()];
		while (this.peek() === "|") {
			this.at++;
			options.push(this.sequence());
		}
		return options.length === 1 ? options[0]! : { kind: "choice", options };
	}

	private sequence(): RegExpNode {
		const items: RegExpNode[] = [];
		while (!this.done() && this.peek() !== "|" && this.peek() !== ")") items.push(this.quantified(this.term()));
		return items.length === 0 ? { kind: "empty" } : items.length === 1 ? items[0]! : { kind: "sequence", items };
	}

	private peek(offset = 0): string | undefined {
		return this.text[this.at + offset];
	}

	private term(): RegExpNode {
		const char = this.text[this.at++]!;
		switch (char) {
			case "^":
				return { kind: "assert", what: "start" };
			case "$":
				return { kind: "assert", what: "end" };
			case ".":
				return { kind: "char", set: DOT };
			case "[":
				return { kind: "char", set: this.charClass() };
			case "(":
				return this.group();
			case "\\":
				return this.escape();
			case "*":
			case "+":
			case "?":
				throw new UnsupportedPattern(`nothing to repeat at ${this.at - 1}`);
			default:
				return { kind: "char", set: single(char.charCodeAt(0)) };
		}
	}

	private group(): RegExpNode {
		if (this.peek() === "?") {
			const next = this.peek(1);
			if (next === ":") this.at += 2;
			else if (next === "=" || next === "!" || (next === "<" && (this.peek(2) === "=" || this.peek(2) === "!"))) {
				throw new UnsupportedPattern("lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported");
			} else if (next === "<") {
				const close = this.text.indexOf(">", this.at);
				if (close === -1) throw new UnsupportedPattern("an unterminated group name");
				this.at = close + 1;
			} else throw new UnsupportedPattern(`an unknown group (?${next ?? ""}`);
		}
		const node = this.choice();
		if (this.text[this.at++] !== ")") throw new UnsupportedPattern("an unterminated group");
		return node;
	}

	private quantified(node: RegExpNode): RegExpNode {
		const char = this.peek();
		let min: number;
		let max: number | null;
		if (char === "*") [min, max] = [0, null];
		else if (char === "+") [min, max] = [1, null];
		else if (char === "?") [min, max] = [0, 1];
		else if (char === "{") {
			const braces = QUANTIFIER.exec(this.text.slice(this.at));
			// Not a quantifier: the `{` is a literal character (JavaScript without the `u` flag).
			if (!braces) return node;
			min = Number(braces[1]);
			max = braces[2] === undefined ? min : braces[3] === "" ? null : Number(braces[3]);
			this.at += braces[0].length - 1;
		} else return node;
		this.at++;
		if (this.peek() === "?") this.at++; // Lazy or greedy decides which match, never whether there is one.
		// A bare assertion cannot be repeated (JavaScript refused that already); a group holding one, `(\b)*`, can.
		return { kind: "repeat", node, min, max };
	}

	private escape(): RegExpNode {
		const char = this.text[this.at];
		if (char === "b") return (this.at++, { kind: "assert", what: "boundary" });
		if (char === "B") return (this.at++, { kind: "assert", what: "not-boundary" });
		if (char !== undefined && /[1-9]/.test(char))
			throw new UnsupportedPattern("back-references (\\1…) are not supported");
		if (char === "k") throw new UnsupportedPattern("named back-references (\\k<name>) are not supported");
		return { kind: "char", set: this.escapedSet(false) };
	}

	/** What follows a backslash, as a set (one character, or a class such as \d). */
	private escapedSet(inClass: boolean): CharSet {
		const char = this.text[this.at++];
		if (char === undefined) throw new UnsupportedPattern("a pattern may not end in a backslash");
		switch (char) {
			case "d":
				return DIGITS;
			case "D":
				return DIGITS.complement();
			case "w":
				return WORD;
			case "W":
				return WORD.complement();
			case "s":
				return SPACE;
			case "S":
				return SPACE.complement();
			case "n":
				return single(0x0a);
			case "r":
				return single(0x0d);
			case "t":
				return single(0x09);
			case "v":
				return single(0x0b);
			case "f":
				return single(0x0c);
			case "b":
				return single(0x08); // Only reached inside a class, where \b is a backspace.
			case "0":
				if (/[0-9]/.test(this.peek() ?? "")) throw new UnsupportedPattern("octal escapes are not supported");
				return single(0);
			case "x":
				return single(this.hex(2) ?? "x".charCodeAt(0));
			case "u":
				return single(this.hex(4) ?? "u".charCodeAt(0));
			case "c": {
				const letter = this.peek() ?? "";
				if (/[a-zA-Z]/.test(letter) || (inClass && /[0-9_]/.test(letter))) {
					this.at++;
					return single(letter.charCodeAt(0) % 32);
				}
				// Not a control escape: the backslash is itself, and the `c` is read next.
				this.at--;
				return single("\\".charCodeAt(0));
			}
			default:
				if (inClass && /[1-9]/.test(char)) throw new UnsupportedPattern("octal escapes are not supported");
				return single(char.charCodeAt(0));
		}
	}

	private hex(digits: number): number | null {
		const text = this.text.slice(this.at, this.at + digits);
		if (text.length !== digits || !HEX.test(text)) return null;
		this.at += digits;
		return parseInt(text, 16);
	}

	private charClass(): CharSet {
		const negated = this.peek() === "^";
		if (negated) this.at++;
		let set = CharSet.of([]);
		while (this.peek() !== "]") {
			if (this.done()) throw new UnsupportedPattern("an unterminated character class");
			const first = this.classAtom();
			if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
				this.at++;
				const last = this.classAtom();
				const low = singleUnit(first);
				const high = singleUnit(last);
				// A class such as \d at either end makes the `-` a plain character (JavaScript without the `u` flag).
				if (low === null || high === null) set = set.union(first).union(single(0x2d)).union(last);
				else if (low > high) throw new UnsupportedPattern("a character range out of order");
				else set = set.union(CharSet.of([[low, high]]));
			} else set = set.union(first);
		}
		this.at++;
		return negated ? set.complement() : set;
	}

	private classAtom(): CharSet {
		const char = this.text[this.at++]!;
		return char === "\\" ? this.escapedSet(true) : single(char.charCodeAt(0));
	}
}

/** The one code unit a set holds, or null when it holds another number of them. */
function singleUnit(set: CharSet): number | null {
	const pairs = set.pairs();
	return pairs.length === 1 && pairs[0]![0] === pairs[0]![1] ? pairs[0]![0] : null;
}
