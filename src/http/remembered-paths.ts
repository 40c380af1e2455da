/**
 * Recent answers of `decodeVaultPath`, a pure function of the remainder, the kind and the policy. Agents name the same
 * few notes over and over, and the checks cost more than the rest of routing a request. Bounded; a change of policy
 * (settings, even one made in place) starts afresh.
 */
import { decodeVaultPath, type PathPolicy, type PathResult } from "../core/path";

const MAX_REMEMBERED_PATHS = 1024;

export class RememberedPaths {
	private policyKey = "";
	private readonly answers = new Map<string, PathResult>();

	resolve(raw: string, policy: PathPolicy, kind: "note" | "folder"): PathResult {
		const policyKey = `${policy.configDir}\0${policy.noteExtensions.join("\0")}\0\0${(policy.deniedFolders ?? []).join("\0")}`;
		if (policyKey !== this.policyKey || this.answers.size >= MAX_REMEMBERED_PATHS) {
			this.policyKey = policyKey;
			this.answers.clear();
		}
		const key = kind + raw;
		let answer = this.answers.get(key);
		if (answer === undefined) {
			answer = decodeVaultPath(raw, policy, kind);
			this.answers.set(key, answer);
		}
		return answer;
	}
}
