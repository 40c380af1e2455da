/**
 * A generated corpus of path-traversal attempts, sent raw through the real HTTP server (headless) with GET, PUT,
 * POST, DELETE, folder listings and /changes/: percent-encoding once, twice and three times, overlong UTF-8 dots and
 * slashes, backslashes and mixed slashes, NUL suffixes, Unicode look-alike dots and slashes, trailing dots and
 * spaces, drive letters, UNC prefixes, absolute paths, symlinks leading out, and the vault's hidden folders
 * (`.obsidian/`, `.trash/`, `.revision-guard/`) in other cases and encodings. Canaries outside the vault and in its
 * hidden folders must stay unread (their content never appears in an answer) and untouched (bytes and mtimes), no
 * file may appear outside the vault, and every listing that answers 200 lists only what is really in the vault.
 *
 * A property closes the loop below HTTP: any path the validator accepts resolves, in the headless gateway, under
 * the vault root.
 */
import fc from "fast-check";
import { randomBytes } from "crypto";
import { existsSync, lstatSync } from "fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join, sep } from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeUrlPath, validateVaultPath, type PathPolicy } from "../../src/core/path";
import { VaultPathError } from "../../src/vault/errors";
import { FolderPaths } from "../../src/vault/folder-paths";
import { NodeFsGateway } from "../../src/vault/node-fs-gateway";
import { startHeadless, TEST_KEY, type Harness } from "../helpers/headless-harness";
import { parseResponses, sendRaw } from "../helpers/raw-http";
import { snapshotTree, type TreeSnapshot } from "../helpers/tree-snapshot";
import { sha256Token } from "../helpers/vault-files";

