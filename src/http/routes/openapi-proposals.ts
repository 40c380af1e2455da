/** The OpenAPI entries of GET /proposals and GET /proposals/{id} (see proposals.ts); openapi.ts hands in its shared pieces. */
import type { JsonValue } from "../response";

interface Shared {
	problemResponse: (description: string) => JsonValue;
	common: Record<string, JsonValue>;
}

const nullableString = { type: ["string", "null"] };

export const PROPOSAL_SCHEMA: JsonValue = {
	type: "object",
	description:
		"A change this key may only propose, waiting for (or decided by) the person. Its " +
		"revisions are change tags: a record shows no content, so read the note before writing over it.",
	required: ["id", "path", "agent", "time", "operation", "baseRevision", "proposedRevision", "backupPath", "status"],
	properties: {
		id: {
			type: "string",
			description: "The proposalId the write was answered with (also in its Location: /proposals/{id}).",
		},
		path: { type: "string" },
		agent: { type: "string", description: "The key's name." },
		time: { type: "string", format: "date-time" },
		operation: { type: "string", enum: ["replace", "append", "patch", "edit"] },
		baseRevision: {
			...nullableString,
			description: "The note the proposal was made against (change tag); null when it would create the note.",
		},
		proposedRevision: {
			type: "string",
			description: "The proposed text (change tag); backupPath holds it byte for byte.",
		},
		backupPath: {
			type: "string",
			description: "The .bak note holding the proposed text: the whole note as it would be, byte for byte.",
		},
		status: {
			type: "string",
			enum: ["pending", "accepted", "accepted-with-edits", "rejected"],
			description:
				"accepted: written as you proposed it; accepted-with-edits: the person changed it " +
				"(or merged it with a newer note) first; rejected: nothing was written.",
		},
		decidedAt: { type: "string", format: "date-time" },
		note: { type: "string", description: "The person's note to you, when they left one." },
		acceptedRevision: { type: "string", description: "The note's revision once accepted (change tag)." },
	},
};

export function proposalPaths({ problemResponse, common }: Shared): Record<string, JsonValue> {
	const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
	return {
		"/proposals": {
			get: {
				summary:
					"This key's proposals, newest first: changes to notes it may only propose to, which " +
					"wait for the person. Another key's proposals are never listed.",
				parameters: [
					{
						name: "status",
						in: "query",
						required: false,
						schema: { type: "string", enum: ["pending", "accepted", "accepted-with-edits", "rejected"] },
					},
				],
				responses: {
					"200": {
						description: "Proposals.",
						content: {
							"application/json": {
								schema: {
									type: "object",
									properties: { proposals: { type: "array", items: { $ref: "#/components/schemas/Proposal" } } },
								},
							},
						},
					},
					...common,
				},
			},
		},
		"/proposals/{id}": {
			get: {
				summary:
					"One of this key's proposals; with ?wait=SECONDS (at most 60), waits until the person " +
					"accepts or rejects it. Only the person decides: no route accepts or rejects.",
				parameters: [
					id,
					{
						name: "wait",
						in: "query",
						required: false,
						description: "Long-poll: answer as soon as the status changes, or after this many seconds.",
						schema: { type: "number", minimum: 0, maximum: 60 },
					},
				],
				responses: {
					"200": {
						description: "The proposal.",
						content: { "application/json": { schema: { $ref: "#/components/schemas/Proposal" } } },
					},
					"404": problemResponse(
						"This key made no proposal with that id (proposal-not-found): another key's proposals look missing.",
					),
					"429": problemResponse(
						"This key already holds 16 long-polls, on conflicts and proposals together (too-many-waits); " +
							"retry after Retry-After, or read without wait.",
					),
					...common,
					"503": problemResponse(
						"The server holds as many long-polls (128) or connections as it allows (server-busy); retry after Retry-After.",
					),
				},
			},
		},
	};
}
