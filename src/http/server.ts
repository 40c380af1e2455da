/**
 * The agent API server: Node `http` on 127.0.0.1. It keeps the connections and dispatches: each request passes Host →
 * Origin → route → key → handler, the checks made by the request gate (request-gate.ts); any failure is a
 * problem+json answer, and an unexpected error is a bare 500 that reveals nothing and keeps serving.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "http";
import type { AddressInfo, Socket } from "net";
import type { Duplex } from "stream";
import type { AgentNotes } from "../service/notes/agent-notes";
import { answerProblems } from "./answer-problems";
import type { Mount } from "./mount";
import { ConnectionGuard, DEFAULT_LIMITS, type ConnectionLimits } from "./connections";
import { problem } from "./problems";
import { RequestGate } from "./request-gate";
import { requestContext } from "./request-context";
import type { ApiResponse } from "./response";
import { allowedMethods, findRoute, type Method, type Route } from "./router";
import { ROUTES } from "./routes";
import { answerAndClose, preflight, send, withHeaders } from "./wire";

const METHODS: readonly Method[] = ["GET", "HEAD", "PUT", "POST", "DELETE", "PATCH", "OPTIONS", "MOVE", "COPY"];

export const LOOPBACK = "127.0.0.1";

export interface ApiServerOptions {
	/** The application service handlers call. */
	notes: AgentNotes;
	/** Sub-handlers mounted by the host (MCP on /mcp), served after the same Host, Origin and key checks. */
	mounts?: readonly Mount[];
	/** Called with unexpected errors (never sent to clients). */
	onError?: (error: unknown) => void;
	routes?: readonly Route[];
	/** Connection limits (tests lower them). */
	connections?: ConnectionLimits;
}

export class ApiServer {
	private readonly server: Server;
	private readonly gate: RequestGate;
	private port = 0;
	private host = LOOPBACK;
	/** The response each connection is answering right now, if any. */
	private readonly responses = new WeakMap<Duplex, ServerResponse>();
	private readonly routes: readonly Route[];
	readonly connections: ConnectionGuard;

