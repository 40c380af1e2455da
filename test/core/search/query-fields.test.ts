import { describe, expect, it } from "vitest";
import { fieldsWanted, NOTE_FIELDS } from "../../../src/core/search/query-fields";

const wanted = (query: unknown) => [...fieldsWanted(query)].sort();

describe("fieldsWanted", () => {
	it("names the fields the query's strings name", () => {
		expect(wanted({ in: ["work", { var: "tags" }] })).toEqual(["tags"]);
		expect(
			wanted({ and: [{ "==": [{ var: "frontmatter.status" }, "done"] }, { glob: ["*.md", { var: "path" }] }] }),
		).toEqual(["frontmatter", "path"]);
		expect(wanted({ missing: ["stat.mtime", "links"] })).toEqual(["links", "stat"]);
		expect(wanted({ "==": [1, 1] })).toEqual([]);
	});

	it("wants everything when the query can reach the whole note", () => {
		for (const query of [
			{ var: "" },
			{ var: null },
			{ var: [] },
			{ var: { cat: ["con", "tent"] } },
			{ missing: { merge: [["path"]] } },
			{ missing_some: [1, { var: "x" }] },
			[{ var: "" }],
		]) {
			expect(wanted(query), JSON.stringify(query)).toEqual([...NOTE_FIELDS].sort());
		}
	});

	it("reads `var` inside map, filter, reduce, all, some and none as the item's, not the note's", () => {
		expect(wanted({ some: [{ var: "tags" }, { "==": [{ var: "" }, "content"] }] })).toEqual(["tags"]);
		expect(
			wanted({ reduce: [{ var: "links" }, { cat: [{ var: "accumulator" }, { var: "current" }] }, { var: "path" }] }),
		).toEqual(["links", "path"]);
	});
});
