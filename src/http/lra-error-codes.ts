/**
 * The Local REST API's five-digit `errorCode`s (status × 100 plus a case), which its clients read from every error
 * body: ours carry them too. A problem type that LRA answers with a code of its own is listed here; every other one
 * says its status × 100, as LRA does for an answer without a code (problems.ts). Where one problem type covers
 * several of LRA's cases (the header PATCH's missing or wrong headers), the handler sends the finer code itself.
 */
import type { ProblemName } from "./problems";

/** LRA's codes for the cases a handler tells apart within one problem type. */
export const LRA_CASE = {
	missingTargetType: 40053,
	invalidTargetType: 40054,
	missingTarget: 40055,
	missingOperation: 40056,
	invalidOperation: 40057,
	invalidTarget: 40058,
	invalidContentType: 40012,
	invalidDestinationHeader: 40022,
	invalidWithinHeader: 40023,
	invalidTargetScopeHeader: 40059,
	missingContentType: 40011,
	unparsableBody: 40015,
} as const;

export const LRA_ERROR_CODES = {
	"invalid-frontmatter": 40005,
	"text-body-required": 40010,
	"invalid-utf8": 40015,
	"destination-required": 40020,
	"invalid-path": 40021,
	"invalid-destination": 40022,
	"patch-target-not-supported": 40054,
	"invalid-patch": 40080,
	"invalid-patch-instruction": 40081,
	"invalid-patch-version": 40082,
	"search-content-type": 40012,
	"invalid-search-query": 40070,
	"search-too-costly": 40070,
	"invalid-search": 40090,
	"header-target-needs-version": 40083,
	"patch-version-required": 40084,
	unauthorized: 40101,
	// LRA has no scopes; its code for a forbidden request is its status × 100, said here so it is not changed by accident.
	"scope-forbidden": 40300,
	"folder-not-a-note": 40510,
	"destination-exists": 40920,
	"conflicting-target": 42200,
} satisfies Partial<Record<ProblemName, number>>;
