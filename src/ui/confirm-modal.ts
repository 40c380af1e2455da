/** A small yes/no dialog that resolves a promise, for questions the merge view asks. */
import { Modal, type App } from "obsidian";

export class ConfirmModal extends Modal {
	private answer = false;
	private settle: ((answer: boolean) => void) | null = null;

	constructor(
		app: App,
		private readonly message: string,
		private readonly yes: string,
	) {
		super(app);
	}

	ask(): Promise<boolean> {
		return new Promise((resolve) => {
			this.settle = resolve;
			this.open();
		});
	}

	override onOpen(): void {
		this.contentEl.createEl("p", { text: this.message });
		const buttons = this.contentEl.createDiv({ cls: "modal-button-container" });
		const confirm = buttons.createEl("button", { text: this.yes, cls: "mod-warning" });
		confirm.addEventListener("click", () => {
			this.answer = true;
			this.close();
		});
		buttons.createEl("button", { text: "Cancel" }).addEventListener("click", () => this.close());
		confirm.focus();
	}

	override onClose(): void {
		this.contentEl.empty();
		this.settle?.(this.answer);
		this.settle = null;
	}
}
