/**
 * A rendered note as HTML anyone may show: written out from a DOM tree (Obsidian's renderer output) element by element,
 * keeping only the elements and attributes a document needs. Nothing that runs survives: no <script>, <style>,
 * <iframe>, <object>, no `on…` attribute, no `style`, no link or image address other than http(s), mailto, obsidian or
 * a relative one. An element not on the list is left out but its text kept (escaped); text is always escaped.
 * Iterative, so a deeply nested note cannot overflow the stack; stops at `maxChars` (null then: too large).
 */

/** The slice of a DOM node this reads: it takes Obsidian's nodes and any other DOM alike. */
export interface HtmlNode {
	nodeType: number;
	nodeName: string;
	nodeValue: string | null;
	childNodes: ArrayLike<HtmlNode>;
	attributes?: ArrayLike<{ name: string; value: string }>;
}

const ELEMENT = 1;
const TEXT = 3;

const KEPT = new Set(
	(
		"a abbr b bdi bdo blockquote br caption cite code col colgroup dd del details dfn " +
		"div dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 " +
		("header hr i img input ins kbd li mark ol p pre q rp rt ruby s samp section small " +
			"span strong sub summary sup table tbody td tfoot th thead ") +
		"time tr u ul var wbr"
	).split(" "),
);
/** Left out with everything inside them: what they hold is code or another document, never the note's text. */
const DROPPED = new Set(
	(
		"script style iframe frame frameset object embed applet template noscript svg math " +
		"canvas audio video source track link meta base form button select textarea"
	).split(" "),
);
const VOID = new Set("br col hr img input wbr".split(" "));
const ATTRIBUTES = new Set(
	(
		"class title alt colspan rowspan start reversed type checked disabled open dir lang " +
		"width height datetime data-href data-callout data-task data-heading data-line"
	).split(" "),
);
const URL_ATTRIBUTES: Record<string, string> = { a: "href", img: "src" };
const SAFE_URL = /^(?:https?:|mailto:|obsidian:|#|[^:]*$|[^:]*[/?#])/i;

export function safeHtml(root: HtmlNode, maxChars: number): string | null {
	let out = "";
	// Each entry is a node to write, or the closing tag to write once its children are done.
	const stack: (HtmlNode | string)[] = [...childrenOf(root)].reverse();
	while (stack.length > 0) {
		const next = stack.pop()!;
		if (typeof next === "string") {
			out += next;
		} else if (next.nodeType === TEXT) {
			out += escapeText(next.nodeValue ?? "");
		} else if (next.nodeType === ELEMENT) {
			const tag = next.nodeName.toLowerCase();
			if (DROPPED.has(tag)) continue;
			const kept = KEPT.has(tag) && !(tag === "input" && !isCheckbox(next));
			if (kept) {
				out += `<${tag}${attributesOf(next, tag)}>`;
				if (VOID.has(tag)) continue;
				stack.push(`</${tag}>`);
			}
			const children = childrenOf(next);
			for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
		}
		if (out.length > maxChars) return null;
	}
	return out;
}

/** Text as HTML: the characters that could open markup or an entity, escaped. */
export function escapeText(text: string): string {
	return text.replace(/[&<>]/g, (char) => (char === "&" ? "&amp;" : char === "<" ? "&lt;" : "&gt;"));
}

function escapeAttribute(value: string): string {
	return escapeText(value).replace(/"/g, "&quot;");
}

function attributesOf(element: HtmlNode, tag: string): string {
	let written = "";
	const attributes = element.attributes ?? [];
	for (let index = 0; index < attributes.length; index++) {
		const { name: raw, value } = attributes[index]!;
		const name = raw.toLowerCase();
		if (name === URL_ATTRIBUTES[tag]) {
			if (isSafeUrl(value)) written += ` ${name}="${escapeAttribute(value)}"`;
		} else if (ATTRIBUTES.has(name)) {
			written += ` ${name}="${escapeAttribute(value)}"`;
		}
	}
	return written;
}

/** Browsers ignore whitespace and control characters inside a scheme (`java\tscript:`), so they are dropped before the check. */
function isSafeUrl(value: string): boolean {
	// eslint-disable-next-line no-control-regex -- the control characters a browser skips are the point
	return SAFE_URL.test(value.replace(/[\u0000-\u0020\u007f-\u009f]/g, ""));
}

function isCheckbox(element: HtmlNode): boolean {
	const attributes = element.attributes ?? [];
	for (let index = 0; index < attributes.length; index++) {
		const attribute = attributes[index]!;
		if (attribute.name.toLowerCase() === "type") return attribute.value.toLowerCase() === "checkbox";
	}
	return false;
}

function childrenOf(node: HtmlNode): HtmlNode[] {
	return Array.from(node.childNodes);
}
