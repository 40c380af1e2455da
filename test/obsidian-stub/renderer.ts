/**
 * Obsidian's MarkdownRenderer, as far as rendering a note into a detached element goes: headings, paragraphs and
 * internal links (`<a class="internal-link" data-href href>`) as Obsidian builds them. Kinder to an attacker than
 * Obsidian, on purpose: a line of raw HTML becomes live DOM unsanitized (Obsidian strips scripts and handlers
 * first), and a markdown link keeps any address, `javascript:` included, so the tests show that what the plugin
 * writes out of the element is safe whatever the renderer left in it. Needs a DOM (happy-dom).
 */
import type { App } from "./app";
import type { Component } from "./plugin";

export abstract class MarkdownRenderer {
	static async render(
		_app: App,
		markdown: string,
		el: HTMLElement,
		_sourcePath: string,
		component: Component,
	): Promise<void> {
		if (!component.loaded) throw new Error("MarkdownRenderer.render needs a loaded component");
		const document = el.ownerDocument;
		for (const line of markdown.split(/\r?\n/)) {
			if (line.trim() === "") continue;
			const heading = /^(#{1,6})\s+(.*)$/.exec(line);
			if (/^\s*</.test(line)) {
				el.append(...Array.from(new DOMParser().parseFromString(line, "text/html").body.childNodes));
				continue;
			}
			const block = document.createElement(heading ? `h${heading[1]!.length}` : "p");
			appendInline(block, heading ? heading[2]! : line);
			el.appendChild(block);
		}
		await Promise.resolve();
	}
}

/** Text with `[[internal]]` and `[text](address)` links made into anchors. */
function appendInline(block: HTMLElement, text: string): void {
	const document = block.ownerDocument;
	let at = 0;
	for (const match of text.matchAll(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]|\[([^\]]+)\]\(([^)]*)\)/g)) {
		block.append(text.slice(at, match.index));
		const link = document.createElement("a");
		if (match[1] !== undefined) {
			link.className = "internal-link";
			link.setAttribute("data-href", match[1]);
			link.setAttribute("href", match[1]);
			link.textContent = match[2] ?? match[1];
		} else {
			link.setAttribute("href", match[4]!);
			link.textContent = match[3]!;
		}
		block.appendChild(link);
		at = match.index + match[0].length;
	}
	block.append(text.slice(at));
}
