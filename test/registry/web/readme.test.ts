import { describe, expect, it } from "vitest";
import { renderReadme } from "../../../registry/web/readme.js";

const render = (markdown: string) => renderReadme(markdown).markup;

/**
 * The tags in the output. Text is escaped (a `<` in it is `&lt;`), so every `<` starts a tag, and
 * raw HTML shown as text is not mistaken for markup.
 */
const tags = (out: string) => out.match(/<[^>]*>/g) ?? [];
const hrefs = (out: string) =>
  tags(out).flatMap((tag) => [...tag.matchAll(/href="([^"]*)"/g)].map((m) => m[1]));

/** Attacks a readme may try; each must come out with nothing that runs or loads. */
const attacks: Record<string, string> = {
  "a script element": "<script>window.__pwned = 1</script>",
  "a script split over lines": "<scr\nipt>alert(1)</script>",
  "an img with onerror": '<img src=x onerror="window.__pwned=1">',
  "an svg with onload": "<svg onload=alert(1)></svg>",
  "an iframe": '<iframe src="https://evil.example"></iframe>',
  "an inline style": '<p style="position:fixed;inset:0">cover</p>',
  "a style element": "<style>body{display:none}</style>",
  "a javascript: link": "[click me](javascript:window.__pwned=1)",
  "a javascript: link in mixed case": "[x](JaVaScRiPt:alert(1))",
  "a javascript: link hidden by an entity": "[x](java&#x09;script:alert(1))",
  "a javascript: link hidden by percent-encoding": "[x](%6Aavascript:alert(1))",
  "a javascript: autolink": "<javascript:alert(1)>",
  "a javascript: reference link": "[x][r]\n\n[r]: javascript:alert(1)",
  "a vbscript: link": "[x](vbscript:msgbox(1))",
  "a data: link": "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "a data: image": "![x](data:image/png;base64,iVBORw0KGgo=)",
  "a file: link": "[x](file:///etc/passwd)",
  "a protocol-relative link": "[x](//evil.example/a)",
  "a remote image": "![tracking pixel](http://127.0.0.1:9/x.png)",
  "a remote image in a link": "[![badge](https://ci.example/b.svg)](https://ci.example)",
  "an html link with an event handler": '<a href="https://ok.example" onclick="alert(1)">x</a>',
  "a form": '<form action="https://evil.example"><input name=x></form>',
  "a meta refresh": '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  "a base element": '<base href="https://evil.example/">',
  "a code fence with a hostile info string": '```js" onmouseover="alert(1)\ncode\n```',
  "a link title with quotes": '[x](https://ok.example "a\\" onmouseover=\\"alert(1)")',
};

describe("readme rendering", () => {
  for (const [attack, markdown] of Object.entries(attacks)) {
    it(`renders ${attack} inert`, () => {
      const out = render(markdown);
      for (const tag of tags(out)) {
        expect(tag).toMatch(
          /^<\/?(h[3-6]|p|br|hr|blockquote|ul|ol|li|pre|code|em|strong|s|a|table|thead|tbody|tr|th|td)[\s>]/,
        );
        expect(tag).not.toMatch(/\s(on\w+|style|src|class="(?!language-))/i);
      }
      for (const href of hrefs(out)) expect(href).toMatch(/^(https?:\/\/[^/]|mailto:|#)/);
    });
  }

  it("shows raw HTML as text rather than dropping it, so the reader sees what the author wrote", () => {
    expect(render("<script>window.__pwned = 1</script>")).toContain(
      "&lt;script&gt;window.__pwned = 1&lt;/script&gt;",
    );
  });

  it("keeps http(s), mailto and anchor links, telling browsers to send nothing to the target", () => {
    const out = render(
      "[a](https://a.example/x) [m](mailto:me@example.com) [top](#usage) <https://b.example>",
    );
    expect(hrefs(out)).toEqual([
      "https://a.example/x",
      "mailto:me@example.com",
      "#usage",
      "https://b.example",
    ]);
    expect(out).toContain('<a href="https://a.example/x" rel="nofollow noopener noreferrer ugc">a</a>');
    expect(out).toContain('<a href="#usage">top</a>');
  });

  it("keeps the text of a link it cannot resolve, and shows a dangerous one as written", () => {
    expect(render("see [the guide](docs/guide.md)")).toBe("<p>see the guide</p>\n");
    expect(render("[fine](https://ok.example) [bad](vbscript:x)")).toBe(
      '<p><a href="https://ok.example" rel="nofollow noopener noreferrer ugc">fine</a> [bad](vbscript:x)</p>\n',
    );
  });

  it("loads no image: a remote one becomes a link to it, any other its alt text", () => {
    expect(render("![diagram](https://img.example/d.png)")).toBe(
      '<p><a href="https://img.example/d.png" rel="nofollow noopener noreferrer ugc">[image: diagram]</a></p>\n',
    );
    expect(render("![logo](logo.png)")).toBe("<p>[image: logo]</p>\n");
    expect(render("![](data:image/png;base64,iVBORw0KGgo=)")).toBe("<p>[image: no description]</p>\n");
    expect(render("[![badge](https://ci.example/b.svg)](https://ci.example)")).toBe(
      '<p><a href="https://ci.example" rel="nofollow noopener noreferrer ugc">[image: badge]</a></p>\n',
    );
  });

  it("moves headings below the page's own h1 and h2", () => {
    expect(render("# One\n## Two\n#### Four\n###### Six")).toBe(
      "<h3>One</h3>\n<h4>Two</h4>\n<h6>Four</h6>\n<h6>Six</h6>\n",
    );
  });

  it("keeps code, tables and lists, with a language class only when it is a plain word", () => {
    const out = render("```ts\nconst x = 1 < 2;\n```\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n3. three\n4. four");
    expect(out).toContain('<pre><code class="language-ts">const x = 1 &lt; 2;\n</code></pre>');
    expect(out).toContain("<th>a</th>");
    expect(out).not.toContain("text-align");
    expect(out).toContain('<ol start="3">');
  });
});
