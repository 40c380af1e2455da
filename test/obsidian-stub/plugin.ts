/** Plugin, Component, PluginSettingTab, Setting, Modal and Notice: enough to load and drive the built plugin. */
import { makeElement } from "./dom";
import type { App } from "./app";
import { CLI_FOR_PLUGINS, requireApiVersion, type CliFlags, type CliHandler } from "./cli";
import type { EventRef } from "./events";

export interface PluginManifest {
	id: string;
	name: string;
	version: string;
	dir?: string;
	minAppVersion: string;
}

/** Obsidian's Component lifecycle: `load` runs `onload`; `unload` detaches everything registered, then `onunload`. */
export class Component {
	private readonly cleanups: (() => unknown)[] = [];
	private readonly children: Component[] = [];
	loaded = false;
	load(): void | Promise<void> {
		this.loaded = true;
		for (const child of this.children) void child.load();
		return this.onload();
	}
	onload(): void | Promise<void> {}
	onunload(): void {}
	register(cleanup: () => unknown): void {
		this.cleanups.push(cleanup);
	}
	registerEvent(ref: EventRef): void {
		this.cleanups.push(() => ref.owner.offref(ref));
	}
	registerInterval(id: number): number {
		this.cleanups.push(() => clearInterval(id));
		return id;
	}
	addChild<T extends Component>(child: T): T {
		this.children.push(child);
		if (this.loaded) void child.load();
		return child;
	}
	unload(): void {
		this.loaded = false;
		for (const child of this.children.splice(0)) child.unload();
		for (const cleanup of this.cleanups.splice(0)) cleanup();
		this.onunload();
	}
}

export class Plugin extends Component {
	data: unknown = null;
	settingTabs: PluginSettingTab[] = [];
	commands: { id: string; name: string; callback?: () => unknown }[] = [];
	statusBarItems: HTMLElement[] = [];
	constructor(
		public app: App,
		public manifest: PluginManifest,
	) {
		super();
		// Before 1.12.2 Obsidian's Plugin has no registerCliHandler: calling it fails as it would there.
		if (!requireApiVersion(CLI_FOR_PLUGINS)) Object.defineProperty(this, "registerCliHandler", { value: undefined });
	}
	/** Adds a CLI command (ids are global: a second registration throws); it goes when the plugin unloads. */
	registerCliHandler(command: string, description: string, flags: CliFlags | null, handler: CliHandler): void {
		this.register(this.app.cli.register(command, description, flags, handler));
	}
	async loadData(): Promise<unknown> {
		return structuredClone(this.data);
	}
	async saveData(data: unknown): Promise<void> {
		this.data = structuredClone(data);
	}
	addSettingTab(tab: PluginSettingTab): void {
		this.settingTabs.push(tab);
	}
	addCommand(command: { id: string; name: string; callback?: () => unknown }): typeof command {
		this.commands.push(command);
		// Obsidian registers it app-wide under the plugin's id, and removes it when the plugin unloads.
		const id = `${this.manifest.id}:${command.id}`;
		this.app.commands.addCommand({ ...command, id });
		this.register(() => this.app.commands.removeCommand(id));
		return command;
	}
	addStatusBarItem(): HTMLElement {
		const element = makeElement();
		this.statusBarItems.push(element);
		return element;
	}
}

export class PluginSettingTab {
	containerEl: HTMLElement = makeElement();
	constructor(
		public app: App,
		public plugin: Plugin,
	) {}
	display(): void {}
	hide(): void {}
}

export class Notice {
	static shown: Notice[] = [];
	message: string;
	/** The fragment, when the notice was given one (so tests can click its buttons). */
	fragment: DocumentFragment | null;
	hidden = false;
	constructor(
		message: string | DocumentFragment,
		public duration?: number,
	) {
		this.message = typeof message === "string" ? message : (message.textContent ?? "");
		this.fragment = typeof message === "string" ? null : message;
		Notice.shown.push(this);
	}
	/** Every message the notice showed, in order (tests check a notice was never left blank). */
	messages: string[] = [];
	setMessage(message: string): this {
		this.message = message;
		this.messages.push(message);
		return this;
	}
	hide(): void {
		this.hidden = true;
	}
}

