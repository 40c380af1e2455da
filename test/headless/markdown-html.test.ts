import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/headless/markdown-html";

describe("renderMarkdown (the headless host's HTML)", () => {
	it("renders CommonMark: headings, emphasis, lists, tables, code", () => {
		const html = renderMarkdown(
			"# Alpha\n\nSome *em* and **strong**.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nx < y\n```\n",
			1e6,
		)!;
		expect(html).toContain("<h1>Alpha</h1>");
		expect(html).toContain("<em>em</em>");
		expect(html).toContain("<li>two</li>");
		expect(html).toContain("<td>2</td>");
		expect(html).toContain('<code class="language-js">x &lt; y\n</code>');
	});

	it("shows raw HTML in a note as text: nothing in it runs", () => {
		const html = renderMarkdown(
			'<script>alert(1)</script>\n\nText <img src=x onerror="alert(2)"> and <a href="javascript:alert(3)">x</a>\n',
			1e6,
		)!;
		expect(html).not.toMatch(/<script|<img|<a /);
		expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
	});

	it("keeps script-bearing addresses out of links and images", () => {
		const html = renderMarkdown(
			"[a](javascript:alert(1)) [b](vbscript:x) ![c](data:text/html;base64,PHNjcmlwdD4=) [ok](https://x.test/a) [rel](Notes/Plan.md)\n",
			1e6,
		)!;
		expect(html).not.toMatch(/href="(javascript|vbscript|data):/);
		expect(html).not.toMatch(/src="data:text/);
		expect(html).toContain('<a href="https://x.test/a">ok</a>');
		expect(html).toContain('<a href="Notes/Plan.md">rel</a>');
	});

	it("shows frontmatter as an escaped YAML block, as Obsidian's reading view does, not as a heading", () => {
		const html = renderMarkdown("---\ntitle: <b>x</b>\ntags: [a]\n---\n# Body\n", 1e6)!;
		expect(
			html.startsWith(
				'<pre class="frontmatter language-yaml"><code>title: &lt;b&gt;x&lt;/b&gt;\ntags: [a]\n</code></pre>\n',
			),
		).toBe(true);
		expect(html).toContain("<h1>Body</h1>");
		expect(html).not.toContain("<h2>");
	});

	it("gives null when the HTML would be longer than maxChars", () => {
		expect(renderMarkdown("x".repeat(100), 50)).toBeNull();
		expect(renderMarkdown("short", 50)).toBe("<p>short</p>\n");
	});
});
