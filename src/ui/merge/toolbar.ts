/** The merge view's toolbar: title, remaining-conflicts counter, navigation, bulk actions, base toggle, notices. */
import { CLS } from "./panes";
import { NO_BASE_NOTICE } from "./text";

export interface ToolbarActions {
	previous: () => void;
	next: () => void;
	acceptAll: (side: "mine" | "theirs") => void;
	reset: () => void;
	/** Absent when there is no base to show. */
	toggleBase: ((shown: boolean) => void) | null;
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

export function renderToolbar(root: HTMLElement, title: string, actions: ToolbarActions): Toolbar {
	const header = root.createDiv({ cls: `${CLS}-header` });
	header.createDiv({ cls: `${CLS}-title`, text: title });
	const bar = header.createDiv({ cls: `${CLS}-toolbar`, attr: { role: "toolbar", "aria-label": "Merge actions" } });
	const counter = bar.createDiv({ cls: `${CLS}-counter`, attr: { role: "status", "aria-live": "polite", "aria-atomic": "true" } });

	const nav = bar.createDiv({ cls: `${CLS}-group` });
	button(nav, "Previous conflict", { title: "Previous unresolved conflict (Alt+↑)", keys: "Alt+ArrowUp" }, actions.previous);
	button(nav, "Next conflict", { title: "Next unresolved conflict (Alt+↓)", keys: "Alt+ArrowDown" }, actions.next);

	const bulk = bar.createDiv({ cls: `${CLS}-group` });
	button(bulk, "Accept all mine", null, () => actions.acceptAll("mine"));
	button(bulk, "Accept all agent's", null, () => actions.acceptAll("theirs"));
	button(bulk, "Reset to automatic merge", null, actions.reset);

	const toggleBase = actions.toggleBase;
	if (toggleBase !== null) {
		const toggle = button(bar, "Show base", null, () => {
			const shown = toggle.getAttribute("aria-pressed") !== "true";
			toggle.setAttr("aria-pressed", String(shown));
			toggle.toggleClass("is-active", shown);
			toggleBase(shown);
		});
		toggle.addClass(`${CLS}-base-toggle`);
		toggle.setAttr("aria-pressed", "false");
	}

	if (toggleBase === null) header.createDiv({ cls: [`${CLS}-notice`, `${CLS}-no-base`], text: NO_BASE_NOTICE });
	const message = header.createDiv({ cls: [`${CLS}-notice`, `${CLS}-message`, `${CLS}-hidden`], attr: { role: "status" } });

	return {
		setCounter(text, done) {
			counter.setText(text);
			counter.toggleClass(`${CLS}-counter-done`, done);
		},
		setMessage(text, action) {
			message.empty();
			message.toggleClass(`${CLS}-hidden`, text === "");
			message.createSpan({ text });
			if (action) button(message, action.label, null, action.run).addClass(`${CLS}-message-action`);
		},
	};
}

/** A button named by its text; a tooltip and the shortcut it answers to are announced too. */
export function button(parent: HTMLElement, text: string, extra: { title: string; keys: string } | null, onClick: () => void): HTMLButtonElement {
	const attr: Record<string, string> = { type: "button" };
	if (extra !== null) {
		attr.title = extra.title;
		attr["aria-keyshortcuts"] = extra.keys;
	}
	const element = parent.createEl("button", { text, attr });
	element.addEventListener("click", onClick);
	return element;
}
