// @ts-check
/**
 * The three questions the hook asks Revision Guard's API: a note's current revision and text (a read), whether it is
 * still a given revision (HEAD, which is not a read), and what changed since a revision (`GET /changes`).
 * Every answer is a plain value; only a host that does not answer throws (`HostUnreachable`).
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

/** @typedef {{ url: string, key: string, timeoutMs: number }} Host */
/** @typedef {{ kind: "refused", status: number, detail: string }} Refused */
/** @typedef {{ kind: "missing" } | { kind: "not-served", detail: string }} Absent */
/** @typedef {{ kind: "note", revision: string, content: string } | Absent | Refused} CurrentNote */
/** @typedef {{ kind: "same" } | { kind: "other" } | Absent | Refused} SameRevision */
/** @typedef {{ kind: "unchanged" } | { kind: "changed", diff: string, truncated: boolean } | { kind: "not-retained" } | Absent | Refused} Changes */

export class HostUnreachable extends Error {}

/** GET /vault/{path}: the note's text and its revision (the ETag). The host counts it as the key's read. */
export async function currentNote(/** @type {Host} */ host, /** @type {string} */ urlPath) {
	const response = await ask(host, "GET", `/vault/${urlPath}`, { Accept: "text/markdown" });
	if (response.status !== 200) return /** @type {CurrentNote} */ (absentOrRefused(response));
	const revision = unquoted(response.etag);
	// A byte-order mark is kept: the text is compared with what a tool wrote.
	const content = new TextDecoder("utf-8", { ignoreBOM: true }).decode(response.body);
	if (!revision)
		return /** @type {CurrentNote} */ ({ kind: "refused", status: 200, detail: "the answer carried no ETag" });
	return /** @type {CurrentNote} */ ({ kind: "note", revision, content });
}

/** HEAD /vault/{path} with If-None-Match: 304 when the note is still that revision. Not a read. */
export async function sameRevision(
	/** @type {Host} */ host,
	/** @type {string} */ urlPath,
	/** @type {string | null} */ revision,
) {
	const response = await ask(
		host,
		"HEAD",
		`/vault/${urlPath}`,
		revision === null ? {} : { "If-None-Match": `"${revision}"` },
	);
	if (response.status === 304) return /** @type {SameRevision} */ ({ kind: "same" });
	if (response.status === 200) return /** @type {SameRevision} */ ({ kind: "other" });
	return /** @type {SameRevision} */ (absentOrRefused(response));
}

/** GET /changes/{path}?since=: whether the note changed since `revision`, and the diff (one page) when it did. */
export async function changesSince(
	/** @type {Host} */ host,
	/** @type {string} */ urlPath,
	/** @type {string} */ revision,
) {
	const response = await ask(host, "GET", `/changes/${urlPath}?since=${encodeURIComponent(revision)}`, {
		Accept: "application/json",
	});
	if (response.status === 200) {
		const body = /** @type {Record<string, unknown>} */ (JSON.parse(response.body.toString("utf8")));
		if (body.changed !== true) return /** @type {Changes} */ ({ kind: "unchanged" });
		return /** @type {Changes} */ ({
			kind: "changed",
			diff: typeof body.diff === "string" ? body.diff : "",
			truncated: body.truncated === true,
		});
	}
	const problem = problemOf(response);
	if (response.status === 404 && problem.type.endsWith("base-not-retained"))
		return /** @type {Changes} */ ({ kind: "not-retained" });
	return /** @type {Changes} */ (absentOrRefusedFrom(response.status, problem));
}

/** @typedef {{ status: number, etag: string, body: Buffer }} Answer */

/**
 * One request over node:http (or https), with the key, and a bound on how long the host may take.
 * @returns {Promise<Answer>}
 */
function ask(
	/** @type {Host} */ host,
	/** @type {string} */ method,
	/** @type {string} */ path,
	/** @type {Record<string, string>} */ headers,
) {
	const url = new URL(`${host.url}${path}`);
	const send = url.protocol === "https:" ? httpsRequest : httpRequest;
	return new Promise((resolve, reject) => {
		const request = send(
			url,
			{ method, headers: { Authorization: `Bearer ${host.key}`, ...headers }, timeout: host.timeoutMs },
			(response) => {
				/** @type {Buffer[]} */
				const chunks = [];
				response.on("data", (/** @type {Buffer} */ chunk) => chunks.push(chunk));
				response.on("end", () =>
					resolve({
						status: response.statusCode ?? 0,
						etag: String(response.headers.etag ?? ""),
						body: Buffer.concat(chunks),
					}),
				);
				response.on("error", (error) => reject(new HostUnreachable(reasonOf(error))));
			},
		);
		request.on("timeout", () => request.destroy(new HostUnreachable("no answer in time")));
		request.on("error", (error) =>
			reject(error instanceof HostUnreachable ? error : new HostUnreachable(reasonOf(error))),
		);
		request.end();
	});
}

/** @returns {Absent | Refused} */
function absentOrRefused(/** @type {Answer} */ response) {
	return absentOrRefusedFrom(response.status, problemOf(response));
}

/** @returns {Absent | Refused} */
function absentOrRefusedFrom(/** @type {number} */ status, /** @type {{ type: string, detail: string }} */ problem) {
	// 404: no note there for this key (or hidden from it by its scope). 400: a path the host never serves as a note.
	// A HEAD answer has no body, so its type is unknown ("").
	if (status === 404 && !problem.type.endsWith("route-not-found")) return { kind: "missing" };
	if (status === 400 && (problem.type === "" || problem.type.endsWith("invalid-path")))
		return { kind: "not-served", detail: problem.detail };
	return { kind: "refused", status, detail: problem.detail };
}

/** The problem+json answer's type and detail (HEAD answers have no body: the status alone is known). */
function problemOf(/** @type {Answer} */ response) {
	const text = response.body.toString("utf8");
	try {
		const body = /** @type {Record<string, unknown>} */ (JSON.parse(text));
		return {
			type: typeof body.type === "string" ? body.type : "",
			detail: typeof body.detail === "string" ? body.detail : text.slice(0, 500),
		};
	} catch {
		return { type: "", detail: text.slice(0, 500) || `HTTP ${response.status}` };
	}
}

function unquoted(/** @type {string} */ etag) {
	return etag.replace(/^(W\/)?"|"$/g, "");
}

/** Why a request failed, in a few words: the system's code when there is one (ECONNREFUSED). */
function reasonOf(/** @type {unknown} */ error) {
	const code = error instanceof Error ? /** @type {NodeJS.ErrnoException} */ (error).code : undefined;
	if (typeof code === "string") return code;
	return error instanceof Error ? error.message : String(error);
}
