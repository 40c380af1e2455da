/** Obsidian's HTMLElement helpers (createEl, createDiv, empty, setText…), installed when a DOM is present. */

interface ElementInfo {
	cls?: string | string[];
	text?: string;
	attr?: Record<string, string | number | boolean>;
	type?: string;
	value?: string;
}

type Helpers = {
	createEl<K extends keyof HTMLElementTagNameMap>(
		this: HTMLElement,
		tag: K,
		info?: ElementInfo | string,
	): HTMLElementTagNameMap[K];
	createDiv(this: HTMLElement, info?: ElementInfo | string): HTMLDivElement;
	createSpan(this: HTMLElement, info?: ElementInfo | string): HTMLSpanElement;
	empty(this: HTMLElement): void;
	setText(this: HTMLElement, text: string): void;
	addClass(this: HTMLElement, ...classes: string[]): void;
	removeClass(this: HTMLElement, ...classes: string[]): void;
	toggleClass(this: HTMLElement, cls: string, on: boolean): void;
	hasClass(this: HTMLElement, cls: string): boolean;
	setAttr(this: HTMLElement, name: string, value: string | number | boolean | null): void;
};

export function installDomHelpers(): void {
	if (typeof HTMLElement === "undefined") return;
	const proto = HTMLElement.prototype as unknown as Record<string, unknown>;
	if (typeof proto.createEl === "function") return;
	const helpers: Helpers = {
		createEl(tag, info) {
			const element = (this.ownerDocument ?? document).createElement(tag);
			const options = typeof info === "string" ? { text: info } : (info ?? {});
			if (options.cls) element.className = Array.isArray(options.cls) ? options.cls.join(" ") : options.cls;
			if (options.text !== undefined) element.textContent = options.text;
			for (const [name, value] of Object.entries(options.attr ?? {})) element.setAttribute(name, String(value));
			if (options.type !== undefined) element.setAttribute("type", options.type);
			if (options.value !== undefined) (element as unknown as HTMLInputElement).value = options.value;
			this.appendChild(element);
			return element;
		},
		createDiv(info) {
			return helpers.createEl.call(this, "div", info) as HTMLDivElement;
		},
		createSpan(info) {
			return helpers.createEl.call(this, "span", info) as HTMLSpanElement;
		},
		empty() {
			while (this.firstChild) this.removeChild(this.firstChild);
		},
		setText(text) {
			this.textContent = text;
		},
		addClass(...classes) {
			this.classList.add(...classes);
		},
		removeClass(...classes) {
			this.classList.remove(...classes);
		},
		toggleClass(cls, on) {
			this.classList.toggle(cls, on);
		},
		hasClass(cls) {
			return this.classList.contains(cls);
		},
		setAttr(name, value) {
			if (value === null) this.removeAttribute(name);
			else this.setAttribute(name, String(value));
		},
	};
	Object.assign(proto, helpers);
	// Obsidian gives DocumentFragment the same helpers, and a global createFragment.
	Object.assign(DocumentFragment.prototype, helpers);
	// Obsidian's global createDiv: a new, detached div.
	(globalThis as unknown as Record<string, unknown>).createDiv = (info?: ElementInfo | string) => {
		const holder = document.createDocumentFragment();
		return helpers.createDiv.call(holder as unknown as HTMLElement, info);
	};
	(globalThis as unknown as Record<string, unknown>).createFragment = (
		build?: (fragment: DocumentFragment) => void,
	) => {
		const fragment = document.createDocumentFragment();
		build?.(fragment);
		return fragment;
	};
}

/** An element to hand out (status bar, containers), whether or not a DOM is present. */
export function makeElement(): HTMLElement {
	installDomHelpers();
	if (typeof document !== "undefined") return document.createElement("div");
	throw new Error("This part of the obsidian stub needs a DOM; run the test with // @vitest-environment happy-dom");
}
