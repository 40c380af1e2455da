/** The keeping, capping and journaling that conflict and proposal records share (service/stores/record-log.ts). */
import { describe, expect, it } from "vitest";
import { RecordLog, type RecordChange } from "../../../src/service/stores/record-log";

interface Item {
	id: string;
	path: string;
	done: boolean;
}

class Items extends RecordLog<Item> {
	constructor(max: number) {
		super(
			{
				isRecord: (value): value is Item =>
					typeof (value as Item | null)?.id === "string" && typeof (value as Item).path === "string",
				settled: (item) => item.done,
			},
			max,
		);
	}
	static from(snapshot: unknown, max = 10): Items {
		return new Items(max).load(snapshot);
	}
	all(): Item[] {
		return this.newestFirst(() => true);
	}
	finish(id: string): void {
		const item = this.records.get(id)!;
		item.done = true;
		this.changed(item);
	}
}

describe("a record log", () => {
	it("drops the oldest settled records past its cap before any unsettled one, and journals each drop", () => {
		const items = new Items(2);
		const changes: RecordChange<Item>[] = [];
		items.onSave((change) => changes.push(structuredClone(change)));
		items.add({ id: "a", path: "a.md", done: false });
		items.add({ id: "b", path: "b.md", done: true });
		items.add({ id: "c", path: "c.md", done: false });
		expect(items.all().map((item) => item.id)).toEqual(["c", "a"]);
		expect(changes.slice(-2)).toEqual([{ put: { id: "c", path: "c.md", done: false } }, { remove: "b" }]);
		items.add({ id: "d", path: "d.md", done: false });
		// Nothing settled is left: the oldest goes.
		expect(items.all().map((item) => item.id)).toEqual(["d", "c"]);
	});

	it("gives itself back from a snapshot and the changes journaled after it, leaving out what is not a record", () => {
		const items = new Items(10);
		const changes: RecordChange<Item>[] = [];
		items.add({ id: "a", path: "a.md", done: false });
		const snapshot = structuredClone(items.toSnapshot());
		items.onSave((change) => changes.push(structuredClone(change)));
		items.add({ id: "b", path: "b.md", done: false });
		items.finish("a");
		const again = Items.from({ ...snapshot, records: [...snapshot.records, { id: 7 }, null] });
		again.replay([...changes, { put: { id: "x" } }, "junk", null]);
		expect(again.all()).toEqual(items.all());
	});

	it("announces additions and changes to its listeners until they unsubscribe", () => {
		const items = new Items(10);
		const seen: string[] = [];
		const stop = items.onChange((item) => seen.push(`${item.id}:${item.done}`));
		items.add({ id: "a", path: "a.md", done: false });
		items.finish("a");
		stop();
		items.add({ id: "b", path: "b.md", done: false });
		expect(seen).toEqual(["a:false", "a:true"]);
	});
});
