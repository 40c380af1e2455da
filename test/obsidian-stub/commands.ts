/** `app.commands`: Obsidian's command registry (not in its public typings), as the command palette uses it. */

export interface StubCommand {
	id: string;
	name: string;
	callback?: () => unknown;
	/** Called with true to ask whether the command can run now, then with false to run it. */
	checkCallback?: (checking: boolean) => boolean | void;
}

export class Commands {
	readonly commands: Record<string, StubCommand> = {};
	/** Ids run so far, in order. */
	readonly executed: string[] = [];

	addCommand(command: StubCommand): void {
		this.commands[command.id] = command;
	}

	removeCommand(id: string): void {
		delete this.commands[id];
	}

	/** As Obsidian does: false for an unknown command or one that cannot run now; the callback is not awaited. */
	executeCommandById(id: string): boolean {
		const command = this.commands[id];
		if (!command) return false;
		if (command.checkCallback) {
			if (!command.checkCallback(true)) return false;
			this.executed.push(id);
			command.checkCallback(false);
			return true;
		}
		if (!command.callback) return false;
		this.executed.push(id);
		void command.callback();
		return true;
	}
}