	constructor(private readonly options: ApiServerOptions) {
		this.gate = new RequestGate(options.notes);
		this.routes = [...(options.routes ?? ROUTES), ...(options.mounts ?? []).map((mount) => mount.route)];
		// A local API receives even a 16 MB body in well under a second; short limits, checked every second, stop a
		// slow client (slow-loris, or a Content-Length it never fills) from pinning sockets: 10 s for the headers,
		// 15 s for the whole request. Long-polls are unaffected: these limits cover receiving a request only.
		// A missing Host is refused by our own Host check (421, problem+json), not by Node with a bare 400.
		const limits = {
			headersTimeout: 10_000,
			requestTimeout: 15_000,
			connectionsCheckingInterval: 1_000,
			requireHostHeader: false,
		};
		const onRequest = (request: IncomingMessage, response: ServerResponse) => {
			// Already answered 503 when it connected; that answer stands.
			if (this.connections.wasRefused(request.socket)) {
				request.resume();
				return;
			}
			this.responses.set(request.socket, response);
			this.connections.requestStarted(request.socket);
			response.once("close", () => {
				this.connections.requestFinished(request.socket);
				if (this.responses.get(request.socket) === response) this.responses.delete(request.socket);
			});
			void this.handle(request, response);
		};
		const limitsOfConnections = options.connections ?? DEFAULT_LIMITS;
		this.connections = new ConnectionGuard(
			options.notes.timers,
			options.notes.now,
			(socket) => {
				answerAndClose(
					socket,
					problem(
						"server-busy",
						"Every connection the server keeps is busy answering a request, so this one was not taken. Retry in a second.",
						{},
						{ "Retry-After": "1" },
					),
				);
			},
			limitsOfConnections,
		);
		this.server = createServer(limits, onRequest);
		this.server.on("connection", (socket: Socket) => this.connections.admit(socket));
		// An Expect other than 100-continue is ignored (RFC 9110 allows it) rather than answered with Node's bare 417.
		this.server.on("checkExpectation", onRequest);
		this.server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) =>
			this.refuseUnparsable(error, socket),
		);
		// A CONNECT (a proxy tunnel) would otherwise be dropped without an answer; it gets the 405 any other method would.
		this.server.on("connect", (request: IncomingMessage, socket: Duplex) => {
			answerAndClose(
				socket,
				problem(
					"method-not-allowed",
					`${request.method ?? "CONNECT"} is not served here: this is not a proxy. See GET /openapi.json.`,
					{},
					{ Allow: METHODS.join(", ") },
				),
			);
		});
		this.server.keepAliveTimeout = 5_000;
		// The connection guard keeps the real limit (making room, or answering 503); this only bounds descriptors.
		this.server.maxConnections = limitsOfConnections.max * 2;
	}

	/** Listens on 127.0.0.1 unless the person chose another address (with a warning). Port 0 picks a free port (tests). */
	listen(port: number, host = LOOPBACK): Promise<number> {
		this.host = host;
		return new Promise((resolve, reject) => {
			const onError = (error: Error) => reject(error);
			this.server.once("error", onError);
			this.server.listen(port, host, () => {
				this.server.off("error", onError);
				this.port = (this.server.address() as AddressInfo).port;
				resolve(this.port);
			});
		});
	}

	get boundPort(): number {
		return this.port;
	}

	async close(): Promise<void> {
		this.connections.close();
		for (const mount of this.options.mounts ?? []) await mount.close();
		return new Promise((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	/**
	 * A request Node's HTTP parser refuses (a malformed request line, header or body framing) never reaches `handle`.
	 * It is answered like every other error, as problem+json, and the connection is closed, as Node's own handler
	 * does; when a response on that connection is already under way, the connection is only closed.
	 */
	private refuseUnparsable(error: NodeJS.ErrnoException, socket: Duplex): void {
		if (this.responses.get(socket)?.headersSent) {
			socket.destroy();
			return;
		}
		answerAndClose(
			socket,
			problem(
				"bad-request",
				`The request is not valid HTTP/1.1 (${error.code ?? "parse error"}), so nothing was ` +
					`read or written. Check the request line, the headers and the body's length or chunked framing.`,
			),
		);
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		let answer: ApiResponse | null;
		try {
			answer = await this.route(request, response);
		} catch (error) {
			this.options.onError?.(error);
			// The MCP transport may have started its answer; then all that is left is to end the connection.
			if (response.headersSent) {
				response.destroy();
				return;
			}
			answer = problem(
				"internal-error",
				"The server hit an unexpected error while handling this request. Nothing was written " +
					"by this request's failed step; retry, and report it if it repeats.",
			);
		}
		if (answer) send(response, request.method === "HEAD" ? { ...answer, omitBody: true } : answer, request);
	}

	/** The answer to send, or null when the MCP endpoint has answered on `response` itself. */
	private async route(request: IncomingMessage, response: ServerResponse): Promise<ApiResponse | null> {
		const { notes } = this.options;
		const admission = this.gate.admit(request, this.port, this.host);
		if (!admission.admitted) return admission.refusal;
		const { cors } = admission;
		const rawUrl = request.url ?? "/";
		const queryAt = rawUrl.indexOf("?");
		const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
		const query = new URLSearchParams(queryAt === -1 ? "" : rawUrl.slice(queryAt + 1));
		const method = (request.method ?? "GET").toUpperCase() as Method;
		// A method we do not serve at all is looked up as GET, so its 405 can still carry the route's Allow list.
		const known = METHODS.includes(method);
		const found = findRoute(this.routes, !known || method === "OPTIONS" ? "GET" : method, rawPath);
		if (method === "OPTIONS") return preflight(found.kind === "found" ? allowedMethods(found.route) : null, cors);

		// The key is checked before anything else about the route is revealed: without one, only a public route answers.
		const key = this.gate.checkKey(request, found.kind === "found" && found.route.public === true);
		if (key.agent) this.connections.authenticated(request.socket);
		if (key.refusal) return withHeaders(key.refusal, cors);
		const { agent, scoped } = key;

		if (found.kind === "not-found")
			return withHeaders(problem("route-not-found", `There is no route ${rawPath}. See GET /openapi.json.`), cors);
		if (!known || found.kind === "method-not-allowed") {
			const allow = found.kind === "found" ? allowedMethods(found.route) : found.allow;
			return withHeaders(
				problem(
					"method-not-allowed",
					`${request.method ?? ""} is not allowed on ${rawPath}; use ${allow.join(", ")}.`,
					{},
					{ Allow: allow.join(", ") },
				),
				cors,
			);
		}

		const mount = agent ? this.options.mounts?.find((candidate) => candidate.route === found.route) : undefined;
		const { readiness } = notes;
		if (!readiness.ready && !found.route.beforeReady) {
			const retryAfter = readiness.retryAfterSeconds();
			const answer =
				mount?.startingUp?.(readiness.describe(), retryAfter) ??
				problem("starting-up", readiness.describe(), {}, { "Retry-After": String(retryAfter) });
			return withHeaders(answer, cors);
		}
		if (mount && agent) {
			const answer = await answerProblems(() => mount.handle(request, response, agent, cors));
			return answer && withHeaders(answer, cors);
		}

		const context = requestContext(request, response, {
			method,
			rest: found.rest,
			query,
			agent: scoped?.ok ? agent : null,
			...(scoped?.ok ? { scope: scoped.scope } : {}),
			notes,
		});
		return withHeaders(await answerProblems(() => found.handler(context)), cors);
	}
}
