import { describe, expect, it } from "vitest";
import { escapeHtml, html, trustedHtml } from "../../../registry/web/html.js";

describe("the html template tag", () => {
  it("escapes every interpolated text, in content and in quoted attributes", () => {
    const hostile = `"><script>alert('x')</script>&`;
    const out = html`<p title="${hostile}">${hostile}</p>`.markup;
    expect(out).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>',
    );
    expect(escapeHtml("a & b")).toBe("a &amp; b");
  });

  it("keeps markup built by html or marked trusted, joins arrays and drops null, undefined and false", () => {
    const items = ["<a>", "b"].map((text) => html`<li>${text}</li>`);
    const out = html`<ul>${items}</ul>${null}${undefined}${false}${0}${trustedHtml("<hr>")}`;
    expect(out.markup).toBe("<ul><li>&lt;a&gt;</li><li>b</li></ul>0<hr>");
    expect(String(out)).toBe(out.markup);
  });

  it("does not trust a string that only looks like markup", () => {
    const lookalike = { markup: "<script>" } as unknown as string;
    expect(html`${lookalike}`.markup).toBe("[object Object]");
  });
});
