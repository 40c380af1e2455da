import { describe, expect, it } from "vitest";
import { matchNoteTarget } from "../../../src/http/routes/note-target";
import { ROUTES } from "../../../src/http/routes";
import { findRoute } from "../../../src/http/router";

describe("which /vault/ URLs name a part of a note", () => {
	it.each([
		["/vault/Plan.md/heading/Plan", "Plan.md/heading/Plan"],
		["/vault/Projects/Plan.md/heading/Plan/Next%20steps", "Projects/Plan.md/heading/Plan/Next%20steps"],
		["/vault/Plan.md/frontmatter/status", "Plan.md/frontmatter/status"],
		["/vault/Plan.md/block/abc-1", "Plan.md/block/abc-1"],
		["/vault/PLAN.MD/block/abc", "PLAN.MD/block/abc"],
	])("%s is a target", (raw, rest) => {
		expect(matchNoteTarget(raw)).toBe(rest);
		expect(findRoute(ROUTES, "GET", raw)).toMatchObject({
			kind: "found",
			route: { template: "/vault/{path}/{targetType}/{target}" },
		});
	});

	it.each([
		"/vault/heading/Plan.md",
		"/vault/heading/block/frontmatter.md",
		"/vault/Plan.md",
		"/vault/Plan.md/heading",
		"/vault/Plan.md/heading/",
		"/vault/Plan.md/heading/A//B",
		"/vault/Plan.md/section/A",
		"/vault/Plan.txt/heading/A",
		"/vault/Folder/",
		"/changes/Plan.md/heading/A",
	])("%s is not (a note, a folder, or another route)", (raw) => {
		expect(matchNoteTarget(raw)).toBeNull();
	});

	it("leaves every other /vault/ URL to the note route, and refuses DELETE of a part (405)", () => {
		expect(findRoute(ROUTES, "PUT", "/vault/heading/Plan.md")).toMatchObject({
			kind: "found",
			route: { template: "/vault/{path}" },
		});
		expect(findRoute(ROUTES, "DELETE", "/vault/Plan.md/heading/A")).toMatchObject({ kind: "method-not-allowed" });
	});
});
