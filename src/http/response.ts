/** What handlers return: plain values the server turns into HTTP. Handlers never touch the socket. */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue | undefined };

export interface ApiResponse {
	status: number;
	headers?: Record<string, string>;
	/** A string is sent as-is with `contentType`; anything else is sent as JSON. */
	body?: string | JsonValue;
	contentType?: string;
	/** HEAD: send the headers the body would have, without the body. */
	omitBody?: boolean;
}

export function json(status: number, body: JsonValue, headers: Record<string, string> = {}): ApiResponse {
	// A string body is sent as it is (see ApiResponse), so a JSON string value (a frontmatter title) is encoded here.
	return {
		status,
		body: typeof body === "string" ? JSON.stringify(body) : body,
		headers,
		contentType: "application/json; charset=utf-8",
	};
}

export function noContent(headers: Record<string, string> = {}): ApiResponse {
	return { status: 204, headers };
}
