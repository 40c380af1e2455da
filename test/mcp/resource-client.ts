/**
 * The SDK client for the resource tests: optionally declaring form elicitation with a handler that plays the person,
 * and collecting notifications/resources/updated in arrival order.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
	ElicitRequestSchema,
	ResourceUpdatedNotificationSchema,
	type CallToolResult,
	type ElicitRequest,
	type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { vi } from "vitest";

export type Person = (request: ElicitRequest["params"]) => Promise<ElicitResult> | ElicitResult;

export interface ResourceClient {
	client: Client;
	transport: StreamableHTTPClientTransport;
	/** URIs of every notifications/resources/updated received, in order (but the ones `untilListening` causes). */
	updates: string[];
	/** How many notices about `Listening.md` arrived (`untilListening`). */
	heard: () => number;
	/** Resolves once `uri` has been announced `count` times in all. */
	updated(uri: string, count?: number): Promise<void>;
	call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
	close(): Promise<void>;
}

export async function connectResources(port: number, key: string, person?: Person): Promise<ResourceClient> {
	const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
		requestInit: { headers: { Authorization: `Bearer ${key}` } },
	});
	const client = new Client(
		{ name: "resource-test", version: "1.0.0" },
		person ? { capabilities: { elicitation: { form: {} } } } : {},
	);
	if (person) client.setRequestHandler(ElicitRequestSchema, (request) => person(request.params));
	const updates: string[] = [];
	let heard = 0;
	client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
		if (notification.params.uri === LISTENING) heard++;
		else updates.push(notification.params.uri);
	});
	await client.connect(transport);
	return {
		client,
		transport,
		updates,
		heard: () => heard,
		async updated(uri, count = 1) {
			// Bounded by vitest's test timeout, never by a time the assertion itself depends on.
			await vi.waitFor(
				() => {
					if (updates.filter((seen) => seen === uri).length < count) throw new Error(`waiting for ${uri}`);
				},
				{ timeout: 20_000, interval: 5 },
			);
		},
		async call(name, args) {
			return (await client.callTool({ name, arguments: args })) as CallToolResult;
		},
		async close() {
			await client.close();
		},
	};
}

/**
 * Resolves once the client's stream for server messages is open: until then the server's notices are lost, so the
 * note is changed again and again until a notice about it arrives. Creates `Listening.md` for that.
 */
export async function untilListening(
	mcp: ResourceClient,
	vault: { create(path: string, content: string): Promise<void>; edit(path: string, content: string): Promise<void> },
): Promise<void> {
	await vault.create("Listening.md", "0\n");
	await mcp.client.subscribeResource({ uri: LISTENING });
	let round = 0;
	await vi.waitFor(
		async () => {
			if (mcp.heard() > 0) return;
			await vault.edit("Listening.md", `${++round}\n`);
			throw new Error("the client is not listening yet");
		},
		{ timeout: 20_000, interval: 20 },
	);
	await mcp.client.unsubscribeResource({ uri: LISTENING });
}

const LISTENING = "revision-guard://note/Listening.md";

/** The prose, the facts and the resource links of a tool result. */
export function partsOf(result: CallToolResult): {
	prose: string;
	facts: Record<string, unknown>;
	links: { uri: string; name: string; mimeType?: string }[];
} {
	const texts = result.content.filter((block) => block.type === "text").map((block) => block.text);
	const links = result.content.flatMap((block) =>
		block.type === "resource_link"
			? [{ uri: block.uri, name: block.name, ...(block.mimeType ? { mimeType: block.mimeType } : {}) }]
			: [],
	);
	return { prose: texts[0] ?? "", facts: texts[1] ? (JSON.parse(texts[1]) as Record<string, unknown>) : {}, links };
}
