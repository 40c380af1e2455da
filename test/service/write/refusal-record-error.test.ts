/**
 * The writer promises the refused body is kept before the caller learns of the refusal. When keeping its conflict
 * record failed (the state folder is read-only, the disk is full), the refusal says so on every surface: the .bak is
 * there, but the record pointing at it may not outlive a restart, so the agent must not count on it.
 */
import { describe, expect, it } from "vitest";
import { writeAnswer } from "../../../src/cli/outcome";
import { nodeTimers } from "../../../src/headless/node-timers";
import { refusalResponse } from "../../../src/http/routes/refusal";
import type { RequestContext } from "../../../src/http/router";
import { refusalResult } from "../../../src/mcp/tools/refusal";
import type { WriteOutcome } from "../../../src/service/write/guarded-writer";
import { openRevisionGuard } from "../../../src/host/revision-guard";
import { DEFAULT_SETTINGS } from "../../../src/settings";
import { MemoryGateway, MemoryStorage } from "../../helpers/memory-gateway";
import { writeRequest } from "../../helpers/write-request";

/** A state folder that cannot take the conflict log. */
class ReadOnlyConflictStorage extends MemoryStorage {
	override async append(name: string, text: string): Promise<void> {
		if (name.startsWith("conflicts")) throw new Error("state folder is read-only");
		await super.append(name, text);
	}
	override async write(name: string, content: string): Promise<void> {
		if (name.startsWith("conflicts")) throw new Error("state folder is read-only");
		await super.write(name, content);
	}
}

async function refusedWithUnsavedRecord() {
	const gateway = new MemoryGateway({ "a.md": "now\n" });
	const settings = structuredClone(DEFAULT_SETTINGS);
	const errors: unknown[] = [];
	const guard = await openRevisionGuard({
		gateway,
		storage: new ReadOnlyConflictStorage(),
		settings: () => settings,
		configDir: ".obsidian",
		timers: nodeTimers,
		now: () => Date.UTC(2026, 10, 21, 10, 15, 0),
		onError: (error) => errors.push(error),
	});
	const outcome = await guard.writer.write(writeRequest("a.md", "stale agent\n", { basedOn: "old\n" }));
	expect(outcome.kind).toBe("refused");
	return { gateway, errors, outcome: outcome as Extract<WriteOutcome, { kind: "refused" }> };
}

describe("a refusal whose conflict record could not be saved", () => {
	it("keeps the body as a .bak and says, in the report, that the record was not saved", async () => {
		const { gateway, errors, outcome } = await refusedWithUnsavedRecord();
		const kept = outcome.report.kept;
		expect(kept?.backupPath).not.toBeNull();
		expect(gateway.notes.get(kept!.backupPath!)).toBe("stale agent\n");
		expect(kept?.recordError).toContain("state folder is read-only");
		expect(errors.map(String).join(" ")).toContain("state folder is read-only");
	});

	it("is shown by REST, MCP and the CLI", async () => {
		const { outcome } = await refusedWithUnsavedRecord();
		const rest = refusalResponse({ method: "PUT" } as RequestContext, "a.md", outcome);
		const body = rest.body as Record<string, unknown>;
		expect(body.recordError).toContain("state folder is read-only");
		expect(body.detail).toContain("could not be saved");

		const mcp = await refusalResult("a.md", outcome, "write_note");
		const [prose, facts] = mcp.content.map((part) => (part.type === "text" ? part.text : ""));
		expect(prose).toContain("could not be saved");
		expect((JSON.parse(facts!) as { recordError?: string }).recordError).toContain("state folder is read-only");

		const cli = writeAnswer("write", "a.md", outcome);
		expect(cli.recordError).toContain("state folder is read-only");
		expect(String(cli.detail)).toContain("could not be saved");
	});
});
