/**
 * Random requests against the real server (headless), sent as raw bytes over a socket so nothing normalizes them:
 * odd and invalid methods, raw request targets (percent-encoded random bytes, dot segments, overlong UTF-8,
 * backslashes, raw Unicode), header garbage (If-Match, Host, Origin, Authorization, invalid names), Content-Length
 * lies, chunked bodies good and bad, and bodies that are not UTF-8. Whatever comes in:
 *   - every answer is a well-formed HTTP response, never a 5xx;
 *   - every error answer is application/problem+json with type, title, status and detail;
 *   - the server keeps serving (GET / answers 200 at the end, and nothing reached its error hook);
 *   - nothing outside the vault (a canary folder beside it) and nothing in the vault's hidden folders changes.
 */
import fc from "fast-check";
import { mkdir, mkdtemp, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { parseResponses, sendRaw, type ParsedResponse } from "../helpers/raw-http";
import { snapshotTree, type TreeSnapshot } from "../helpers/tree-snapshot";
import { sha256Token } from "../helpers/vault-files";

const NOTE = "# A note\n\nSome text.\n";
const RUNS = 300;

/** Percent-encodes every byte, so any byte sequence can travel in a request target. */
const percentAll = (bytes: Uint8Array) =>
	[...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0").toUpperCase()}`).join("");

const segment: fc.Arbitrary<string> = fc.oneof(
	fc.constantFrom(
		"..",
		".",
		"...",
		"%2e%2e",
		"%2E%2E",
		".%2e",
		"%2e.",
		"%252e%252e",
		"%25252e%25252e",
		"%c0%ae%c0%ae",
		"%C0%AE",
		"%e0%80%ae%e0%80%ae",
		"%f0%80%80%ae",
		"%c0%af",
		"%e0%80%af",
		"%c1%9c",
		"%c1%1c",
		"..%00",
		"%00",
		"%ff",
		"%",
		"%zz",
		"%2",
		"Note.md",
		"sub",
		"Other.md",
		".obsidian",
		".revision-guard",
		".trash",
		".OBSIDIAN",
		"..%2f",
		"..%2F",
		"..%5c",
		"..%255c",
		"~",
		"C:",
		"c%3a",
		"\\\\server\\share",
		"%u002e%u002e",
		"\u2024\u2024",
		"\uff0e\uff0e",
		"\u2215",
		"%E2%80%A4%E2%80%A4",
		"%EF%BC%8E%EF%BC%8E",
		"CON",
		"nul.md",
		"Note.md.",
		"Note.md%20",
		"Note.md::$DATA",
	),
	fc.uint8Array({ minLength: 1, maxLength: 12 }).map(percentAll),
	fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }).map((text) => encodeURIComponent(text)),
	fc.stringMatching(/^[\x21-\x7e]{1,8}$/),
	// Any Unicode (lone surrogates and control characters included), encoded or sent raw for the parser to refuse.
	fc
		.tuple(
			fc.oneof(
				fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }),
				fc.string({ unit: "binary", minLength: 1, maxLength: 6 }),
			),
			fc.boolean(),
		)
		.map(([text, raw]) => (raw ? text : encodeURIComponent(text.replace(/[\ud800-\udfff]/g, "\ufffd")))),
);

/** Paths a well-behaved client would send: existing notes, new notes, folders (so requests get deep into handlers). */
const plausibleTarget: fc.Arbitrary<string> = fc.oneof(
	fc.constantFrom(
		"/vault/Note.md",
		"/vault/sub/Other.md",
		"/vault/",
		"/vault/sub/",
		"/vault/New.md",
		"/vault/New%20folder/Fresh%20note.md",
		"/changes/Note.md?since=x",
		"/conflicts",
		"/conflicts?status=open",
		"/openapi.json",
		"/",
		"/problems/stale-revision",
	),
	fc
		.tuple(fc.constantFrom("/vault/", "/vault/sub/", "/changes/"), fc.stringMatching(/^[A-Za-z0-9 _-]{1,12}$/))
		.map(([prefix, name]) => `${prefix}${encodeURIComponent(name)}.md`),
);

