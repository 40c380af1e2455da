/** The merge view's toolbar: title, who wrote when, the .bak link, the counter, navigation, bulk actions, base toggle, notices. */
import { CLS } from "./panes";
import { NO_BASE_NOTICE } from "./text";

export interface ToolbarActions {
	previous: () => void;
	next: () => void;
	acceptAll: (side: "mine" | "theirs") => void;
	reset: () => void;
	/** Absent when there is no base to show. */
	toggleBase: ((shown: boolean) => void) | null;
	/** Opens the agent's refused version (its .bak note); absent when there is none to open. */
	openBackup: (() => void) | null;
}

export interface ToolbarInput {
	notePath: string;
	agentName: string;
	/** ISO 8601 time the agent's write was refused, when known. */
	agentWroteAt: string | null;
	backupPath: string | null;
	/** A proposal under review rather than a refused write. */
	review: boolean;
}

export interface MessageAction {
	label: string;
	run: () => void;
}

export interface Toolbar {
	setCounter(text: string, done: boolean): void;
	/** A passing message (re-merged, edits kept…), with an optional action button; empty clears it. */
	setMessage(text: string, action?: MessageAction): void;
}

export function renderToolbar(root: HTMLElement, input: ToolbarInput, actions: ToolbarActions): Toolbar {
	const header = root.createDiv({ cls: `${CLS}-header` });
	// The base toggle sits at the end of the title line, leaving the toolbar's line to the conflict actions.
	const titleRow = header.createDiv({ cls: `${CLS}-title-row` });
	renderTitle(titleRow, input, actions.openBackup);
	const bar = header.createDiv({ cls: `${CLS}-toolbar`, attr: { role: "toolbar", "aria-label": "Merge actions" } });
	const counter = bar.createDiv({
		cls: `${CLS}-counter`,
		attr: { role: "status", "aria-live": "polite", "aria-atomic": "true" },
	});

	// Conflicts only: a review of a proposal on the unchanged note has none, and hides these (see styles.css).
	const nav = bar.createDiv({ cls: [`${CLS}-group`, `${CLS}-conflict-nav`] });
	button(
		nav,
		"Previous conflict",
		{ title: "Go to the previous undecided conflict", keys: "Alt+ArrowUp", shown: "Alt+↑" },
		actions.previous,
	);
	button(
		nav,
		"Next conflict",
		{ title: "Go to the next undecided conflict", keys: "Alt+ArrowDown", shown: "Alt+↓" },
		actions.next,
	);

	const bulk = bar.createDiv({ cls: `${CLS}-group` });
	button(bulk, "Accept all mine", { title: "Take your note's text in every conflict you have not typed into" }, () =>
		actions.acceptAll("mine"),
	).addClass(`${CLS}-accept-all`);
	button(bulk, "Accept all agent's", { title: "Take the agent's text in every conflict you have not typed into" }, () =>
		actions.acceptAll("theirs"),
	).addClass(`${CLS}-accept-all`);
	button(
		bulk,
		"Reset to automatic merge",
		{ title: "Clear every choice, undo and typed text (you can undo the reset)" },
		actions.reset,
	);

	const toggleBase = actions.toggleBase;
	if (toggleBase !== null) {
		const toggle = button(
			titleRow,
			"Show base",
			{ title: "Show the base: the text before either of you changed it (what the agent read)" },
			() => {
				const shown = toggle.getAttribute("aria-pressed") !== "true";
				toggle.setAttr("aria-pressed", String(shown));
				toggle.toggleClass("is-active", shown);
				toggleBase(shown);
			},
		);
		toggle.addClass(`${CLS}-base-toggle`);
		toggle.setAttr("aria-pressed", "false");
	}

	if (toggleBase === null) header.createDiv({ cls: [`${CLS}-notice`, `${CLS}-no-base`], text: NO_BASE_NOTICE });
	const message = header.createDiv({
		cls: [`${CLS}-notice`, `${CLS}-message`, `${CLS}-hidden`],
		attr: { role: "status" },
	});

	return {
		setCounter(text, done) {
			counter.setText(text);
			counter.toggleClass(`${CLS}-counter-done`, done);
		},
		setMessage(text, action) {
			message.empty();
			message.toggleClass(`${CLS}-hidden`, text === "");
			message.createSpan({ text });
			if (action)
				button(message, action.label, { title: "Bring back what the reset cleared" }, action.run).addClass(
					`${CLS}-message-action`,
				);
		},
	};
}

/** "Projects/Plan.md · changes from claude-code, written 23 Nov 2026, 06:12 · Open the agent's version (.bak)" */
function renderTitle(header: HTMLElement, input: ToolbarInput, openBackup: (() => void) | null): void {
	const title = header.createDiv({ cls: `${CLS}-title` });
	title.createSpan({ text: `${input.notePath} · ${input.review ? "proposal" : "changes"} from ${input.agentName}` });
	const when = input.agentWroteAt === null ? null : new Date(input.agentWroteAt);
	if (when !== null && !Number.isNaN(when.getTime())) {
		title.createSpan({ text: input.review ? ", made " : ", written " });
		title.createEl("time", {
			cls: `${CLS}-written`,
			text: writtenAt(when),
			attr: { datetime: when.toISOString(), title: when.toString() },
		});
	}
	if (openBackup !== null && input.backupPath !== null) {
		title.createSpan({ text: " · " });
		const link = input.review
			? button(
					title,
					"Open the proposal (.bak)",
					{ title: `Open ${input.backupPath} in a new tab: the whole note as the agent proposes it` },
					openBackup,
				)
			: button(
					title,
					"Open the agent's version (.bak)",
					{ title: `Open ${input.backupPath} in a new tab: the agent's full proposal, kept as it was refused` },
					openBackup,
				);
		link.addClass(`${CLS}-backup-link`);
	}
}

/** Local date and time, e.g. "23 Nov 2026, 06:12", in the person's locale. */
export function writtenAt(when: Date): string {
	return when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export interface ButtonHelp {
	/** The tooltip: what the button does. */
	title: string;
	/** The shortcut it answers to, in aria-keyshortcuts form, and as shown on the button. */
	keys?: string;
	shown?: string;
}

/** A button named by its text, with a tooltip; a shortcut is shown on it and announced, not read as part of its name. */
export function button(parent: HTMLElement, text: string, help: ButtonHelp, onClick: () => void): HTMLButtonElement {
	const attr: Record<string, string> = {
		type: "button",
		title: help.keys === undefined ? help.title : `${help.title} (${help.shown ?? help.keys})`,
	};
	if (help.keys !== undefined) {
		attr["aria-keyshortcuts"] = help.keys;
		attr["aria-label"] = text;
	}
	const element = parent.createEl("button", { attr });
	element.createSpan({ text });
	if (help.shown !== undefined) element.createEl("kbd", { cls: `${CLS}-shortcut`, text: help.shown });
	element.addEventListener("click", onClick);
	return element;
}
