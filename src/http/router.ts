/**
 * Route table. Matching works on the RAW path (still percent-encoded) so that an encoded `..%2F` can never change
 * which route is chosen; handlers decode their path segment exactly once through the core path validator.
 */
import type { IncomingHttpHeaders } from "http";
import type { AgentActor } from "../service/notes/actor";
import type { AgentNotes } from "../service/notes/agent-notes";
import type { AgentKey } from "../settings";
import type { ApiResponse } from "./response";

/** MOVE and COPY are WebDAV's (RFC 4918), as the Local REST API 5.x serves them on /vault/{path}. */
export type Method = "GET" | "HEAD" | "PUT" | "POST" | "DELETE" | "PATCH" | "OPTIONS" | "MOVE" | "COPY";

export interface RequestContext {
	method: Method;
	/** The raw remainder captured by the route (e.g. the encoded note path after /vault/). */
	rest: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	/** The authenticated key, or null on public routes called without one. */
	agent: AgentKey | null;
	/** The caller as the service knows it (its key's name, and the client its implicit tokens belong to); null without a key. */
	actor: AgentActor | null;
	/** The application service: every handler works through it. */
	notes: AgentNotes;
	/** Aborts when the client goes away before the answer (long-polls stop waiting then). */
	signal: AbortSignal;
	/** Reads the request body (capped, strict UTF-8); only routes that take a body call it. Throws a Problem when it cannot. */
	body(): Promise<string>;
}

export type Handler = (context: RequestContext) => Promise<ApiResponse>;

/** The caller of a route that needs a key (the server checked it before the handler ran). */
export function actorOf(context: RequestContext): AgentActor {
	if (context.actor === null) throw new Error("a route that needs a key ran without one");
	return context.actor;
}

export interface Route {
	/** OpenAPI-style path template, used in docs and tests. */
	template: string;
	/** Returns the captured remainder when the raw path matches, else null. */
	match(rawPath: string): string | null;
	handlers: Partial<Record<Method, Handler>>;
	/** Served without a key. */
	public?: boolean;
	/** Touches no note, so it is answered while the host is still starting (StartupReadiness); others wait for it. */
	beforeReady?: boolean;
}

export function exact(path: string): (raw: string) => string | null {
	return (raw) => (raw === path ? "" : null);
}

export function prefix(start: string): (raw: string) => string | null {
	return (raw) => (raw.startsWith(start) ? raw.slice(start.length) : null);
}

/** One segment after `start`, with no further slash. */
export function segment(start: string): (raw: string) => string | null {
	return (raw) =>
		raw.startsWith(start) && raw.length > start.length && !raw.slice(start.length).includes("/")
			? raw.slice(start.length)
			: null;
}

/** `start` + one segment + `end` (e.g. /conflicts/{id}/merge); captures "{id}" + end. */
export function suffixed(start: string, end: string): (raw: string) => string | null {
	return (raw) => {
		if (!raw.startsWith(start) || !raw.endsWith(end)) return null;
		const middle = raw.slice(start.length, raw.length - end.length);
		return middle !== "" && !middle.includes("/") ? middle + end : null;
	};
}

export type RouteMatch =
	| { kind: "found"; route: Route; handler: Handler; rest: string }
	| { kind: "method-not-allowed"; allow: Method[] }
	| { kind: "not-found" };

export function findRoute(routes: readonly Route[], method: Method, rawPath: string): RouteMatch {
	for (const route of routes) {
		const rest = route.match(rawPath);
		if (rest === null) continue;
		const handler = route.handlers[method] ?? (method === "HEAD" ? route.handlers.GET : undefined);
		if (handler) return { kind: "found", route, handler, rest };
		return { kind: "method-not-allowed", allow: allowedMethods(route) };
	}
	return { kind: "not-found" };
}

export function allowedMethods(route: Route): Method[] {
	const methods = Object.keys(route.handlers) as Method[];
	if (methods.includes("GET") && !methods.includes("HEAD")) methods.push("HEAD");
	return methods;
}