const hostileTarget: fc.Arbitrary<string> = fc
	.tuple(
		fc.constantFrom(
			"/vault/",
			"/vault/",
			"/vault/",
			"/changes/",
			"/conflicts/",
			"/problems/",
			"/",
			"/openapi.json",
			"/vault",
			"//vault/",
			"/VAULT/",
			"*",
			"",
			"http://127.0.0.1:PORT/vault/",
			"/vault/%2e%2e/",
			"/vault/..",
		),
		fc.array(segment, { maxLength: 5 }),
		fc.constantFrom("/", "/", "/", "\\", "%2F", "%5C", "//", "/./"),
		fc.constantFrom(
			"",
			"",
			".md",
			".md",
			"%00.md",
			".md.",
			".md%20",
			".MD",
			"/",
			"?since=abc",
			"?since=",
			"?status=open",
			"?x=%ff",
			"#frag",
		),
	)
	.map(
		([prefix, segments, separator, suffix]) => prefix + segments.join(separator) + (segments.length > 0 ? suffix : ""),
	);

const target = fc.oneof(plausibleTarget, hostileTarget);

const method = fc.oneof(
	{ weight: 16, arbitrary: fc.constantFrom("GET", "HEAD", "PUT", "POST", "DELETE") },
	{
		weight: 3,
		arbitrary: fc.constantFrom(
			"PATCH",
			"OPTIONS",
			"TRACE",
			"PROPFIND",
			"MKCOL",
			"get",
			"pUt",
			"M-SEARCH",
			"FOO",
			"CONNECT",
			"QUERY",
			"LINK",
		),
	},
	{ weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,12}$/) },
	{ weight: 1, arbitrary: fc.constantFrom("GE T", "", "G\u0000ET", "ÜBER", "GET\t", "-") },
);

