/** The merge view's shortcuts. They work only inside the view: no global hotkeys. */

export interface SaveKeys {
	/** In aria-keyshortcuts form. */
	keys: string;
	/** As shown on the Save button. */
	shown: string;
	mac: boolean;
}

/** Ctrl+Enter, or Cmd+Enter on a Mac (the host says which, from Obsidian's Platform). */
export function saveKeys(mac: boolean): SaveKeys {
	return mac ? { keys: "Meta+Enter", shown: "⌘+Enter", mac } : { keys: "Control+Enter", shown: "Ctrl+Enter", mac };
}

export interface KeyActions {
	save(): void;
	next(): void;
	previous(): void;
	cancel(): void;
}

/** Runs the action a key stands for; false when the key is not one of ours (it then goes on as usual). */
export function handleKey(event: KeyboardEvent, keys: SaveKeys, actions: KeyActions): boolean {
	if (event.isComposing || event.shiftKey) return false;
	const saveModifier = keys.mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
	if (saveModifier && !event.altKey && event.key === "Enter") actions.save();
	else if (event.ctrlKey || event.metaKey) return false;
	else if (event.altKey && event.key === "ArrowDown") actions.next();
	else if (event.altKey && event.key === "ArrowUp") actions.previous();
	else if (!event.altKey && event.key === "Escape") actions.cancel();
	else return false;
	return true;
}
