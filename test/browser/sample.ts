/** The browser test's notes: a launch plan, your edits, and an agent's proposal with two conflicts. */

const NOTES = Array.from(
	{ length: 14 },
	(_, i) => `- Meeting note ${i + 1}: nothing new on the launch checklist this week.\n`,
).join("");

export const BASE = `---
title: Launch plan
tags: [launch, q3]
---
# Launch plan

## Goals

- Ship the beta to 50 testers by **June 14**.
- Collect feedback in the shared form.
- Decide on pricing before the public launch.

## Timeline

| Week | Milestone |
| ---- | --------- |
| 1 | Private beta |
| 2 | Feedback review |
| 3 | Public launch |

## Risks

The payment provider may need two weeks to approve the account.
Support docs are not written yet.

## Notes

${NOTES}
## Open questions

- Who owns the launch email?
`;

export const MINE = BASE.replace("50 testers by **June 14**", "80 testers by **June 14**")
	.replace(
		"- Decide on pricing before the public launch.\n",
		"- Decide on pricing before the public launch.\n- Line up two launch partners.\n",
	)
	.replace("Support docs are not written yet.", "Support docs are not written yet; Sam volunteered.");

export const THEIRS = BASE.replace("50 testers by **June 14**", "60 testers by **June 21**")
	.replace("| 3 | Public launch |", "| 4 | Public launch |")
	.replace("Support docs are not written yet.", "Support docs are drafted; review is pending.")
	.replace("- Who owns the launch email?\n", "- Who owns the launch email?\n- Do we need a press kit?\n");

/** A reading list both sides changed where only the markdown rules merge cleanly: tags as a set, list items as units. */
export const RULES_BASE = `---
title: Reading list
tags: [books]
---
# Reading list

- [ ] Dune
- [ ] Hyperion
- [ ] Foundation
`;

export const RULES_MINE = RULES_BASE.replace("tags: [books]", "tags: [books, sci-fi]").replace(
	"- [ ] Dune",
	"- [x] Dune",
);

export const RULES_THEIRS = RULES_BASE.replace("tags: [books]", "tags: [books, 2026]").replace(
	"- [ ] Hyperion",
	"- [ ] Hyperion (Dan Simmons)",
);
