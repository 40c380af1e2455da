/**
 * The search's regular expressions, run in time linear in the text: a pattern is compiled to a small program and
 * run as a Pike VM (every possible match position advanced together, each program step at most once per character),
 * so no pattern, however written, can make a search backtrack exponentially (`(a+)+$` on "aaaa…b" costs what
 * `a+$` does). Patterns are bounded in length and nesting before JavaScript's own parser checks their syntax, and
 * the compiled program is bounded too (`{1000}` repeats are expanded). Work is counted against the caller's budget.
 */
import type { CharSet } from "./char-set";
import { WORD } from "./char-set";
import { parseRegExp, UnsupportedPattern, type RegExpNode } from "./regexp-syntax";
import type { SearchBudget } from "./search-budget";
import type { Steps } from "../steps";

export { UnsupportedPattern } from "./regexp-syntax";

/** Longest pattern accepted (the Local REST API has no bound). */
export const MAX_PATTERN_LENGTH = 1024;
/** Deepest nesting of groups and classes accepted, far below what exhausts JavaScript's own regexp compiler. */
export const MAX_PATTERN_NESTING = 32;
/** Instructions a compiled pattern may have, counted repeats expanded. */
export const MAX_PROGRAM = 20_000;
/** How many text positions a match runs between turns given back to the caller (see `matchSteps`). */
const POSITIONS_PER_STEP = 16_384;

type Instruction =
	| { op: "char"; set: CharSet }
	| { op: "split"; first: number; second: number }
	| { op: "jump"; to: number }
	| { op: "assert"; what: "start" | "end" | "boundary" | "not-boundary" }
	| { op: "match" };

export class CompiledRegExp {
	private readonly marks: Int32Array;
	private generation = 0;
	/** Threads alive at a position (pcs of character steps), and the ones that survive its character. */
	private readonly alive: Int32Array;
	private readonly survivors: Int32Array;
	private readonly stack: number[] = [];
	/**
	 * The character steps a match can start with, when no assertion stands before them; null when one does. Where
	 * no thread is alive, positions none of them accepts are skipped in one tight loop.
	 */
	private readonly startSet: CharSet | null;

	constructor(private readonly program: readonly Instruction[]) {
		this.marks = new Int32Array(program.length);
		this.alive = new Int32Array(program.length);
		this.survivors = new Int32Array(program.length);
		this.startSet = startSetOf(program);
	}

	/**
	 * Whether the pattern matches anywhere in `text`, as `RegExp.prototype.test` answers. A generator that pauses
	 * between slices of a long text, so the caller can give its host a turn; `budget` is charged for every step.
	 */
	*matchSteps(text: string, budget: SearchBudget): Steps<boolean> {
		const { program, alive, survivors } = this;
		let surviving = 0;
		let sinceTurn = 0;
		for (let position = 0; position <= text.length; position++) {
			if (surviving === 0 && this.startSet !== null) {
				// A bounded skip: where it stops short, the position is stepped as usual (the start thread just dies).
				const from = position;
				const stop = Math.min(text.length, position + POSITIONS_PER_STEP);
				while (position < stop && !this.startSet.has(text.charCodeAt(position))) position++;
				budget.charge((position - from) >> 3);
				sinceTurn += position - from;
			}
			this.generation++;
			const stack = this.stack;
			stack.length = 0;
			for (let index = 0; index < surviving; index++) stack.push(survivors[index]!);
			stack.push(0);
			const count = this.expand(text, position, alive);
			if (count < 0) return true;
			if (position === text.length) return false;
			budget.charge(count + 1);
			const unit = text.charCodeAt(position);
			surviving = 0;
			for (let index = 0; index < count; index++) {
				const pc = alive[index]!;
				if ((program[pc] as { set: CharSet }).set.has(unit)) survivors[surviving++] = pc + 1;
			}
			if (++sinceTurn >= POSITIONS_PER_STEP) {
				sinceTurn = 0;
				yield;
			}
		}
		return false;
	}

	/**
	 * Follows jumps, splits and assertions from the pcs on the stack at `position`, writing the character steps
	 * reached into `out` (each once per position). Returns how many, or -1 as soon as a match is reached.
	 */
	private expand(text: string, position: number, out: Int32Array): number {
		const { stack, marks, program, generation } = this;
		let count = 0;
		while (stack.length > 0) {
			const pc = stack.pop()!;
			if (marks[pc] === generation) continue;
			marks[pc] = generation;
			const instruction = program[pc]!;
			switch (instruction.op) {
				case "match":
					return -1;
				case "char":
					out[count++] = pc;
					break;
				case "jump":
					stack.push(instruction.to);
					break;
				case "split":
					stack.push(instruction.second, instruction.first);
					break;
				case "assert":
					if (holds(instruction.what, text, position)) stack.push(pc + 1);
					break;
			}
		}
		return count;
	}
}

