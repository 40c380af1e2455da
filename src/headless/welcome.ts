/** What the headless host prints at start: where it listens, the key, and three curl lines to try. */

export interface WelcomeInfo {
	folder: string;
	port: number;
	key: string;
	notes: number;
	changed: number;
}

export function welcomeText({ folder, port, key, notes, changed }: WelcomeInfo): string {
	const base = `http://127.0.0.1:${port}`;
	const note = `${base}/vault/Welcome.md`;
	return `Revision Guard is serving ${folder}
  ${notes} notes tracked${changed > 0 ? `, ${changed} changed since last run` : ""}
  REST API: ${base}/
  API key:  ${key}

Try it (bash):
  export RG_KEY=${key}
  # 1. Read a note; the ETag header is its revision:
  curl -i -H "Authorization: Bearer $RG_KEY" ${note}
  # 2. Update it with that revision (saves the ETag for step 3):
  ETAG=$(curl -s -D - -o /dev/null -H "Authorization: Bearer $RG_KEY" ${note} | tr -d '\\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p'); curl -i -X PUT -H "Authorization: Bearer $RG_KEY" -H "If-Match: $ETAG" --data-binary $'# Welcome\\n\\nUpdated by an agent.\\n' ${note}
  # 3. Send the same, now stale, revision again: 412, and the body is kept as a .bak note:
  curl -i -X PUT -H "Authorization: Bearer $RG_KEY" -H "If-Match: $ETAG" --data-binary $'stale copy\\n' ${note}

Press Ctrl+C to stop.`;
}
