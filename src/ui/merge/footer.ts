/** The merge view's footer: Cancel and Save, with the save flow (ask about unresolved conflicts, busy, errors). */
import type { MergeState } from "./merge-state";
import type { MergeViewCallbacks } from "./view-types";
import { CLS } from "./panes";
import { unresolvedSaveQuestion } from "./text";
import type { SaveKeys } from "./keys";
import { button } from "./toolbar";

export interface FooterContext {
	state: MergeState;
	callbacks: Pick<MergeViewCallbacks, "onSave" | "confirm">;
	/** False once the view is destroyed: nothing is shown any more. */
	alive: () => boolean;
	keys: SaveKeys;
	cancel: () => void;
}

export interface Footer {
	save(): Promise<void>;
	focusSave(): void;
	/** After any change to the result (review mode's Accept says whether it holds the person's edits). */
	refresh?(): void;
}

export function renderFooter(root: HTMLElement, context: FooterContext): Footer {
	const { state, callbacks, alive } = context;
	const footer = root.createDiv({ cls: `${CLS}-footer` });
	const error = footer.createDiv({ cls: [`${CLS}-error`, `${CLS}-hidden`], attr: { role: "alert" } });
	const buttons = footer.createDiv({ cls: `${CLS}-footer-buttons` });
	button(
		buttons,
		"Cancel",
		{
			title: "Close without saving: the note, the .bak and the conflict stay as they are",
			keys: "Escape",
			shown: "Esc",
		},
		context.cancel,
	);
	const saveButton = button(
		buttons,
		"Save",
		{ title: "Write the result into the note", keys: context.keys.keys, shown: context.keys.shown },
		() => void save(),
	);
	saveButton.addClass("mod-cta");
	const saveLabel = saveButton.querySelector("span");
	// Set from the first click, so a second click while the question is open asks nothing more.
	let saving = false;

	function setSaving(busy: boolean): void {
		saveButton.disabled = busy;
		saveLabel?.setText(busy ? "Saving…" : "Save");
		saveButton.setAttr("aria-label", busy ? "Saving…" : "Save");
		root.setAttr("aria-busy", busy ? "true" : null);
	}

	function setError(text: string): void {
		error.setText(text);
		error.toggleClass(`${CLS}-hidden`, text === "");
	}

	async function save(): Promise<void> {
		if (saving) return;
		saving = true;
		try {
			const unresolved = state.unresolvedCount();
			if (unresolved > 0 && !(await callbacks.confirm(unresolvedSaveQuestion(unresolved)))) return;
			if (!alive()) return;
			setSaving(true);
			setError("");
			await callbacks.onSave(state.resultText(), { unresolved });
		} catch (failure) {
			if (alive()) setError(`Could not save: ${failure instanceof Error ? failure.message : String(failure)}`);
		} finally {
			saving = false;
			if (alive()) setSaving(false);
		}
	}

	return { save, focusSave: () => saveButton.focus() };
}
