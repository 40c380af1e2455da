import { describe, expect, it } from "vitest";
import { applyPatch, rebaseHeadings, type PatchResult } from "../../src/core/patch";
import { parsePatchInstruction } from "../../src/core/patch-instruction";

function parsed(body: unknown) {
	const result = parsePatchInstruction(typeof body === "string" ? body : JSON.stringify(body));
	if (!result.ok) throw new Error(result.detail);
	return result.parsed;
}

function refusal(body: unknown): string {
	const result = parsePatchInstruction(typeof body === "string" ? body : JSON.stringify(body));
	if (result.ok) throw new Error("expected a refusal");
	return result.detail;
}

function patched(result: PatchResult): string {
	if (!result.ok) throw new Error(`patch failed: ${result.reason}: ${result.detail}`);
	return result.content;
}

const NOTE = "---\nstatus: draft\ntags: [a]\n---\n# Plan\nintro\n## Next\n- one\n# Done\n";

describe("parsePatchInstruction (Local REST API format 2)", () => {
	it("reads a heading instruction: the target is a path, and headings in the content are relative", () => {
		const { instruction, body, ifMatch } = parsed({
			targetType: "heading",
			target: ["Plan", "Next"],
			operation: "append",
			content: "- two",
			ifMatch: "abc",
		});
		expect(instruction).toMatchObject({
			targetType: "heading",
			operation: "append",
			headingPath: ["Plan", "Next"],
			relativeHeadings: true,
			createTargetIfMissing: false,
		});
		expect(body).toBe("- two");
		expect(ifMatch).toBe("abc");
		expect(patched(applyPatch(NOTE, instruction, body))).toBe(NOTE.replace("- one\n", "- one\n- two\n"));
	});

	it("takes a heading text containing :: literally, and a single string as a one-heading path", () => {
		expect(
			parsed({ targetType: "heading", target: ["A::B"], operation: "append", content: "x" }).instruction.headingPath,
		).toEqual(["A::B"]);
		expect(
			parsed({ targetType: "heading", target: "Plan", operation: "append", content: "x" }).instruction.headingPath,
		).toEqual(["Plan"]);
	});

	// Issue 23: a frontmatter value rides in "value" only, as LRA 5.1 defines it (issue 22 also took "content" as text).
	it("carries a frontmatter value as JSON, a text as a JSON string, and refuses one sent in content", () => {
		const value = parsed({ targetType: "frontmatter", target: "tags", operation: "append", value: ["b"] });
		expect(patched(applyPatch(NOTE, value.instruction, value.body))).toBe(NOTE.replace("tags: [a]", "tags: [a, b]"));
		const text = parsed({ targetType: "frontmatter", target: "status", operation: "replace", value: "done" });
		expect(patched(applyPatch(NOTE, text.instruction, text.body))).toBe(NOTE.replace("draft", "done"));
		expect(refusal({ targetType: "frontmatter", target: "status", operation: "replace", content: "done" })).toMatch(
			/goes in "value" as JSON/,
		);
	});

	it("reads scope, within, destination, rejectIfContentPreexists and table rows (LRA 5.1's whole algebra)", () => {
		expect(
			parsed({ targetType: "heading", target: ["Plan"], operation: "replace", scope: "marker", content: "Renamed" })
				.instruction,
		).toMatchObject({ scope: "marker" });
		expect(
			parsed({ targetType: "heading", target: ["Plan"], operation: "append", within: -1, content: " more" })
				.instruction,
		).toMatchObject({ within: -1 });
		const move = parsed({
			targetType: "heading",
			target: ["Plan", "Details"],
			operation: "replace",
			scope: "parent",
			destination: { parent: ["Appendix"], place: { after: ["Appendix", "First"] } },
		});
		expect(move).toMatchObject({
			body: "",
			instruction: { scope: "parent", destination: { parent: ["Appendix"], place: { after: ["Appendix", "First"] } } },
		});
		expect(
			parsed({
				targetType: "heading",
				target: ["Plan"],
				operation: "append",
				content: "x",
				rejectIfContentPreexists: true,
			}).instruction,
		).toMatchObject({ rejectIfContentPreexists: true });
		expect(parsed({ targetType: "block", target: "t", operation: "append", value: [["a", "b"]] })).toMatchObject({
			body: '[["a","b"]]',
			instruction: { json: true },
		});
		expect(
			parsed({
				targetType: "frontmatter",
				target: "title",
				operation: "append",
				scope: "markerAndContent",
				value: { due: 1 },
			}),
		).toMatchObject({ body: '{"due":1}', instruction: { json: true } });
	});

	it("needs no payload to delete", () => {
		const { instruction, body } = parsed({ targetType: "frontmatter", target: "status", operation: "delete" });
		expect(patched(applyPatch(NOTE, instruction, body))).toBe(NOTE.replace("status: draft\n", ""));
	});

	it("deletes the last frontmatter key leaving empty fences, and refuses to delete a key that is not there", () => {
		const { instruction, body } = parsed({ targetType: "frontmatter", target: "a", operation: "delete" });
		expect(patched(applyPatch("---\na: 1\n---\ntext\n", instruction, body))).toBe("---\n---\ntext\n");
		expect(applyPatch("---\nb: 1\n---\n", instruction, body)).toMatchObject({ ok: false, reason: "target-not-found" });
	});

	it.each([
		[
			"an unknown field",
			{ targetType: "heading", target: ["Plan"], operation: "append", content: "x", position: "end" },
			/Unknown field "position"; the fields are targetType, target/,
		],
		["a body that is not an object", ["heading"], /not an object/],
		["a body that is not JSON", "- item", /not valid JSON/],
		[
			"an unknown operation",
			{ targetType: "heading", target: ["Plan"], operation: "insert", content: "x" },
			/"operation" must be/,
		],
		[
			"an unknown target type",
			{ targetType: "file", target: "x", operation: "append", content: "x" },
			/"targetType" must be/,
		],
		[
			"an unknown scope",
			{ targetType: "heading", target: ["Plan"], operation: "replace", scope: "label", content: "x" },
			/"scope" must be "content" \(the default\), "marker"/,
		],
		[
			"a destination without scope parent",
			{
				targetType: "heading",
				target: ["Plan"],
				operation: "replace",
				scope: "content",
				destination: { parent: null, place: "last" },
			},
			/"destination" goes only with scope "parent"/,
		],
		[
			"a move of a block",
			{
				targetType: "block",
				target: "b",
				operation: "replace",
				scope: "parent",
				destination: { parent: null, place: "last" },
			},
			/Scope "parent" moves a heading section/,
		],
		[
			"a destination of the wrong shape",
			{
				targetType: "heading",
				target: ["Plan"],
				operation: "replace",
				scope: "parent",
				destination: { parent: "Plan", place: "last" },
			},
			/A "destination" is \{"parent"/,
		],
		[
			"within with scope marker",
			{ targetType: "heading", target: ["Plan"], operation: "replace", scope: "marker", within: 0, content: "x" },
			/cannot be within-refined/,
		],
		[
			"within with createTargetIfMissing",
			{
				targetType: "heading",
				target: ["Plan"],
				operation: "append",
				within: 0,
				content: "x",
				createTargetIfMissing: true,
			},
			/createTargetIfMissing/,
		],
		[
			"a within that is not a whole number",
			{ targetType: "heading", target: ["Plan"], operation: "append", within: 1.5, content: "x" },
			/"within" must be a whole number/,
		],
		[
			"a marker append",
			{ targetType: "heading", target: ["Plan"], operation: "append", scope: "marker", content: "x" },
			/can be replaced \(renamed\) or deleted/,
		],
		[
			"both content and value",
			{ targetType: "frontmatter", target: "a", operation: "replace", content: "x", value: 1 },
			/exactly one of "content"/,
		],
		[
			"a JSON value for a heading",
			{ targetType: "heading", target: ["Plan"], operation: "append", value: 1 },
			/heading's body is markdown text/,
		],
		[
			"table rows with a marker scope",
			{ targetType: "block", target: "t", operation: "replace", scope: "marker", value: [["a"]] },
			/takes the new block id as "content"/,
		],
		["no content", { targetType: "heading", target: ["Plan"], operation: "append" }, /needs "content"/],
		[
			"an empty heading path",
			{ targetType: "heading", target: [], operation: "append", content: "x" },
			/names the whole note/,
		],
		[
			"a heading path that is not strings",
			{ targetType: "heading", target: [1], operation: "append", content: "x" },
			/list of heading texts/,
		],
		[
			"an empty ifMatch",
			{ targetType: "heading", target: ["Plan"], operation: "append", content: "x", ifMatch: "" },
			/"ifMatch" must be/,
		],
		[
			"a rejectIfContentPreexists that is not a boolean",
			{ targetType: "heading", target: ["Plan"], operation: "append", content: "x", rejectIfContentPreexists: "yes" },
			/"rejectIfContentPreexists" must be true or false/,
		],
		["JSON nested too deeply", "[".repeat(100) + "]".repeat(100), /nested more than 64 levels/],
	])("refuses %s, saying what is wrong", (_, body, detail) => {
		expect(refusal(body)).toMatch(detail);
	});
});

describe("format 2 heading semantics", () => {
	it("rebases headings in inserted text: # becomes a direct child of the target, never past ######", () => {
		expect(rebaseHeadings("# New\ntext\n## Child\n```\n# code\n```\n", 2)).toBe(
			"### New\ntext\n#### Child\n```\n# code\n```\n",
		);
		expect(rebaseHeadings("#### Deep\n", 5)).toBe("###### Deep\n");
		expect(rebaseHeadings("no headings\n", 3)).toBe("no headings\n");
	});

	it("deletes a heading's content and keeps the heading", () => {
		const { instruction, body } = parsed({ targetType: "heading", target: ["Plan"], operation: "delete" });
		expect(patched(applyPatch(NOTE, instruction, body))).toBe(NOTE.replace("intro\n## Next\n- one\n", ""));
	});

	it("creates a missing heading with its content rebased below it", () => {
		const { instruction, body } = parsed({
			targetType: "heading",
			target: ["Plan", "New"],
			operation: "append",
			content: "# Sub\n",
			createTargetIfMissing: true,
		});
		expect(patched(applyPatch(NOTE, instruction, body))).toBe(NOTE.replace("- one\n", "- one\n\n## New\n### Sub\n"));
	});
});
