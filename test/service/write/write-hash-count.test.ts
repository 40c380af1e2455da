/**
 * How often one guarded write hashes a note: once for the note it replaces, once for what it writes. Counted at the
 * seam every revision goes through (Node's SHA-256), by the text hashed, so nothing else that hashes (keys, MACs)
 * is counted.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

const hashed = vi.hoisted(() => ({ texts: [] as string[] }));

vi.mock("crypto", async (importOriginal) => {
	const original = await importOriginal<typeof import("crypto")>();
	const text = (data: unknown) =>
		typeof data === "string"
			? data
			: Buffer.isBuffer(data) || data instanceof Uint8Array
				? Buffer.from(data).toString("utf8")
				: "";
	const counted = {
		...original,
		hash: (algorithm: string, data: string | Uint8Array, encoding?: string) => {
			if (algorithm === "sha256") hashed.texts.push(text(data));
			return (original.hash as (a: string, d: string | Uint8Array, e?: string) => string)(algorithm, data, encoding);
		},
		createHash: (algorithm: string) => {
			const inner = original.createHash(algorithm);
			if (algorithm !== "sha256") return inner;
			let seen = "";
			const wrapper = {
				update(data: string | Uint8Array, encoding?: "utf8") {
					seen += typeof data === "string" ? data : text(data);
					if (typeof data === "string") inner.update(data, encoding ?? "utf8");
					else inner.update(data);
					return wrapper;
				},
				digest(encoding?: import("crypto").BinaryToTextEncoding) {
					hashed.texts.push(seen);
					return encoding === undefined ? inner.digest() : inner.digest(encoding);
				},
			};
			return wrapper;
		},
	};
	return { ...counted, default: counted };
});

const { nodeTimers } = await import("../../../src/headless/node-timers");
const { openRevisionGuard } = await import("../../../src/host/revision-guard");
const { DEFAULT_SETTINGS } = await import("../../../src/settings");
const { MemoryGateway, MemoryStorage } = await import("../../helpers/memory-gateway");
const { writeRequest } = await import("../../helpers/write-request");

async function open(initial: Record<string, string>) {
	const gateway = new MemoryGateway(initial);
	const settings = structuredClone(DEFAULT_SETTINGS);
	const guard = await openRevisionGuard({
		gateway,
		storage: new MemoryStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => Date.UTC(2026, 10, 21, 10, 15, 0),
	});
	return { guard, settings };
}

const note = (word: string) => `# Plan\n\n${word} `.padEnd(2048, "lorem ipsum ") + "\n";
const timesHashed = (text: string) => hashed.texts.filter((each) => each === text).length;

describe("one guarded write hashes", () => {
	beforeEach(() => {
		hashed.texts = [];
	});

	it("the note it replaces once and the text it writes once (a replace with If-Match)", async () => {
		const before = note("before");
		const after = note("after");
		const { guard } = await open({ "a.md": before });
		const request = writeRequest("a.md", after, { basedOn: before });
		hashed.texts = [];
		const outcome = await guard.writer.write(request);
		expect(outcome.kind).toBe("written");
		expect({ replaced: timesHashed(before), written: timesHashed(after) }).toEqual({ replaced: 1, written: 1 });
	});

	it("the same with a read validity window (the window's check reuses the revision)", async () => {
		const before = note("before");
		const after = note("after");
		const { guard, settings } = await open({ "a.md": before });
		settings.readValidityMinutes = 60;
		await guard.tracker.served({ path: "a.md", content: before });
		const request = writeRequest("a.md", after, { basedOn: before });
		hashed.texts = [];
		expect((await guard.writer.write(request)).kind).toBe("written");
		expect({ replaced: timesHashed(before), written: timesHashed(after) }).toEqual({ replaced: 1, written: 1 });
	});

	it("the note once when the write is refused as stale", async () => {
		const current = note("current");
		const { guard } = await open({ "a.md": current });
		const request = writeRequest("a.md", note("agent"), { basedOn: note("old") });
		hashed.texts = [];
		const outcome = await guard.writer.write(request);
		expect(outcome.kind).toBe("refused");
		expect(timesHashed(current)).toBe(1);
	});
});
