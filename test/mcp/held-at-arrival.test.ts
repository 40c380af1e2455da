/** What a session's tokenless writes are held to on arrival: each call finds its own capture, whatever its id. */
import { describe, expect, it } from "vitest";
import { HeldAtArrival } from "../../src/mcp/held-at-arrival";
import type { PathPolicy } from "../../src/core/path";
import type { HeldRead } from "../../src/service/stores/read-ledger";

const policy: PathPolicy = { configDir: ".obsidian", noteExtensions: ["md"] };
const write = (id: unknown, path: string) => ({
	jsonrpc: "2.0",
	id,
	method: "tools/call",
	params: { name: "write_note", arguments: { path, content: "x" } },
});
const heldTo = (revision: string) => ({ revision }) as unknown as HeldRead;

describe("HeldAtArrival", () => {
	it('keeps the number 1 and the string "1" apart: each call finds what it was held to', () => {
		const held = new HeldAtArrival();
		held.capture([write(1, "A.md"), write("1", "B.md")], policy, (path) => heldTo(`read of ${path}`));
		expect(held.take(1, "A.md")).toEqual(heldTo("read of A.md"));
		expect(held.take("1", "B.md")).toEqual(heldTo("read of B.md"));
	});

	it("gives each of two calls that reuse one id its own capture, once", () => {
		const held = new HeldAtArrival();
		let reads = 0;
		held.capture([write(7, "A.md"), write(7, "B.md")], policy, (path) => heldTo(`${path} #${++reads}`));
		held.capture(write(7, "A.md"), policy, (path) => heldTo(`${path} #${++reads}`));
		expect(held.take(7, "B.md")).toEqual(heldTo("B.md #2"));
		expect(held.take(7, "A.md")).toEqual(heldTo("A.md #1"));
		expect(held.take(7, "A.md")).toEqual(heldTo("A.md #3"));
		expect(held.take(7, "A.md")).toBeUndefined();
	});

	it("remembers at most 256 calls, forgetting the oldest first", () => {
		const held = new HeldAtArrival();
		const calls = Array.from({ length: 300 }, (_, i) => write(i % 3 === 0 ? 5 : i, "A.md"));
		held.capture(calls, policy, () => heldTo("r"));
		const found = calls.filter((call) => held.take(call.id as number, "A.md") !== undefined);
		expect(found).toHaveLength(256);
	});
});
