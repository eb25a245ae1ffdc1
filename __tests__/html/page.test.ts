import { createHash } from 'node:crypto';
import { htmlPage } from '../../src/html/page';
import { VIEWER_SCRIPT, VIEWER_STYLE } from '../../src/html/viewer';

/** The report page: data that came from contracts and services is JSON that no payload can break out of. */
const HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)><!-- & \u2028';

test('the data is JSON with <, > and & escaped: no payload closes the element or opens markup', () => {
  const page = htmlPage({ kind: 'tests', title: HOSTILE, contracts: [{ file: HOSTILE }] });
  expect(page).not.toContain('<img');
  expect(page).not.toContain('alert(1)</script>');
  expect(page.match(/<script/g)).toHaveLength(2);
  const json = /<script type="application\/json" id="accord-data">([^<]*)<\/script>/.exec(page)![1];
  expect(JSON.parse(json)).toEqual({ kind: 'tests', title: HOSTILE, contracts: [{ file: HOSTILE }] });
});

test("a Content-Security-Policy that allows the page's own script and style by hash, and nothing else", () => {
  const page = htmlPage({});
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)![1];
  const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
  expect(csp).toBe(`default-src 'none'; script-src ${hash(VIEWER_SCRIPT)}; style-src ${hash(VIEWER_STYLE)}; img-src data:; base-uri 'none'; form-action 'none'`);
  expect(page).toContain(`<script>${VIEWER_SCRIPT}</script>`);
  // The viewer never parses data as HTML.
  expect(VIEWER_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
});
