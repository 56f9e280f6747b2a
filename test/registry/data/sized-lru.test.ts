import { describe, expect, it } from "vitest";
import { SizedLru } from "../../../registry/data/sized-lru.js";

const lru = (budget: number) => new SizedLru<string, string>(budget, (value) => value.length);

describe("SizedLru: what the registry keeps in memory stays within its budget", () => {
  it("drops the least recently used first, a read counting as a use", () => {
    const kept = lru(80);
    kept.set("a", "x".repeat(10));
    kept.set("b", "x".repeat(10));
    kept.get("a");
    for (let i = 0; i < 7; i++) kept.set(`filler-${i}`, "x".repeat(10));
    expect(kept.get("a")).toBeDefined();
    expect(kept.get("b")).toBeUndefined();
    expect(kept.bytes).toBeLessThanOrEqual(80);
  });

  it("never holds more than the budget, however many values go in", () => {
    const kept = lru(1_000);
    for (let i = 0; i < 5_000; i++) {
      kept.set(`key-${i % 700}`, "x".repeat(1 + (i % 120)));
      expect(kept.bytes).toBeLessThanOrEqual(1_000);
    }
    expect(kept.count).toBeGreaterThan(0);
  });

  it("does not keep a value bigger than an eighth of the budget, nor replace a kept one with it", () => {
    const kept = lru(800);
    kept.set("small", "x".repeat(100));
    kept.set("big", "x".repeat(101));
    expect(kept.get("big")).toBeUndefined();
    expect(kept.get("small")).toBe("x".repeat(100));
    kept.set("small", "x".repeat(500));
    expect(kept.get("small")).toBeUndefined();
    expect(kept.bytes).toBe(0);
  });

  it("with a budget of 0 keeps nothing", () => {
    const kept = lru(0);
    kept.set("a", "x");
    expect(kept.get("a")).toBeUndefined();
    expect(kept.count).toBe(0);
  });

  it("replacing and deleting a key keep the count of bytes right", () => {
    const kept = lru(100);
    kept.set("a", "x".repeat(10));
    kept.set("a", "x".repeat(5));
    expect(kept.bytes).toBe(5);
    kept.delete("a");
    kept.delete("a");
    expect(kept.bytes).toBe(0);
    expect(kept.count).toBe(0);
  });
});
