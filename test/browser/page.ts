/** Browser test page: mounts the merge view in an Obsidian-like modal and records what it saves, cancels and asks. */
import { MergeView, type MergeViewInput } from "../../src/ui/merge/merge-view";
import { installDomHelpers } from "../obsidian-stub/dom";
import { contrastSamples, type ContrastSample } from "./contrast";

export interface PageRecord {
	saved: string | null;
	summary: unknown;
	cancelled: number;
	confirms: string[];
	/** What the stubbed confirm dialog answers. */
	confirmAnswer: boolean;
	/** Milliseconds from mounting to the first frame painted after it. */
	openMs: number | null;
	/** Milliseconds the constructor took (merge plus DOM). */
	constructMs: number | null;
	/** Clicks on the link that opens the .bak note. */
	backupOpened: number;
	/** Review mode: the note a rejection carried, once rejected. */
	rejected: string | null;
}

declare global {
	interface Window {
		mountMergeView(input: MergeViewInput): void;
		contrastSamples(selectors: readonly { selector: string; pseudo?: string }[]): ContrastSample[];
		mergeView: MergeView | null;
		record: PageRecord;
	}
}

installDomHelpers();

window.mergeView = null;
window.contrastSamples = contrastSamples;
window.mountMergeView = (input) => {
	window.mergeView?.destroy();
	const record: PageRecord = {
		saved: null,
		summary: null,
		cancelled: 0,
		confirms: [],
		confirmAnswer: true,
		openMs: null,
		constructMs: null,
		backupOpened: 0,
		rejected: null,
	};
	window.record = record;
	const host = document.getElementById("host");
	if (!host) throw new Error("No #host element");
	const started = performance.now();
	window.mergeView = new MergeView(host, input, {
		onSave: (text, summary) => {
			record.saved = text;
			record.summary = summary;
			return Promise.resolve();
		},
		onCancel: () => {
			record.cancelled++;
		},
		confirm: (message) => {
			record.confirms.push(message);
			return Promise.resolve(record.confirmAnswer);
		},
		openBackup: () => {
			record.backupOpened++;
		},
		// Review mode (a proposal) offers Reject.
		...(input.review
			? {
					onReject: (note: string) => {
						record.rejected = note;
						return Promise.resolve();
					},
				}
			: {}),
	});
	record.constructMs = performance.now() - started;
	// The frame after the next animation frame has been painted: the view is on screen and takes input.
	requestAnimationFrame(() => setTimeout(() => (record.openMs = performance.now() - started), 0));
};
