import { describe, expect, it } from "vitest";
import { withKeyValues, withoutKeyValues, type Secrets } from "../../src/vault/key-secrets";

function secretStore(): Secrets & { held: Map<string, string> } {
	const held = new Map<string, string>();
	return { held, setSecret: (id, secret) => void held.set(id, secret), getSecret: (id) => held.get(id) ?? null };
}

describe("key secrets", () => {
	it("keeps a key's scope lists in data.json when its value goes to secret storage, and brings them back", () => {
		const secrets = secretStore();
		const key = {
			name: "reader",
			key: "k".repeat(43),
			created: "2026-01-01",
			read: ["Projects/**"],
			write: [],
			propose: ["Drafts/**"],
		};
		const saved = withoutKeyValues({ keys: [key] }, secrets);
		expect(saved.keys[0]).toMatchObject({ name: "reader", read: ["Projects/**"], write: [], propose: ["Drafts/**"] });
		expect(saved.keys[0]).not.toHaveProperty("key");
		const loaded = withKeyValues(JSON.parse(JSON.stringify(saved)), secrets) as { keys: unknown[] };
		expect(loaded.keys[0]).toMatchObject({ key: key.key, read: ["Projects/**"], write: [], propose: ["Drafts/**"] });
	});

	it("keeps even malformed lists as they are, so the key stays refused rather than widened", () => {
		const saved = withoutKeyValues(
			{ keys: [{ name: "x", key: "k".repeat(43), created: "c", write: "Projects/**" }] },
			secretStore(),
		);
		expect(saved.keys[0]).toMatchObject({ write: "Projects/**" });
		expect(saved.keys[0]).not.toHaveProperty("read");
	});
});
