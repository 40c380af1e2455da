// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { escapeText, safeHtml } from "../../../src/core/html/safe-html";

/** A detached element holding `html` as a browser parses it (what a renderer may leave in its element). */
function parsed(html: string): HTMLElement {
	const element = document.createElement("div");
	element.append(...Array.from(new DOMParser().parseFromString(html, "text/html").body.childNodes));
	return element;
}

describe("safeHtml", () => {
	it("keeps a document's elements and text as they are", () => {
		const html =
			'<h1 data-heading="Title">Title</h1><p>Some <strong>bold</strong>, <em>em</em> and <code>code</code>.</p><ul><li class="task-list-item" data-task="x"><input type="checkbox" checked="" disabled="">done</li></ul><table><thead><tr><th colspan="2">A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table><hr><pre><code>x &lt; y</code></pre>';
		expect(safeHtml(parsed(html), 1e6)).toBe(html);
	});

	it("leaves out scripts, styles, frames, objects and forms with all they hold", () => {
		const dropped = [
			"<script>alert(1)</script>",
			"<style>p{}</style>",
			'<object data="x"></object>',
			"<svg><script>alert(2)</script></svg>",
			"<form><button>go</button></form>",
			"<template><p>t</p></template>",
			'<embed src="x">',
		];
		for (const html of dropped) {
			const element = parsed("<p>a</p>");
			element.append(...Array.from(parsed(html).childNodes), parsed("<p>b</p>").firstChild!);
			expect(safeHtml(element, 1e6), html).toBe("<p>a</p><p>b</p>");
		}
		// A frame as a plain node (a DOM would try to load it): the walk needs only the node's shape.
		const text = (value: string) => ({ nodeType: 3, nodeName: "#text", nodeValue: value, childNodes: [] });
		const frame = {
			nodeType: 1,
			nodeName: "IFRAME",
			nodeValue: null,
			childNodes: [text("inside")],
			attributes: [{ name: "src", value: "https://x.test" }],
		};
		expect(
			safeHtml({ nodeType: 1, nodeName: "DIV", nodeValue: null, childNodes: [text("a"), frame, text("b")] }, 1e6),
		).toBe("ab");
	});

	it("drops event handlers, style and unknown attributes", () => {
		const html =
			'<p onclick="alert(1)" style="color:red" id="x" class="ok">t</p><img src="https://x.test/a.png" onerror="alert(1)" alt="a">';
		expect(safeHtml(parsed(html), 1e6)).toBe('<p class="ok">t</p><img src="https://x.test/a.png" alt="a">');
	});

	it("keeps only http(s), mailto, obsidian and relative addresses in links and images", () => {
		const links = [
			"javascript:alert(1)",
			"JaVaScRiPt:alert(1)",
			" java\tscript:alert(1)",
			"vbscript:x",
			"data:text/html,<script>alert(1)</script>",
			"file:///etc/passwd",
		];
		for (const href of links)
			expect(safeHtml(parsed(`<a href="${href.replace(/"/g, "&quot;").replace(/</g, "&lt;")}">x</a>`), 1e6), href).toBe(
				"<a>x</a>",
			);
		const kept = [
			"https://x.test/a",
			"http://x.test",
			"mailto:a@x.test",
			"obsidian://open?vault=v",
			"Notes/Plan.md",
			"Plan",
			"#heading",
			"folder/a:b",
			"?q=a:b",
		];
		for (const href of kept)
			expect(safeHtml(parsed(`<a href="${href}">x</a>`), 1e6), href).toBe(`<a href="${href}">x</a>`);
		expect(safeHtml(parsed('<img src="javascript:alert(1)" alt="x">'), 1e6)).toBe('<img alt="x">');
	});

	it("keeps an unknown element's text but not the element, and leaves out comments", () => {
		expect(
			safeHtml(parsed('<custom-el onclick="x"><b>in</b>side</custom-el><!-- note --><marquee>m</marquee>'), 1e6),
		).toBe("<b>in</b>sidem");
	});

	it("keeps checkboxes only among inputs", () => {
		expect(safeHtml(parsed('<input type="text" value="x"><input type="checkbox">'), 1e6)).toBe(
			'<input type="checkbox">',
		);
	});

	it("escapes text and attribute values, so nothing read back turns into markup", () => {
		const element = document.createElement("p");
		element.setAttribute("title", '"><script>alert(1)</script>');
		element.textContent = "<script>alert(1)</script> & more";
		const wrapper = document.createElement("div");
		wrapper.appendChild(element);
		const html = safeHtml(wrapper, 1e6)!;
		expect(html).toBe(
			'<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</p>',
		);
		expect(parsed(html).querySelector("script")).toBeNull();
	});

	it("writes out a deeply nested tree without overflowing the stack", () => {
		let root: HTMLElement = document.createElement("div");
		const top = root;
		for (let depth = 0; depth < 20_000; depth++) {
			const child = document.createElement("blockquote");
			root.appendChild(child);
			root = child;
		}
		root.textContent = "deep";
		const html = safeHtml(top, 1e7)!;
		expect(html.startsWith("<blockquote>".repeat(3))).toBe(true);
		expect(html).toContain("deep");
	});

	it("gives null past maxChars", () => {
		expect(safeHtml(parsed("<p>" + "x".repeat(100) + "</p>"), 50)).toBeNull();
		expect(safeHtml(parsed("<p>short</p>"), 50)).toBe("<p>short</p>");
	});
});

describe("escapeText", () => {
	it("escapes what could open markup or an entity", () => {
		expect(escapeText('a < b && c > d "q"')).toBe('a &lt; b &amp;&amp; c &gt; d "q"');
	});
});
