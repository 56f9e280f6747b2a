import { expect, it } from "vitest";
import { loadProfile } from "../../adapters/load-profile.js";
import { profileEvents, profileNames } from "../../adapters/profile-events.js";
import { profileNamed } from "../../adapters/profiles.js";

// exec's client reads profile-events.ts, exec in its own process load-profile.ts, the daemon
// profiles.ts: a profile missing from one of them would be a profile exec accepts and cannot run.
it("every profile exec accepts is the same profile in the client, in exec's own process and in the daemon", async () => {
  expect(profileNames).toEqual(["claude", "gemini", "codex", "pi", "opencode"]);
  for (const name of profileNames) {
    const loaded = await loadProfile(name);
    expect(loaded, name).toBe(profileNamed(name));
    expect(loaded?.name, name).toBe(profileEvents(name)?.name);
  }
  expect(await loadProfile("cursor")).toBeUndefined();
  expect(await loadProfile("toString")).toBeUndefined();
});
