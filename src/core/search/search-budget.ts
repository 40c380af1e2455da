/**
 * How much work one search may do in all. Every step of a query (an operation, a character a regular expression
 * reads, a character a string operation copies) is charged; a search past its budget stops with a reason instead of
 * running on. Yielding keeps the host responsive during a long search; this keeps the search itself finite.
 */

/** A search that did more work than its budget allows. */
export class SearchTooCostly extends Error {
	constructor(readonly limit: number) {
		super(`the query needs more than ${limit.toLocaleString("en-US")} steps over this vault`);
		this.name = "SearchTooCostly";
	}
}

export class SearchBudget {
	private spent = 0;

	constructor(readonly limit: number) {}

	charge(steps: number): void {
		this.spent += steps;
		if (this.spent > this.limit) throw new SearchTooCostly(this.limit);
	}

	get used(): number {
		return this.spent;
	}
}