export class Modal {
	static opened: Modal[] = [];
	containerEl: HTMLElement = makeElement();
	modalEl: HTMLElement = this.containerEl;
	titleEl: HTMLElement = this.containerEl.createDiv();
	contentEl: HTMLElement = this.containerEl.createDiv();
	isOpen = false;
	constructor(public app: App) {}
	setTitle(title: string): this {
		this.titleEl.setText(title);
		return this;
	}
	open(): void {
		this.isOpen = true;
		Modal.opened.push(this);
		this.onOpen();
	}
	close(): void {
		this.isOpen = false;
		this.onClose();
	}
	onOpen(): void {}
	onClose(): void {}
}

/** Records settings so tests can find a control by name and drive it. */
export class Setting {
	nameText = "";
	controls: { kind: string; component: unknown }[] = [];
	settingEl: HTMLElement;
	constructor(containerEl: HTMLElement) {
		this.settingEl = containerEl.createDiv({ cls: "setting-item" });
	}
	setName(name: string): this {
		this.nameText = name;
		this.settingEl.createDiv({ cls: "setting-item-name", text: name });
		return this;
	}
	/** As Obsidian's: a second call replaces the description, never adds another. */
	setDesc(desc: string): this {
		const existing = this.settingEl.querySelector(".setting-item-description");
		if (existing) existing.textContent = desc;
		else this.settingEl.createDiv({ cls: "setting-item-description", text: desc });
		return this;
	}
	setHeading(): this {
		this.settingEl.addClass("setting-item-heading");
		return this;
	}
	setClass(cls: string): this {
		this.settingEl.addClass(cls);
		return this;
	}
	addText(cb: (component: ValueComponent<string>) => unknown): this {
		return this.add("text", cb, new ValueComponent<string>(""));
	}
	addTextArea(cb: (component: TextAreaComponent) => unknown): this {
		return this.add("textarea", cb, new TextAreaComponent(this.settingEl));
	}
	addToggle(cb: (component: ValueComponent<boolean>) => unknown): this {
		return this.add("toggle", cb, new ValueComponent<boolean>(false));
	}
	addDropdown(cb: (component: DropdownComponent) => unknown): this {
		return this.add("dropdown", cb, new DropdownComponent());
	}
	addButton(cb: (component: ButtonComponent) => unknown): this {
		return this.add("button", cb, new ButtonComponent(this.settingEl));
	}
	private add<C>(kind: string, cb: (component: C) => unknown, component: C): this {
		cb(component);
		this.controls.push({ kind, component });
		return this;
	}
}

export class ValueComponent<T> {
	changeHandler: ((value: T) => unknown) | null = null;
	constructor(public value: T) {}
	setValue(value: T): this {
		this.value = value;
		return this;
	}
	getValue(): T {
		return this.value;
	}
	setPlaceholder(): this {
		return this;
	}
	onChange(handler: (value: T) => unknown): this {
		this.changeHandler = handler;
		return this;
	}
	/** Test helper: as if the person changed the control. */
	async change(value: T): Promise<void> {
		this.value = value;
		await this.changeHandler?.(value);
	}
}

/** Obsidian's text area: a value, and the element the person types in (focus and blur are real DOM events). */
export class TextAreaComponent extends ValueComponent<string> {
	inputEl: HTMLTextAreaElement;
	constructor(containerEl: HTMLElement) {
		super("");
		this.inputEl = containerEl.createEl("textarea");
	}
	/** Test helper: as if the person left the text area. */
	blur(): void {
		this.inputEl.dispatchEvent(new FocusEvent("blur"));
	}
}

export class DropdownComponent extends ValueComponent<string> {
	options: Record<string, string> = {};
	constructor() {
		super("");
	}
	addOptions(options: Record<string, string>): this {
		Object.assign(this.options, options);
		return this;
	}
	addOption(value: string, display: string): this {
		this.options[value] = display;
		return this;
	}
}

export class ButtonComponent {
	buttonEl: HTMLButtonElement;
	clickHandler: (() => unknown) | null = null;
	constructor(containerEl: HTMLElement) {
		this.buttonEl = containerEl.createEl("button");
	}
	setButtonText(text: string): this {
		this.buttonEl.setText(text);
		return this;
	}
	setTooltip(): this {
		return this;
	}
	setCta(): this {
		return this;
	}
	setWarning(): this {
		return this;
	}
	onClick(handler: () => unknown): this {
		this.clickHandler = handler;
		this.buttonEl.addEventListener("click", () => void handler());
		return this;
	}
}
