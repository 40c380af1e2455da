/** One request header as a string (a repeated header's lines joined), for every route. */
import type { RequestContext } from "../router";

export function headersValue(context: RequestContext, name: string): string | undefined {
	const value = context.headers[name];
	return Array.isArray(value) ? value.join(", ") : value;
}
