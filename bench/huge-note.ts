/**
 * A stale write to a 5 MB note, against the real server in its own process: how big the 412 is, how long it takes,
 * and how long a small GET sent meanwhile waits (the host must keep serving while the diff runs). Also the window
 * another program's save could still slip into: from the final check to the rename, ours (one stat) against the
 * earlier check (reading the note again), on the same 5 MB file.
 */
import { readFileSync, renameSync, writeFileSync } from "fs";
import { mkdir, writeFile } from "fs/promises";
import { join } from "path";
import { readForDecision, stillAsSeen } from "../src/vault/note-file";
import { call } from "../test/helpers/http-client";
import type { ChildProcess } from "child_process";
import { hugeNoteText } from "./vault-fixture";

export interface HugeNoteFigures {
	noteMB: number;
	answerKB: number;
	answerMs: number;
	/** The longest wait of a small GET sent while the stale write was being answered. */
	concurrentGetMs: number;
	idleGetMs: number;
	/** Microseconds the final check takes (median): ours (one stat), the earlier re-read, and the rename after it. */
	checkUs: number;
	rereadUs: number;
	renameUs: number;
}

const KEY = "bench-key-0123456789abcdef0123456789abcdef";
const auth = { Authorization: `Bearer ${KEY}` };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureHugeNote(
	vault: string,
	spawn: (vault: string) => Promise<{ port: number; child: ChildProcess }>,
): Promise<HugeNoteFigures> {
	await mkdir(vault, { recursive: true });
	const original = hugeNoteText("original");
	await writeFile(join(vault, "Huge.md"), original);
	await writeFile(join(vault, "Small.md"), "small\n");
	const server = await spawn(vault);
	try {
		const { port } = server;
		const answers: { ms: number; kb: number }[] = [];
		const concurrent: number[] = [];
		const idle: number[] = [];
		for (let round = 0; round < 3; round++) {
			await writeFile(join(vault, "Huge.md"), original);
			const etag = (await call(port, "/vault/Huge.md", { headers: auth })).headers.etag as string;
			await writeFile(join(vault, "Huge.md"), hugeNoteText(`rewritten ${round}`));
			for (let i = 0; i < 5; i++) idle.push(await timed(() => call(port, "/vault/Small.md", { headers: auth })));
			const t0 = performance.now();
			let done = false;
			const put = call(port, "/vault/Huge.md", {
				method: "PUT",
				body: original + "agent\n",
				headers: { ...auth, "If-Match": etag },
			}).then((answer) => {
				done = true;
				return answer;
			});
			let longest = 0;
			while (!done) longest = Math.max(longest, await timed(() => call(port, "/vault/Small.md", { headers: auth })));
			const answer = await put;
			if (answer.status !== 412) throw new Error(`expected 412, got ${answer.status}`);
			answers.push({ ms: performance.now() - t0, kb: Buffer.byteLength(answer.text) / 1024 });
			concurrent.push(longest);
		}
		return {
			noteMB: Buffer.byteLength(original) / (1024 * 1024),
			answerKB: median(answers.map((a) => a.kb)),
			answerMs: median(answers.map((a) => a.ms)),
			concurrentGetMs: median(concurrent),
			idleGetMs: median(idle),
			...(await measureWindow(vault, original)),
		};
	} finally {
		server.child.kill();
	}
}

async function timed(run: () => Promise<unknown>): Promise<number> {
	const t0 = performance.now();
	await run();
	return performance.now() - t0;
}

/**
 * The final check, timed on its own: the window another program's save can still slip into is this check plus the
 * rename syscall (the same for both, and reported apart: replacing a 5 MB file frees its blocks inside the rename).
 */
async function measureWindow(
	vault: string,
	content: string,
): Promise<{ checkUs: number; rereadUs: number; renameUs: number }> {
	const target = join(vault, "Window.md");
	const temp = join(vault, ".window-temp");
	writeFileSync(target, content);
	const ours: number[] = [];
	const reread: number[] = [];
	const rename: number[] = [];
	for (let i = 0; i < 20; i++) {
		// A note changed moments ago is compared byte for byte (see note-file.ts): measure the settled case.
		await new Promise((resolve) => setTimeout(resolve, 80));
		const seen = await readForDecision("Window.md", target);
		let t0 = performance.now();
		if (!stillAsSeen(target, seen)) throw new Error("the note changed under the bench");
		ours.push((performance.now() - t0) * 1000);
		t0 = performance.now();
		if (readFileSync(target, "utf8") !== seen.content) throw new Error("the note changed under the bench");
		reread.push((performance.now() - t0) * 1000);
		writeFileSync(temp, content);
		t0 = performance.now();
		renameSync(temp, target);
		rename.push((performance.now() - t0) * 1000);
	}
	return { checkUs: median(ours), rereadUs: median(reread), renameUs: median(rename) };
}
