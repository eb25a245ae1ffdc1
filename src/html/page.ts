import { createHash } from 'node:crypto';
import { VIEWER_SCRIPT, VIEWER_STYLE } from './viewer';

/**
 * One self-contained HTML page: no server, no network, opens from disk or a CI artifact. What it
 * shows came from contracts and services, so it is data, never markup: it travels as JSON in a
 * `<script type="application/json">` (with `<`, `>` and `&` written as \u escapes, so no payload can
 * close the element), and the page's own script builds the DOM from it with textContent only. The
 * Content-Security-Policy allows that one script and that one style sheet (by hash) and nothing else:
 * no other script, no request, no frame, no form.
 */
export function htmlPage(data: object): string {
  const json = JSON.stringify(data).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e').replaceAll('&', '\\u0026');
  const csp = ["default-src 'none'", `script-src '${sha256(VIEWER_SCRIPT)}'`, `style-src '${sha256(VIEWER_STYLE)}'`, 'img-src data:', "base-uri 'none'", "form-action 'none'"].join(
    '; ',
  );
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<title>accord report</title>',
    `<style>${VIEWER_STYLE}</style>`,
    '</head>',
    '<body>',
    '<noscript>This report needs JavaScript to show its data.</noscript>',
    '<div id="app"></div>',
    `<script type="application/json" id="accord-data">${json}</script>`,
    `<script>${VIEWER_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
