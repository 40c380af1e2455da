import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LruList } from "../../src/core/lru-list";

describe("LruList", () => {
	it("keeps entries oldest first: set adds or refreshes, touch refreshes, delete removes", () => {
		const list = new LruList<number>();
		list.set("a", 1);
		list.set("b", 2);
		list.set("c", 3);
		expect(list.touch("a")).toBe(true);
		expect(list.entries()).toEqual([
			["b", 2],
			["c", 3],
			["a", 1],
		]);
		list.set("b", 20);
		expect(list.entries()).toEqual([
			["c", 3],
			["a", 1],
			["b", 20],
		]);
		expect(list.delete("a")).toBe(1);
		expect(list.delete("a")).toBeUndefined();
		expect(list.touch("a")).toBe(false);
		expect(list.oldest()).toEqual({ key: "c", value: 3 });
		expect(list.findFromOldest((key) => key !== "c")).toBe("b");
		expect(list.findFromOldest(() => false)).toBeNull();
		expect(list.size).toBe(2);
		list.delete("b");
		list.delete("c");
		expect(list.entries()).toEqual([]);
		expect(list.oldest()).toBeUndefined();
	});

	it("agrees with a plain array model over any sequence of operations (property)", () => {
		const key = fc.constantFrom("a", "b", "c", "d", "e");
		const operation = fc.oneof(
			fc.record({ op: fc.constant("set" as const), key, value: fc.integer() }),
			fc.record({ op: fc.constant("touch" as const), key }),
			fc.record({ op: fc.constant("delete" as const), key }),
		);
		fc.assert(
			fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
				const list = new LruList<number>();
				const model: [string, number][] = [];
				for (const step of operations) {
					const at = model.findIndex(([k]) => k === step.key);
					if (step.op === "set") {
						if (at >= 0) model.splice(at, 1);
						model.push([step.key, step.value]);
						list.set(step.key, step.value);
					} else if (step.op === "touch") {
						const entry = at >= 0 ? model.splice(at, 1)[0]! : null;
						if (entry) model.push(entry);
						expect(list.touch(step.key)).toBe(entry !== null);
					} else {
						const entry = at >= 0 ? model.splice(at, 1)[0]! : null;
						expect(list.delete(step.key)).toBe(entry?.[1]);
					}
					expect(list.entries()).toEqual(model);
					expect(list.size).toBe(model.length);
					expect(list.oldest()).toEqual(model[0] ? { key: model[0][0], value: model[0][1] } : undefined);
				}
			}),
		);
	});
});
