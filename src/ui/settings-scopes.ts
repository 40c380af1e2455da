/**
 * Each key's scope in the settings tab: the three glob lists (one per line), and what they mean in this vault, counted
 * by the service without freezing Obsidian ("This key can see 812 notes, change 40, and propose changes to 120.").
 * A list that is not valid is saved as typed and the key is not served until it is fixed: the line under the lists
 * says so and why, never a silent fallback.
 */
import { Setting } from "obsidian";
import { DEFAULT_SCOPE_LISTS, SCOPE_FIELDS, type ScopeField } from "../core/key-scope";
import type { ScopeSummary } from "../service/scopes/scope-summary";
import type { AgentKey } from "../settings";
import type { SettingsHost } from "./settings-tab";

const FIELDS: Record<ScopeField, { name: (key: string) => string; desc: string }> = {
	read: {
		name: (key) => `What ${key} can see`,
		desc:
			"One glob per line: ** matches any folders, * any part of one name. Notes outside " +
			"these do not exist for the key. Empty: it sees nothing.",
	},
	write: {
		name: (key) => `What ${key} can change`,
		desc: "Notes it can see and change. Anything else it can see is read-only to it.",
	},
	propose: {
		name: (key) => `Where ${key} only proposes`,
		desc: "Changes to these notes wait for your approval instead of being written. This wins over the list above.",
	},
};

export function displayKeyScope(containerEl: HTMLElement, host: SettingsHost, agentKey: AgentKey): void {
	let generation = 0;
	const summary = new Setting(containerEl)
		.setName(`What ${agentKey.name} may do`)
		.setDesc(host.scopeSummary ? "Counting notes…" : "");
	summary.setClass("revision-guard-scope-summary");
	const recount = async () => {
		if (!host.scopeSummary) return;
		const mine = ++generation;
		const counted = await host.scopeSummary(agentKey);
		// A later edit started a newer count: this one describes lists that are gone.
		if (mine !== generation || counted === null) return;
		summary.setDesc(summarySentence(counted));
	};
	// What the person is typing applies once they pause or leave the list, never per keystroke: a glob typed a key at
	// a time passes through wider ones ("*" on the way to "*/Drafts/**"), and each change is a save and a count.
	const typed = new Map<ScopeField, string[]>();
	let settle: number | null = null;
	const apply = async () => {
		if (settle !== null) window.clearTimeout(settle);
		settle = null;
		if (typed.size === 0) return;
		for (const [field, list] of typed) agentKey[field] = list;
		typed.clear();
		await host.saveSettings();
		await recount();
	};
	for (const field of SCOPE_FIELDS) {
		new Setting(containerEl)
			.setName(FIELDS[field].name(agentKey.name))
			.setDesc(FIELDS[field].desc)
			.addTextArea((text) => {
				text
					.setPlaceholder(field === "propose" ? "Drafts/**" : "Projects/**")
					.setValue(listText(agentKey[field], field))
					.onChange((value) => {
						typed.set(field, globLines(value));
						if (settle !== null) window.clearTimeout(settle);
						settle = window.setTimeout(() => void apply(), TYPING_PAUSE_MS);
					});
				text.inputEl.addEventListener("blur", () => void apply());
			});
	}
	void recount();
}

/** How long typing pauses before a list is applied. */
const TYPING_PAUSE_MS = 600;

/** The list as the text area shows it: one glob per line (a list that is not one is shown as stored, to be fixed). */
function listText(stored: unknown, field: ScopeField): string {
	const list = stored === undefined ? DEFAULT_SCOPE_LISTS[field] : stored;
	if (Array.isArray(list))
		return list.map((glob) => (typeof glob === "string" ? glob : JSON.stringify(glob))).join("\n");
	return typeof list === "string" ? list : JSON.stringify(list);
}

/** What the person typed, as a list: one glob per line, blank lines and spaces around each left out. */
export function globLines(text: string): string[] {
	return text
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line !== "");
}

/** What the lists mean, in a sentence. */
export function summarySentence(summary: ScopeSummary): string {
	if (summary.kind === "not-served")
		return `This key is not served until its lists are fixed. ${summary.problem.message}`;
	const notes = (count: number) => `${count} ${count === 1 ? "note" : "notes"}`;
	if (summary.propose === 0) return `This key can see ${notes(summary.see)} and change ${summary.change}.`;
	return `This key can see ${notes(summary.see)}, change ${summary.change}, and propose changes to ${summary.propose}.`;
}
