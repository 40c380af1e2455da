/**
 * A note (or a part of it) as HTML, for `Accept: text/html` as the Local REST API serves it: rendered by the host
 * (Obsidian's renderer in Obsidian, markdown-it headless) and safe to show, since nothing a note holds can run in it
 * (see core/html/safe-html.ts and headless/markdown-html.ts). A rendering is not the note's text, so the answer
 * counts as a read of part of the note: its ETag is a part token, which can patch but never replace the note.
 */
import { problem } from "../problems";
import type { ApiResponse } from "../response";
import { actorOf, type RequestContext } from "../router";
import { headersValue } from "./headers";

export const HTML_TYPE = "text/html";

/** HTML is wanted when Accept names it and does not also name markdown (LRA sends HTML for exactly `text/html`). */
export function wantsHtml(context: RequestContext): boolean {
	const accept = headersValue(context, "accept") ?? "";
	return accept.includes(HTML_TYPE) && !accept.includes("text/markdown");
}

/** Defence in depth for a client that shows the HTML as a page: nothing may run, load or be framed from it. */
const HTML_HEADERS = {
	"Content-Security-Policy": "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; sandbox",
	"X-Content-Type-Options": "nosniff",
};

export async function htmlAnswer(
	context: RequestContext,
	path: string,
	markdown: string,
	headers: Record<string, string>,
): Promise<ApiResponse> {
	const rendered = await context.notes.facts.renderHtml(actorOf(context), path, markdown);
	switch (rendered.kind) {
		case "html":
			return {
				status: 200,
				headers: { ...headers, ...HTML_HEADERS },
				body: rendered.html,
				contentType: "text/html; charset=utf-8",
				omitBody: context.method === "HEAD",
			};
		case "unavailable":
			return problem(
				"not-renderable",
				"This host has no markdown renderer, so the note cannot be sent as HTML. GET it without " +
					"Accept: text/html for its markdown.",
				{ path },
				headers,
			);
		case "links-hidden":
			return problem(
				"not-renderable",
				"The note links to or embeds a note this key may not see, and the HTML would show " +
					"where that link leads (an embed, what it holds), so it is not rendered. GET it without " +
					"Accept: text/html for its markdown.",
				{ path },
				headers,
			);
		case "too-large":
			return problem(
				"not-renderable",
				rendered.limit === "markdown"
					? "The note is too long to render as HTML here (over 1 MB of text). GET it without " +
							"Accept: text/html for its markdown."
					: "The note's HTML would be over 4 MB, too long to send. GET it without Accept: text/html for its markdown.",
				{ path },
				headers,
			);
	}
}
