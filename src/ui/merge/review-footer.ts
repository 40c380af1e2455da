/**
 * The merge view's footer in review mode: Cancel, Reject (with an optional note to the agent), Edit then accept, and
 * Accept, which writes the result. Accept says "Accept with edits" once the person changed the result, and "Accept
 * merge" when the note changed since the proposal; the service decides the recorded status from the text itself.
 */
import type { MergeState } from "./merge-state";
import type { MergeViewCallbacks } from "./view-types";
import { CLS } from "./panes";
import { acceptLabel, REJECT_NOTE_PLACEHOLDER, unresolvedAcceptQuestion } from "./text";
import type { SaveKeys } from "./keys";
import { button } from "./toolbar";
import type { Footer } from "./footer";

export interface ReviewFooterContext {
	state: MergeState;
	callbacks: Pick<MergeViewCallbacks, "onSave" | "confirm" | "onReject">;
	alive: () => boolean;
	keys: SaveKeys;
	cancel: () => void;
	/** Puts the person in the result column to edit it. */
	edit: () => void;
	changedSince: () => boolean;
}

export function renderReviewFooter(root: HTMLElement, context: ReviewFooterContext): Footer {
	const { state, callbacks, alive } = context;
	const footer = root.createDiv({ cls: [`${CLS}-footer`, `${CLS}-review-footer`] });
	const error = footer.createDiv({ cls: [`${CLS}-error`, `${CLS}-hidden`], attr: { role: "alert" } });
	const rejecting = footer.createDiv({ cls: [`${CLS}-reject`, `${CLS}-hidden`] });
	const note = rejecting.createEl("textarea", {
		cls: `${CLS}-reject-note`,
		attr: { placeholder: REJECT_NOTE_PLACEHOLDER, "aria-label": "Note to the agent", rows: "2" },
	});
	const rejectButtons = rejecting.createDiv({ cls: `${CLS}-footer-buttons` });
	button(rejectButtons, "Keep reviewing", { title: "Back to the proposal; nothing is rejected" }, () =>
		showReject(false),
	);
	const confirmReject = button(
		rejectButtons,
		"Reject proposal",
		{ title: "Write nothing; the agent is told, with your note" },
		() => void reject(),
	);
	confirmReject.addClass("mod-warning");

	const buttons = footer.createDiv({ cls: `${CLS}-footer-buttons` });
	button(
		buttons,
		"Cancel",
		{ title: "Close without deciding: the note and the proposal stay as they are", keys: "Escape", shown: "Esc" },
		context.cancel,
	);
	const rejectButton = button(
		buttons,
		"Reject…",
		{ title: "Turn the proposal down, with an optional note to the agent" },
		() => showReject(true),
	);
	if (!callbacks.onReject) rejectButton.addClass(`${CLS}-hidden`);
	button(
		buttons,
		"Edit then accept",
		{ title: "Edit the result column (untick a change to leave it out, or type), then accept" },
		context.edit,
	);
	const acceptButton = button(
		buttons,
		"Accept",
		{ title: "Write the result into the note", keys: context.keys.keys, shown: context.keys.shown },
		() => void accept(),
	);
	acceptButton.addClass("mod-cta");
	const acceptText = acceptButton.querySelector("span");
	let busy = false;

	function label(): string {
		return acceptLabel(context.changedSince(), state.hasWork());
	}

	function setBusy(now: boolean, text = label()): void {
		busy = now;
		acceptButton.disabled = now;
		confirmReject.disabled = now;
		acceptText?.setText(now ? text : label());
		acceptButton.setAttr("aria-label", now ? text : label());
		root.setAttr("aria-busy", now ? "true" : null);
	}

	function setError(text: string): void {
		error.setText(text);
		error.toggleClass(`${CLS}-hidden`, text === "");
	}

	function showReject(shown: boolean): void {
		rejecting.toggleClass(`${CLS}-hidden`, !shown);
		buttons.toggleClass(`${CLS}-hidden`, shown);
		if (shown) note.focus();
		else acceptButton.focus();
	}

	async function act(run: () => Promise<void>, what: string, busyText: string): Promise<void> {
		if (busy) return;
		setBusy(true, busyText);
		setError("");
		try {
			await run();
		} catch (failure) {
			if (alive()) setError(`Could not ${what}: ${failure instanceof Error ? failure.message : String(failure)}`);
		} finally {
			if (alive()) setBusy(false);
		}
	}

	async function accept(): Promise<void> {
		if (busy) return;
		const unresolved = state.unresolvedCount();
		if (unresolved > 0 && !(await callbacks.confirm(unresolvedAcceptQuestion(unresolved)))) return;
		if (!alive()) return;
		await act(() => callbacks.onSave(state.resultText(), { unresolved }), "accept", "Accepting…");
	}

	async function reject(): Promise<void> {
		const onReject = callbacks.onReject;
		if (onReject) await act(() => onReject(note.value), "reject", "Rejecting…");
	}

	return {
		save: accept,
		focusSave: () => acceptButton.focus(),
		refresh: () => {
			if (!busy) {
				acceptText?.setText(label());
				acceptButton.setAttr("aria-label", label());
			}
		},
	};
}
