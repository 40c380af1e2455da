/**
 * Where the service sends a change to a note the key may only propose to (issue 24): it waits for the person instead
 * of being written. Part A (scopes) calls it; part B (proposals) implements it.
 */
import type { WriteRequest } from "../write/write-request";

export type ProposalOutcome = { kind: "proposed"; id: string; path: string; backupPath: string };

export interface ProposalSink {
	propose(request: WriteRequest): Promise<ProposalOutcome>;
}
