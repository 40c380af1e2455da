/**
 * How the headless host renders a note as HTML: markdown-it (CommonMark, maintained, no dependencies on a DOM), with
 * raw HTML turned off, so any HTML written in a note is shown as text, never run; its link check keeps `javascript:`
 * and other script-bearing addresses out of links and images. Frontmatter is shown as a YAML block, as Obsidian's
 * reading view does. Wikilinks, embeds and callouts (Obsidian's own syntax) stay as the text they are.
 * Only the headless host imports this file: the plugin renders with Obsidian's own renderer and never bundles markdown-it.
 */
import MarkdownIt from "markdown-it";
import { escapeText } from "../core/html/safe-html";
import { findFrontmatter } from "../core/markdown/frontmatter";

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

export function renderMarkdown(text: string, maxChars: number): string | null {
	const frontmatter = findFrontmatter(text);
	const yaml = frontmatter
		? `<pre class="frontmatter language-yaml"><code>${escapeText(frontmatter.yaml)}</code></pre>\n`
		: "";
	const html = yaml + markdown.render(frontmatter ? text.slice(frontmatter.end) : text);
	return html.length > maxChars ? null : html;
}
