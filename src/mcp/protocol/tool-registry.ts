/**
 * The tools of one MCP server: registered with a schema of their arguments and of their result, listed (as JSON
 * Schema) by tools/list, called by tools/call. A call whose arguments do not fit is answered as a failed tool run that
 * says why, worded as the MCP SDK 1.32 worded it, so an agent can correct itself; so is a result that breaks its own
 * schema (a bug of ours, caught before a client trusts it).
 */
import { shapeToJsonSchema, type JsonSchema } from "../schema/json-schema";
import { type Issue, type ObjectOf, type Shape, z, type Schema } from "../schema";
import { McpError, ErrorCode, type CallToolResult, type RequestId, type ToolAnnotations } from "./types";

export interface ToolConfig<I extends Shape> {
	title?: string;
	description: string;
	inputSchema: I;
	outputSchema?: Shape;
	annotations?: ToolAnnotations;
}

/** What a tool's handler is told besides its arguments. */
export interface ToolCallExtra {
	/** Aborted when the client cancels the call (notifications/cancelled) or the server closes. */
	signal: AbortSignal;
	requestId: RequestId;
}

export type ToolHandler<I extends Shape> = (
	args: ObjectOf<I>,
	extra: ToolCallExtra,
) => CallToolResult | Promise<CallToolResult>;

interface RegisteredTool {
	config: ToolConfig<Shape>;
	input: Schema<unknown>;
	output: Schema<unknown> | null;
	handler: (args: unknown, extra: ToolCallExtra) => CallToolResult | Promise<CallToolResult>;
	/** Written once, when first listed: the schemas never change. */
	listed?: Record<string, unknown>;
}

export class ToolRegistry {
	private readonly tools = new Map<string, RegisteredTool>();

	register<I extends Shape>(name: string, config: ToolConfig<I>, handler: ToolHandler<I>): void {
		if (this.tools.has(name)) throw new Error(`Tool ${name} is already registered`);
		this.tools.set(name, {
			config,
			input: z.object(config.inputSchema),
			output: config.outputSchema ? z.object(config.outputSchema) : null,
			handler: handler as RegisteredTool["handler"],
		});
	}

	has(name: string): boolean {
		return this.tools.has(name);
	}

	/** tools/list's entries, in the order registered, of the tools `listed` lets this caller see. */
	list(listed: (name: string) => boolean): Record<string, unknown>[] {
		return [...this.tools.entries()]
			.filter(([name]) => listed(name))
			.map(([name, tool]) => (tool.listed ??= describeTool(name, tool)));
	}

	/** Runs a registered tool; every failure, thrown or not, becomes a tool result (isError), as the SDK answered. */
	async call(name: string, args: unknown, extra: ToolCallExtra): Promise<CallToolResult> {
		const tool = this.tools.get(name);
		if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
		try {
			const parsed = tool.input.parse(args ?? {});
			if (!parsed.ok) {
				throw new McpError(
					ErrorCode.InvalidParams,
					`Input validation error: Invalid arguments for tool ${name}: ${issuesText(parsed.issues)}`,
				);
			}
			const result = await tool.handler(parsed.value, extra);
			checkOutput(name, tool, result);
			return result;
		} catch (error) {
			return {
				content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
				isError: true,
			};
		}
	}
}

function describeTool(name: string, tool: RegisteredTool): Record<string, unknown> {
	const { title, description, inputSchema, outputSchema, annotations } = tool.config;
	const listed: Record<string, unknown> = {
		name,
		title,
		description,
		inputSchema: shapeToJsonSchema(inputSchema),
		...(annotations ? { annotations } : {}),
		execution: { taskSupport: "forbidden" },
	};
	if (outputSchema) listed.outputSchema = shapeToJsonSchema(outputSchema) satisfies JsonSchema;
	return listed;
}

function checkOutput(name: string, tool: RegisteredTool, result: CallToolResult): void {
	if (!tool.output || result.isError) return;
	if (!result.structuredContent) {
		throw new McpError(
			ErrorCode.InvalidParams,
			`Output validation error: Tool ${name} has an output schema but no structured content was provided`,
		);
	}
	const parsed = tool.output.parse(result.structuredContent);
	if (!parsed.ok) {
		throw new McpError(
			ErrorCode.InvalidParams,
			`Output validation error: Invalid structured content for tool ${name}: ${issuesText(parsed.issues)}`,
		);
	}
}

/** Issues one a line, each with where it is ("edits[0].old_string"), as the SDK joined zod's. */
export function issuesText(issues: Issue[]): string {
	return issues
		.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.message} at ${dotPath(issue.path)}`))
		.join("\n");
}

function dotPath(path: (string | number)[]): string {
	return path.reduce<string>((text, segment, index) => {
		if (index === 0) return String(segment);
		return typeof segment === "number" ? `${text}[${segment}]` : `${text}.${segment}`;
	}, "");
}