/** Percent-encodes every byte of the UTF-8 form of `text`. */
const encodeAll = (text: string) =>
	[...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0").toUpperCase()}`).join("");

// Ways to write `..`: plain, encoded once/twice/three times, overlong UTF-8, look-alikes, with junk around them.
const DOTDOT = [
	"..",
	"%2e%2e",
	"%2E%2E",
	".%2e",
	"%2e.",
	"%252e%252e",
	"%252E%252E",
	"%25252e%25252e",
	"%2525252e%2525252e",
	"%c0%ae%c0%ae",
	"%C0%AE%C0%AE",
	"%c0%2e%c0%2e",
	"%e0%80%ae%e0%80%ae",
	"%f0%80%80%ae%f0%80%80%ae",
	"%c0%ae.",
	".%c0%ae",
	encodeAll("\u2024\u2024"),
	encodeAll("\uff0e\uff0e"),
	encodeAll("\u2025"),
	encodeAll("\ufe52\ufe52"),
	encodeAll("\u3002\u3002"),
	"...",
	"....",
	"..%00",
	"%2e%2e%00",
	"..%20",
	"..%2e",
	". .",
	"..;",
	"..%3b",
];
// Ways to write `/` (and `\`, which Windows treats the same way).
const SLASH = [
	"/",
	"%2f",
	"%2F",
	"%252f",
	"%25252f",
	"\\",
	"%5c",
	"%5C",
	"%255c",
	"%25255c",
	"%c0%af",
	"%C0%AF",
	"%e0%80%af",
	"%f0%80%80%af",
	"%c1%9c",
	"%c1%1c",
	encodeAll("\u2215"),
	encodeAll("\uff0f"),
	encodeAll("\u29f8"),
	encodeAll("\u2044"),
	encodeAll("\uff3c"),
	encodeAll("\u2216"),
	encodeAll("\ufe68"),
	"//",
	"/./",
	"\\/",
	"/\\",
];
const SUFFIXES = [
	"",
	"%00",
	"%00.md",
	".",
	"..",
	"%20",
	"%2e",
	"::$DATA",
	"%3a%3a$DATA",
	"%2500.md",
	"%00%2f",
	"/",
	"%20.md",
	".md.",
	"?.md",
	"#.md",
	"%09",
	".md%00.txt",
];

/** The canaries beside the vault, as paths from the folder that holds it. */
const OUTSIDE_TARGETS = [
	"outside/secret.md",
	"outside/secret.txt",
	"Note.md",
	"outside/deeper/Note.md",
	"vault-evil/Note.md",
];

interface Canary {
	/** Where the canary is, relative to the test's base folder. */
	path: string;
	/** Unique text inside it: if it ever appears in an answer, the canary was read. */
	marker: string;
}

describe("a generated corpus of traversal attempts through the real server", () => {
	let base: string;
	let h: Harness;
	const canaries: Canary[] = [];
	let before: TreeSnapshot;
	let beforeModes: Record<string, number>;
	const absentAbove: string[] = [];

	/** Outside the vault: everything. Inside: the whole config folder and trash, and the canary in the state folder. */
	const watched = (path: string) =>
		!path.startsWith("vault/") ||
		/^vault\/\.(obsidian|trash)\//.test(path) ||
		canaries.some((canary) => canary.path === path);

	beforeAll(async () => {
		base = await mkdtemp(join(tmpdir(), "rg-traversal-"));
		const place = async (path: string) => {
			const marker = `CANARY-${randomBytes(8).toString("hex")}`;
			await mkdir(join(base, path, ".."), { recursive: true });
			await writeFile(join(base, path), `# ${marker}\n\nThis file must never be read or written through the API.\n`);
			canaries.push({ path, marker });
		};
		for (const path of [
			"outside/secret.md",
			"outside/secret.txt",
			"outside/deeper/Note.md",
			"Note.md",
			"vault-evil/Note.md",
		])
			await place(path);
		for (const path of [
			"vault/.obsidian/secret.md",
			"vault/.obsidian/app.json",
			"vault/.obsidian/plugins/revision-guard/data.json",
			"vault/.trash/Trashed.md",
			"vault/.revision-guard/canary.md",
			"vault/.hidden/secret.md",
			"vault/sub/.secret.md",
		]) {
			await place(path);
		}
		await writeFile(join(base, "vault", "Note.md"), "# An ordinary note\n");
		await mkdir(join(base, "vault", "sub"), { recursive: true });
		await writeFile(join(base, "vault", "sub", "Other.md"), "# Another\n");
		// Links that lead out of the vault: following them would reach the outside canaries.
		await symlink(join(base, "outside"), join(base, "vault", "escape"));
		await symlink(join(base, "outside", "secret.md"), join(base, "vault", "escape.md"));
		// Above the test folder, the same targets must not appear either (a traversal two or more levels up).
		for (let dir = join(base, ".."); ; dir = join(dir, "..")) {
			for (const target of OUTSIDE_TARGETS) if (!existsSync(join(dir, target))) absentAbove.push(join(dir, target));
			if (join(dir, "..") === dir) break;
		}
		h = await startHeadless({}, join(base, "vault"));
		before = await snapshotTree(base, watched);
		beforeModes = Object.fromEntries(canaries.map((canary) => [canary.path, lstatSync(join(base, canary.path)).mode]));
	});
	afterAll(async () => {
		await h?.close();
		await rm(base, { recursive: true, force: true });
	});

	/** The generated corpus: raw path remainders to put after /vault/ (or /changes/). */
	function corpus(): string[] {
		const found = new Set<string>();
		// Every `..` spelling with every slash spelling, 1 to 4 levels up, aimed at the canaries beside the vault.
		DOTDOT.forEach((dots, i) => {
			SLASH.forEach((slash, j) => {
				const depth = 1 + ((i + j) % 4);
				const target = OUTSIDE_TARGETS[(i * SLASH.length + j) % OUTSIDE_TARGETS.length]!;
				const targetSlash = (i + j) % 3 === 0 ? slash : "/";
				found.add(`${`${dots}${slash}`.repeat(depth)}${target.split("/").join(targetSlash)}`);
			});
		});
		// Suffix tricks on the plain and the most common encoded forms.
		for (const suffix of SUFFIXES) {
			for (const prefix of [
				"../",
				"..%2f",
				"%2e%2e/",
				"%2e%2e%2f",
				"..\\",
				"..%5c",
				"%252e%252e%252f",
				"%c0%ae%c0%ae%c0%af",
				"sub/../../",
				"sub/%2e%2e/%2e%2e/",
			]) {
				found.add(`${prefix}outside/secret${suffix === "" ? ".md" : `.md${suffix}`}`);
				found.add(`${prefix}outside/secret.txt${suffix}`);
			}
		}
		// Look-alike dots and slashes sent raw (UTF-8 on the request line), not percent-encoded.
		for (const [dots, slash] of [
			["\u2024\u2024", "/"],
			["\uff0e\uff0e", "\uff0f"],
			["..", "\u2215"],
			["..", "\u29f8"],
			["\u2025", "\u2044"],
			["\uff0e\uff0e", "\uff3c"],
		] as const) {
			found.add(`${dots}${slash}${dots}${slash}outside${slash}secret.md`);
		}
		// Going down into the vault first, then up and out.
		for (const dots of DOTDOT.slice(0, 12)) found.add(`sub/${dots}/${dots}/outside/secret.md`);
		// Absolute paths, drive letters, UNC and device prefixes.
		const absolute = join(base, "outside", "secret.md");
		const absoluteSegments = absolute.split(sep).filter((part) => part !== "");
		for (const joiner of ["/", "%2f", "\\", "%5c"]) {
			found.add(`${joiner}${absoluteSegments.join(joiner)}`);
			found.add(`${joiner}${joiner}${absoluteSegments.join(joiner)}`);
			found.add(absoluteSegments.join(joiner));
			found.add(`${joiner}${absoluteSegments.map(encodeURIComponent).join(joiner)}`);
		}
		found.add(encodeAll(absolute));
		for (const drive of ["C:", "c:", "C%3a", "C%3A", "%43%3a", "C:.", "C:..", "Z:", "c|"]) {
			for (const slash of ["/", "\\", "%2f", "%5c", ""])
				found.add(`${drive}${slash}${absoluteSegments.join(slash || "/")}`);
		}
		for (const unc of [
			"\\\\127.0.0.1\\c$\\",
			"%5c%5c127.0.0.1%5cc$%5c",
			"//127.0.0.1/c$/",
			"%2f%2f127.0.0.1%2fc$%2f",
			"\\\\?\\C:\\",
			"%5c%5c%3f%5cC:%5c",
			"\\\\.\\",
			"%5c%5c.%5c",
			"\\\\localhost\\share\\",
			"file:///",
			"file:%2f%2f%2f",
			"~/",
			"~%2f",
			"%7e/",
		]) {
			found.add(`${unc}${absoluteSegments.join("/")}`);
			found.add(`${unc}secret.md`);
		}
		// Through the symlinks that lead out.
		for (const path of [
			"escape.md",
			"escape/secret.md",
			"escape/deeper/Note.md",
			"escape/",
			"escape%2fsecret.md",
			"Escape.md",
			"escape/../outside/secret.md",
			"sub/../escape.md",
		])
			found.add(path);
		// The hidden folders, in other cases and spellings, directly and via the vault's own folders.
		const hiddenTargets = [
			".obsidian/secret.md",
			".obsidian/app.json",
			".obsidian/plugins/revision-guard/data.json",
			".trash/Trashed.md",
			".revision-guard/canary.md",
			".revision-guard/history.json",
			".revision-guard/conflicts.json",
			".revision-guard/settings.json",
			".hidden/secret.md",
			"sub/.secret.md",
		];
		const dotSpellings = [
			".",
			"%2e",
			"%2E",
			"%252e",
			"%c0%ae",
			"%e0%80%ae",
			encodeAll("\uff0e"),
			encodeAll("\u2024"),
			encodeAll("\ufe52"),
			encodeAll("\u3002"),
		];
		for (const target of hiddenTargets) {
			const [folder, ...rest] = target.split("/");
			const name = folder!.slice(1);
			for (const dot of dotSpellings) found.add(`${dot}${name}/${rest.join("/")}`);
			for (const variant of [name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1), name.replace(/o/g, "O")])
				found.add(`.${variant}/${rest.join("/")}`);
			for (const trail of [".", "%20", "%00", "%2e", "%09", "::$INDEX_ALLOCATION", "%c0%ae"])
				found.add(`${folder}${trail}/${rest.join("/")}`);
			for (const via of ["sub/../", "sub/%2e%2e/", "sub%2f..%2f", "./", "%2e/", "sub/./../", "x/../"])
				found.add(`${via}${target}`);
			found.add(target);
			found.add(target.split("/").map(encodeAll).join("/"));
			found.add(target.split("/").join("%2f"));
			found.add(target.split("/").join("\\"));
			found.add(`${target}%00.md`);
			found.add(`${target}.`);
		}
		return [...found];
	}

	it(
		"never reads, writes or creates anything outside the vault or in its hidden folders",
		{ timeout: 150_000 },
		async () => {
			const payloads = corpus();
			expect(payloads.length).toBeGreaterThanOrEqual(600);
			const markerFor = new Map(canaries.map((canary) => [canary.path, canary.marker]));
			const tokens = canaries.map(
				(canary) =>
					`"${sha256Token(`# ${canary.marker}\n\nThis file must never be read or written through the API.\n`)}"`,
			);
			const leaks: string[] = [];
			const malformed: string[] = [];
			const badListings: string[] = [];
			let requests = 0;
			const exchange = async (method: string, path: string, headers: Record<string, string> = {}, body = "") => {
				const head = [
					`${method} ${path} HTTP/1.1`,
					`Host: 127.0.0.1:${h.port}`,
					`Authorization: Bearer ${TEST_KEY}`,
					...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
				];
				if (method === "PUT" || method === "POST") head.push(`Content-Length: ${Buffer.byteLength(body)}`);
				head.push("Connection: close", "", "");
				const raw = Buffer.concat([
					Buffer.from(head.join("\r\n"), "utf8"),
					Buffer.from(method === "PUT" || method === "POST" ? body : "", "utf8"),
				]);
				const { received, gaveUp } = await sendRaw(h.port, raw);
				requests++;
				const text = received.toString("utf8");
				for (const [canary, marker] of markerFor)
					if (text.includes(marker)) leaks.push(`${method} ${path}: the answer holds the canary ${canary}`);
				if (gaveUp) malformed.push(`${method} ${path}: no answer`);
				try {
					const responses = parseResponses(received, method === "HEAD");
					const status = responses[0]?.status ?? 0;
					if (responses.length !== 1 || status >= 500)
						malformed.push(`${method} ${path}: ${responses.length} responses, status ${status}`);
					else if (
						status >= 400 &&
						!(responses[0]!.headers["content-type"] ?? "").startsWith("application/problem+json")
					)
						malformed.push(`${method} ${path}: ${status} without problem+json`);
					return responses[0]!;
				} catch (error) {
					malformed.push(`${method} ${path}: ${String(error)}`);
					return null;
				}
			};

			const queue = payloads.flatMap((payload, index) => {
				const token = tokens[index % tokens.length]!;
				const body = `PWNED by ${payload}\n`;
				return [
					() => exchange("GET", `/vault/${payload}`),
					() => exchange("GET", `/vault/${payload}`, { Accept: "application/json" }),
					() => exchange("PUT", `/vault/${payload}`, { "If-Match": token }, body),
					() => exchange("PUT", `/vault/${payload}`, {}, body),
					() => exchange("POST", `/vault/${payload}`, {}, body),
					() => exchange("DELETE", `/vault/${payload}`, { "If-Match": token }),
					() => exchange("GET", `/changes/${payload}?since=${token.slice(1, -1)}`),
					async () => {
						// As a folder: a listing that answers must list only what is really in the vault.
						const folder = payload.endsWith("/") ? payload : `${payload}/`;
						const answer = await exchange("GET", `/vault/${folder}`);
						// (A `?` or `#` in the payload makes this a note read after all; only listings are checked here.)
						if (answer?.status !== 200 || /[?#]/.test(folder)) return;
						const { entries } = JSON.parse(answer.body.toString("utf8")) as { entries: { path: string }[] };
						for (const entry of entries) {
							const absolute = join(base, "vault", entry.path);
							const inside =
								existsSync(absolute) &&
								!entry.path.split("/").some((part) => part.startsWith(".")) &&
								!lstatSync(absolute.replace(/\/$/, "")).isSymbolicLink();
							if (!inside) badListings.push(`GET /vault/${folder} listed ${entry.path}`);
						}
					},
				];
			});
			// A few connections at a time, so the server sees concurrent traversal attempts too.
			const workers = Array.from({ length: 6 }, async () => {
				for (let job = queue.shift(); job; job = queue.shift()) {
					await job().catch((error: unknown) => malformed.push(`a check failed: ${String(error)}`));
				}
			});
			await Promise.all(workers);

			expect(leaks).toEqual([]);
			expect(malformed).toEqual([]);
			expect(badListings).toEqual([]);
			expect(h.errors).toEqual([]);
			expect(requests).toBe(payloads.length * 8);
			const after = await snapshotTree(base, watched);
			expect(after).toEqual(before);
			for (const canary of canaries)
				expect(lstatSync(join(base, canary.path)).mode, canary.path).toBe(beforeModes[canary.path]);
			expect(absentAbove.filter((path) => existsSync(path))).toEqual([]);
			// The server is still serving.
			const root = await exchange("GET", "/");
			expect(root?.status).toBe(200);
		},
	);

	it(
		"resolves every path the validator accepts under the vault root (headless gateway)",
		{ timeout: 60_000 },
		async () => {
			const gateway = await NodeFsGateway.open(join(base, "vault"));
			const policy: PathPolicy = { configDir: ".obsidian", noteExtensions: ["md"], deniedFolders: [".revision-guard"] };
			// FolderPaths is the one place the Node gateway turns a vault path into a file path for writing.
			const paths = new FolderPaths(gateway.root);
			const resolveForWrite = (path: string) => paths.resolveForWrite(path);
			const piece = fc.oneof(
				fc.constantFrom(
					".",
					"..",
					"...",
					"a",
					"b.md",
					"sub",
					"escape",
					"escape.md",
					" ",
					"\\",
					"/",
					":",
					"C:",
					"~",
					"%2e",
					"%2f",
					"\u2024",
					"\uff0e",
					"\u2215",
					"\u0000",
					"\u00a0",
					".obsidian",
					"Note.md",
					"e\u0301",
					"\u00e9",
				),
				fc.string({ unit: "grapheme", maxLength: 6 }),
				fc.string({ unit: "binary", maxLength: 4 }),
			);
			const candidate = fc.oneof(
				fc.array(piece, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join("/")),
				fc.array(piece, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join("")),
				// Raw URL remainders, decoded exactly once as the routes do.
				fc
					.array(
						fc.oneof(
							piece,
							fc
								.uint8Array({ maxLength: 4 })
								.map((bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("")),
						),
						{ minLength: 1, maxLength: 6 },
					)
					.map((pieces) => {
						const decoded = decodeUrlPath(pieces.join("/"));
						return decoded.ok ? decoded.path : "";
					}),
			);
			let accepted = 0;
			await fc.assert(
				fc.asyncProperty(candidate, fc.constantFrom<"note" | "folder">("note", "folder"), async (path, kind) => {
					const checked = validateVaultPath(path, policy, kind);
					if (!checked.ok || checked.path === "") return;
					accepted++;
					let resolved: string;
					try {
						resolved = await resolveForWrite(checked.path);
					} catch (error) {
						// The gateway may refuse only what the validator cannot know about: the symlinks that lead out. Any
						// other refusal means the validator accepted a path the gateway considers outside the vault.
						const throughLink = checked.path.split("/").some((part) => part === "escape" || part === "escape.md");
						expect(
							error instanceof VaultPathError && error.reason === "outside-vault" && throughLink,
							`${JSON.stringify(checked.path)}: ${String(error)}`,
						).toBe(true);
						return;
					}
					expect(
						resolved.startsWith(gateway.root + sep),
						`${JSON.stringify(checked.path)} resolved to ${resolved}`,
					).toBe(true);
					expect(resolved.slice(gateway.root.length + 1).split(sep)).not.toContain("..");
				}),
				{ numRuns: 1500 },
			);
			expect(accepted).toBeGreaterThan(50);
			await gateway.close();
		},
	);
});
