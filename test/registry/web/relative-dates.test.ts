import { describe, expect, it } from "vitest";
import { dateTime, timeAgo } from "../../../registry/web/fragments.js";

const now = new Date("2026-12-03T08:00:00.000Z");
const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe("dates on the pages", () => {
  it("say how long ago, in the largest whole unit", () => {
    const cases: Array<[number, string]> = [
      [20_000, "just now"],
      [5 * minute, "5 minutes ago"],
      [hour, "1 hour ago"],
      [23 * hour, "23 hours ago"],
      [day, "yesterday"],
      [3 * day, "3 days ago"],
      [13 * day, "last week"],
      [20 * day, "2 weeks ago"],
      [61 * day, "2 months ago"],
      [400 * day, "last year"],
      // A publisher's clock a little ahead of the registry's.
      [-30_000, "just now"],
    ];
    for (const [ago, words] of cases) expect(timeAgo(before(ago), now), `${ago} ms`).toBe(words);
  });

  it("keeps the exact UTC time in the tooltip and the datetime attribute", () => {
    expect(dateTime("2026-11-30T07:45:12.000Z", now).markup).toBe(
      '<time datetime="2026-11-30T07:45:12.000Z" title="2026-11-30 07:45 UTC">3 days ago</time>',
    );
  });
});