const version = fc.oneof(
	{ weight: 12, arbitrary: fc.constant("HTTP/1.1") },
	{ weight: 1, arbitrary: fc.constantFrom("HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "http/1.1", "HTTP/1.1 x", "") },
);

const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);
/** Header values: mostly sane, sometimes garbage (including obs-text and control bytes the parser must refuse). */
const garbage = fc.oneof(
	{ weight: 3, arbitrary: printable },
	{ weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
	{ weight: 1, arbitrary: fc.constantFrom("\u0000", "a\rb", "\u00ff\u00fe", " ", "\t") },
);

type Header = [string, string];
const header = (name: string, value: fc.Arbitrary<string>, absentWeight = 1): fc.Arbitrary<Header[]> =>
	fc.oneof(
		{ weight: absentWeight, arbitrary: fc.constant<Header[]>([]) },
		{ weight: 1, arbitrary: value.map((v): Header[] => [[name, v]]) },
	);

interface FuzzRequest {
	method: string;
	target: string;
	version: string;
	headers: Header[];
	body: Buffer;
	/** How the body is framed, honestly or not. */
	framing:
		| "exact"
		| "none"
		| "short"
		| "long"
		| "garbage-length"
		| "two-lengths"
		| "chunked"
		| "bad-chunks"
		| "chunked-and-length";
}

function requestArb(port: number, tag: string): fc.Arbitrary<FuzzRequest> {
	const hostValue = fc.oneof(
		{ weight: 24, arbitrary: fc.constant(`127.0.0.1:${port}`) },
		{
			weight: 3,
			arbitrary: fc.constantFrom(
				`localhost:${port}`,
				`[::1]:${port}`,
				`LOCALHOST:${port}`,
				"127.0.0.1",
				`127.0.0.1:${port + 1}`,
				"evil.example",
				`evil.example:${port}`,
				"",
				`127.0.0.1:${port}.evil.example`,
				`127.0.0.1:${port}, evil.example`,
			),
		},
		{ weight: 1, arbitrary: garbage },
	);
	const auth = fc.oneof(
		{ weight: 10, arbitrary: fc.constant(`Bearer ${TEST_KEY}`) },
		{
			weight: 2,
			arbitrary: fc.constantFrom(
				`bearer ${TEST_KEY}`,
				`Bearer ${TEST_KEY} `,
				`Bearer  ${TEST_KEY}`,
				`Bearer ${TEST_KEY.slice(0, -1)}`,
				"Bearer",
				"Basic dXNlcjpwYXNz",
				`Bearer ${TEST_KEY}, Bearer x`,
			),
		},
		{ weight: 1, arbitrary: garbage },
	);
	const etag = fc.oneof(
		{ weight: 4, arbitrary: fc.constant(tag) },
		{
			weight: 3,
			arbitrary: fc.constantFrom(
				`W/${tag}`,
				"*",
				`${tag}, "x"`,
				tag.slice(1, -1),
				'""',
				'"',
				'W/"',
				`"${"a".repeat(300)}"`,
				`"${"b".repeat(43)}"`,
			),
		},
		{ weight: 1, arbitrary: garbage },
	);
	const body = fc.oneof(
		{ weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
		{ weight: 4, arbitrary: fc.string({ unit: "grapheme", maxLength: 200 }).map((text) => Buffer.from(text, "utf8")) },
		{ weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
		{
			weight: 1,
			arbitrary: fc
				.tuple(
					printable,
					fc.constantFrom(
						[0xc0, 0xae],
						[0xff],
						[0xed, 0xa0, 0x80],
						[0xf4, 0x90, 0x80, 0x80],
						[0xe2, 0x82],
						[0xef, 0xbb, 0xbf],
					),
					printable,
				)
				.map(([a, bad, b]) => Buffer.concat([Buffer.from(a), Buffer.from(bad), Buffer.from(b)])),
		},
	);
	const framing = fc.oneof(
		{ weight: 6, arbitrary: fc.constant<FuzzRequest["framing"]>("exact") },
		{ weight: 1, arbitrary: fc.constant<FuzzRequest["framing"]>("chunked") },
		{
			weight: 2,
			arbitrary: fc.constantFrom<FuzzRequest["framing"]>(
				"none",
				"short",
				"long",
				"garbage-length",
				"two-lengths",
				"bad-chunks",
				"chunked-and-length",
			),
		},
	);
	const headers = fc
		.tuple(
			fc.oneof(
				{ weight: 12, arbitrary: hostValue.map((v): Header[] => [["Host", v]]) },
				{ weight: 1, arbitrary: fc.constant<Header[]>([]) },
				{
					weight: 1,
					arbitrary: fc.tuple(hostValue, hostValue).map(([a, b]): Header[] => [
						["Host", a],
						["Host", b],
					]),
				},
			),
			fc.oneof(
				{ weight: 12, arbitrary: auth.map((v): Header[] => [["Authorization", v]]) },
				{ weight: 1, arbitrary: fc.constant<Header[]>([]) },
			),
			header(
				"Origin",
				fc.constantFrom("http://evil.example", "null", "app://obsidian.md", `http://127.0.0.1:${port}`, "file://", ""),
				6,
			),
			header("If-Match", etag),
			header("If-None-Match", etag, 3),
			header(
				"Accept",
				fc.constantFrom(
					"application/json",
					"application/vnd.olrapi.note+json",
					"*/*",
					"text/markdown",
					"text/html;q=0.9",
				),
				2,
			),
			header("Prefer", fc.constantFrom("merge=auto", "return=minimal, merge=auto", "merge=manual"), 4),
			header(
				"Content-Type",
				fc.constantFrom(
					"text/markdown",
					"application/json",
					"text/plain; charset=latin1",
					"multipart/form-data; boundary=x",
				),
				3,
			),
			header("Expect", fc.constantFrom("100-continue", "200-ok"), 10),
			fc.oneof(
				{ weight: 4, arbitrary: fc.constant<Header[]>([]) },
				{
					weight: 1,
					arbitrary: fc.array(
						fc.tuple(
							fc.oneof(
								fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/),
								fc.constantFrom("X Bad", "X:Bad", "", "Ünï", "X-\u0000"),
							),
							garbage,
						),
						{ minLength: 1, maxLength: 2 },
					),
				},
			),
		)
		.map((groups) => groups.flat());
	return fc.record({
		method,
		target: target.map((t) => t.replace("PORT", String(port))),
		version,
		headers,
		body,
		framing,
	});
}

/** The request as bytes, exactly as the fuzzer chose it (lies included). Returns whether the client should half-close. */
function serialize(request: FuzzRequest): { bytes: Buffer; halfClose: boolean } {
	const lines: Buffer[] = [
		Buffer.from(`${request.method} `, "latin1"),
		Buffer.from(request.target, "utf8"),
		Buffer.from(` ${request.version}\r\n`, "latin1"),
	];
	for (const [name, value] of request.headers)
		lines.push(Buffer.from(`${name}: `, "latin1"), Buffer.from(value, "utf8"), Buffer.from("\r\n"));
	const { body } = request;
	let framed = body;
	let halfClose = false;
	const length = (value: string) => lines.push(Buffer.from(`Content-Length: ${value}\r\n`));
	switch (request.framing) {
		case "exact":
			length(String(body.length));
			break;
		case "none":
			break;
		case "short":
			// The rest of the body reaches the server as the start of a second request on the same connection.
			length(String(Math.max(0, body.length - 1 - Math.floor(body.length / 2))));
			break;
		case "long":
			// Claims more than is sent, then ends the connection's sending side: the body is cut off.
			length(String(body.length + 10));
			halfClose = true;
			break;
		case "garbage-length":
			length(["abc", "-1", "1e3", " 12", "0x10", "99999999999999999999", "+5", "5 5"][body.length % 8]!);
			break;
		case "two-lengths":
			length(String(body.length));
			length(String(body.length + 1));
			break;
		case "chunked":
			lines.push(Buffer.from("Transfer-Encoding: chunked\r\n"));
			framed =
				body.length === 0
					? Buffer.from("0\r\n\r\n")
					: Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")]);
			break;
		case "bad-chunks":
			lines.push(Buffer.from("Transfer-Encoding: chunked\r\n"));
			framed = Buffer.concat([Buffer.from("zz\r\n"), body, Buffer.from("\r\n")]);
			break;
		case "chunked-and-length":
			lines.push(Buffer.from("Transfer-Encoding: chunked\r\n"));
			length(String(body.length));
			framed = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")]);
			break;
	}
	lines.push(Buffer.from("Connection: close\r\n\r\n"));
	return { bytes: Buffer.concat([...lines, framed]), halfClose };
}

/**
 * A HEAD that the server parsed is answered without a body; one it could not parse is answered with a full problem.
 * Which it was shows only in the answer, so a HEAD's answer must be well-formed read one way or the other.
 */
function parse(data: Buffer, head: boolean): ParsedResponse[] {
	if (!head) return parseResponses(data);
	try {
		return parseResponses(data, true);
	} catch {
		return parseResponses(data, false);
	}
}

/** What is wrong with one response, or null. */
function responseProblem(response: ParsedResponse, first: boolean, request: FuzzRequest): string | null {
	if (response.status >= 500) return `a ${response.status} answer`;
	if (response.status < 400) return null;
	const type = response.headers["content-type"] ?? "";
	if (!type.startsWith("application/problem+json"))
		return `a ${response.status} answer without application/problem+json (Content-Type: ${type || "none"})`;
	if (first && request.method === "HEAD") return null;
	let problem: Record<string, unknown>;
	try {
		problem = JSON.parse(response.body.toString("utf8")) as Record<string, unknown>;
	} catch {
		return `a ${response.status} problem whose body is not JSON: ${response.body.toString("utf8").slice(0, 100)}`;
	}
	for (const field of ["type", "title", "detail"])
		if (typeof problem[field] !== "string" || problem[field] === "")
			return `a ${response.status} problem without ${field}`;
	if (problem.status !== response.status)
		return `a ${response.status} problem whose status field says ${String(problem.status)}`;
	return null;
}

describe("fuzzed raw requests against the headless server", () => {
	let base: string;
	let h: Harness;
	let before: TreeSnapshot;
	const hidden = [".obsidian/app.json", ".obsidian/plugins/x/data.json", ".trash/Old.md", ".revision-guard/canary.md"];
	/** Everything outside the vault, the whole config folder, and the canaries in the other hidden folders. */
	const watched = (path: string) =>
		!path.startsWith("vault/") ||
		path.startsWith("vault/.obsidian/") ||
		hidden.some((canary) => path === `vault/${canary}`);

	beforeAll(async () => {
		base = await mkdtemp(join(tmpdir(), "rg-fuzz-"));
		await mkdir(join(base, "outside", "sub"), { recursive: true });
		await writeFile(join(base, "outside", "secret.md"), "OUTSIDE-CANARY secret\n");
		await writeFile(join(base, "outside", "sub", "Note.md"), "OUTSIDE-CANARY nested\n");
		await writeFile(join(base, "Note.md"), "OUTSIDE-CANARY parent\n");
		const vault = join(base, "vault");
		await mkdir(join(vault, "sub"), { recursive: true });
		await writeFile(join(vault, "Note.md"), NOTE);
		await writeFile(join(vault, "sub", "Other.md"), NOTE);
		for (const path of hidden) {
			await mkdir(join(vault, path, ".."), { recursive: true });
			await writeFile(join(vault, path), `HIDDEN-CANARY ${path}\n`);
		}
		h = await startHeadless({}, vault);
		before = await snapshotTree(base, watched);
	});
	afterAll(async () => {
		await h?.close();
		await rm(base, { recursive: true, force: true });
	});

	it(
		`answers ${RUNS} random raw requests with well-formed responses, never a 5xx, errors always as problem+json`,
		{ timeout: 150_000 },
		async () => {
			const tag = `"${sha256Token(NOTE)}"`;
			let answered = 0;
			const statuses = new Map<number, number>();
			await fc.assert(
				fc.asyncProperty(requestArb(h.port, tag), async (request) => {
					const { bytes, halfClose } = serialize(request);
					// The server's own limits (headers 10 s, checked every second) close any stalled connection well
					// within this bound; a connection still open after it is a real failure.
					const exchange = await sendRaw(h.port, bytes, { halfClose, boundMs: 20_000 });
					expect(exchange.gaveUp, "the server neither answered nor closed the connection").toBe(false);
					const responses = parse(exchange.received, request.method === "HEAD");
					expect(responses.length, "no response at all").toBeGreaterThan(0);
					responses.forEach((response, index) => {
						const answersRequest = responses.slice(0, index).every((earlier) => earlier.status < 200);
						expect(responseProblem(response, answersRequest, request)).toBeNull();
						statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
					});
					answered++;
				}),
				// A failing request is reported as found, with its seed, instead of shrinking: shrinking a stalled
				// connection would spend the whole test timeout and hide the counterexample.
				{ numRuns: RUNS, endOnFailure: true },
			);
			expect(answered).toBeGreaterThan(RUNS / 2);
			console.log(
				[...statuses]
					.sort((a, b) => a[0] - b[0])
					.map(([status, n]) => `${status}×${n}`)
					.join(" "),
			);

			const root = parseResponses(
				(await sendRaw(h.port, Buffer.from(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${h.port}\r\nConnection: close\r\n\r\n`)))
					.received,
			);
			expect(root.map((response) => response.status)).toEqual([200]);
			expect(h.errors).toEqual([]);
			const after = await snapshotTree(base, watched);
			expect(after).toEqual(before);
		},
	);
});
