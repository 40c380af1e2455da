/** Temporary copies of the project's release files, so the release scripts run on them and never on the real ones. */
import { spawnSync } from "child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { dirname, join } from "path";

export const ROOT = join(__dirname, "../..");

export interface ProjectCopy {
	dir: string;
	readJson(file: string): unknown;
	writeJson(file: string, value: unknown): void;
	read(file: string): string;
	/** Runs `node <script> ...args` in the copy. */
	node(
		script: string,
		args?: string[],
		env?: NodeJS.ProcessEnv,
	): { status: number | null; stdout: string; stderr: string };
	remove(): void;
}

/** A temp folder holding copies of `files` (paths relative to the project). */
export function copyProject(files: string[]): ProjectCopy {
	const dir = mkdtempSync(join(tmpdir(), "rg-release-"));
	try {
		for (const file of files) {
			mkdirSync(dirname(join(dir, file)), { recursive: true });
			copyFileSync(join(ROOT, file), join(dir, file));
		}
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	const read = (file: string) => readFileSync(join(dir, file), "utf8");
	return {
		dir,
		read,
		readJson: (file) => JSON.parse(read(file)) as unknown,
		writeJson: (file, value) => writeFileSync(join(dir, file), JSON.stringify(value, null, "\t") + "\n"),
		node(script, args = [], env = {}) {
			const result = spawnSync(process.execPath, [script, ...args], {
				cwd: dir,
				encoding: "utf8",
				env: { PATH: process.env.PATH, ...env },
			});
			return { status: result.status, stdout: result.stdout, stderr: result.stderr };
		},
		remove: () => rmSync(dir, { recursive: true, force: true }),
	};
}