/** The union of the character steps reachable from the start without passing an assertion or a match; else null. */
function startSetOf(program: readonly Instruction[]): CharSet | null {
	const seen = new Set<number>();
	const stack = [0];
	let set: CharSet | null = null;
	while (stack.length > 0) {
		const pc = stack.pop()!;
		if (seen.has(pc)) continue;
		seen.add(pc);
		const instruction = program[pc]!;
		if (instruction.op === "match" || instruction.op === "assert") return null;
		if (instruction.op === "char") set = set === null ? instruction.set : set.union(instruction.set);
		else if (instruction.op === "jump") stack.push(instruction.to);
		else if (instruction.op === "split") stack.push(instruction.first, instruction.second);
	}
	return set;
}

function holds(what: "start" | "end" | "boundary" | "not-boundary", text: string, position: number): boolean {
	if (what === "start") return position === 0;
	if (what === "end") return position === text.length;
	const before = position > 0 && WORD.has(text.charCodeAt(position - 1));
	const after = position < text.length && WORD.has(text.charCodeAt(position));
	return (before !== after) === (what === "boundary");
}

/** Compiles a pattern, or throws UnsupportedPattern (or JavaScript's SyntaxError message, as one) saying why not. */
export function compileRegExp(pattern: string, maxLength = MAX_PATTERN_LENGTH): CompiledRegExp {
	if (pattern.length > maxLength) throw new UnsupportedPattern(`it is longer than ${maxLength} characters`);
	if (nesting(pattern) > MAX_PATTERN_NESTING)
		throw new UnsupportedPattern(`it nests groups more than ${MAX_PATTERN_NESTING} deep`);
	try {
		// Only to check the syntax as JavaScript reads it: this RegExp is never run.
		new RegExp(pattern);
	} catch (error) {
		throw new UnsupportedPattern(error instanceof Error ? error.message : "it is not a valid regular expression");
	}
	const program: Instruction[] = [];
	emit(parseRegExp(pattern), program);
	program.push({ op: "match" });
	return new CompiledRegExp(program);
}

/** Opening brackets not yet closed, at most (escapes skipped; an over-estimate is safe). */
function nesting(pattern: string): number {
	let depth = 0;
	let deepest = 0;
	for (let at = 0; at < pattern.length; at++) {
		const char = pattern[at];
		if (char === "\\") at++;
		else if (char === "(" || char === "[") deepest = Math.max(deepest, ++depth);
		else if (char === ")" || char === "]") depth = Math.max(depth - 1, 0);
	}
	return deepest;
}

function emit(node: RegExpNode, program: Instruction[]): void {
	if (program.length > MAX_PROGRAM)
		throw new UnsupportedPattern(`it expands to more than ${MAX_PROGRAM} steps (large {n} repeats)`);
	switch (node.kind) {
		case "empty":
			return;
		case "char":
			program.push({ op: "char", set: node.set });
			return;
		case "assert":
			program.push({ op: "assert", what: node.what });
			return;
		case "sequence":
			for (const item of node.items) emit(item, program);
			return;
		case "choice": {
			const jumps: { op: "jump"; to: number }[] = [];
			node.options.forEach((option, index) => {
				if (index === node.options.length - 1) return emit(option, program);
				const split = { op: "split" as const, first: program.length + 1, second: 0 };
				program.push(split);
				emit(option, program);
				const jump = { op: "jump" as const, to: 0 };
				jumps.push(jump);
				program.push(jump);
				split.second = program.length;
			});
			for (const jump of jumps) jump.to = program.length;
			return;
		}
		case "repeat":
			return emitRepeat(node.node, node.min, node.max, program);
	}
}

function emitRepeat(node: RegExpNode, min: number, max: number | null, program: Instruction[]): void {
	for (let count = 0; count < min; count++) emit(node, program);
	if (max === null) {
		const split = { op: "split" as const, first: program.length + 1, second: 0 };
		const loop = program.length;
		program.push(split);
		emit(node, program);
		program.push({ op: "jump", to: loop });
		split.second = program.length;
		return;
	}
	const exits: { op: "split"; first: number; second: number }[] = [];
	for (let count = min; count < max; count++) {
		const split = { op: "split" as const, first: program.length + 1, second: 0 };
		exits.push(split);
		program.push(split);
		emit(node, program);
		if (program.length > MAX_PROGRAM)
			throw new UnsupportedPattern(`it expands to more than ${MAX_PROGRAM} steps (large {n} repeats)`);
	}
	for (const split of exits) split.second = program.length;
}
