/*
 * The report page's own style sheet and script (page.ts inlines both, allowed by hash in its
 * Content-Security-Policy). The script reads the JSON data element and builds every node with
 * createElement and textContent: nothing that came from a contract or a service is ever parsed as
 * HTML. Details (an exchange, a pair of contract versions) are built when opened, so a report of
 * thousands of scenarios shows its list at once.
 */

export const VIEWER_STYLE = String.raw`
:root { --ok: #1a7f37; --bad: #cf222e; --wip: #9a6700; --skip: #6e7781; --mark: #ffebe9; --line: #d0d7de; font-family: system-ui, sans-serif; }
body { margin: 0; padding: 16px 24px; color: #1f2328; background: #fff; }
h1 { font-size: 20px; margin: 0 0 8px; } h2 { font-size: 16px; margin: 20px 0 8px; } h3 { font-size: 14px; margin: 12px 0 6px; }
.summary { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 12px; }
.chip { border: 1px solid var(--line); border-radius: 12px; padding: 2px 10px; font-size: 13px; }
.controls { display: flex; gap: 16px; align-items: center; padding: 8px 0; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: #fff; z-index: 1; }
table { border-collapse: collapse; font-size: 13px; } th, td { border-bottom: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; min-width: 136px; font-size: 12px; font-weight: 600; }
.s-passed, .s-negative-passed, .s-wip-passed { color: var(--ok); } .s-failed, .s-negative-failed { color: var(--bad); }
.s-wip-failed { color: var(--wip); } .s-skipped, .s-not-run, .s-skipped-no-longer-fits { color: var(--skip); }
.group { margin-top: 12px; content-visibility: auto; contain-intrinsic-size: auto 400px; } .group > .ghead { font-weight: 600; font-size: 14px; padding: 4px 0; border-bottom: 2px solid var(--line); }
.row { border-bottom: 1px solid #eee; } .row > .head { padding: 3px 4px; cursor: pointer; font-size: 13px; } .row > .head:hover { background: #f6f8fa; }
.detail { padding: 6px 8px 12px 24px; background: #fafbfc; }
.msg { white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: 12px; background: #fff; border: 1px solid var(--line); padding: 6px; max-height: 320px; overflow: auto; }
.mm { font-family: ui-monospace, monospace; font-size: 12px; color: var(--bad); margin: 2px 0; } .mm.who { color: inherit; margin-left: 2em; }
.panes { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; margin-top: 8px; }
.pane { min-width: 0; } .code { font-family: ui-monospace, monospace; font-size: 12px; background: #fff; border: 1px solid var(--line); overflow: auto; max-height: 480px; }
.ln { white-space: pre; padding: 0 6px; } .ln.hdr { color: #57606a; }
.ln.marked { background: var(--mark); outline: 1px solid var(--bad); }
.note { color: var(--bad); font-family: system-ui, sans-serif; font-size: 12px; white-space: pre-wrap; padding: 1px 6px 3px 6px; background: var(--mark); }
.cut { color: var(--skip); font-style: italic; padding: 2px 6px; }
.num { display: inline-block; width: 40px; color: #8c959f; text-align: right; margin-right: 8px; user-select: none; }
details summary { cursor: pointer; font-size: 12px; color: #57606a; }
.empty { color: var(--skip); font-style: italic; }
[hidden] { display: none !important; }
`;

export const VIEWER_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('accord-data').textContent);
  var app = document.getElementById('app');
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent) { for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]); return parent; }
  var SVG = 'http://www.w3.org/2000/svg';
  var COLORS = { passed: '#1a7f37', failed: '#cf222e', wip: '#d4a72c', skipped: '#8c959f', notRun: '#d0d7de' };
  function bar(parts, width) {
    var total = 0; parts.forEach(function (p) { total += p[1]; });
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('width', String(width)); svg.setAttribute('height', '12'); svg.setAttribute('role', 'img');
    var x = 0;
    parts.forEach(function (p) {
      if (!total || !p[1]) return;
      var w = (p[1] / total) * width;
      var r = document.createElementNS(SVG, 'rect');
      r.setAttribute('x', String(x)); r.setAttribute('y', '0'); r.setAttribute('width', String(w)); r.setAttribute('height', '12');
      r.setAttribute('fill', COLORS[p[0]]);
      var t = document.createElementNS(SVG, 'title'); t.textContent = p[0] + ': ' + p[1]; r.appendChild(t);
      svg.appendChild(r); x += w;
    });
    var l = document.createElementNS(SVG, 'title'); l.textContent = parts.map(function (p) { return p[0] + ' ' + p[1]; }).join(', ');
    svg.insertBefore(l, svg.firstChild);
    return svg;
  }
  function table(head, rows) {
    var t = el('table'), tr = el('tr');
    head.forEach(function (h) { tr.appendChild(el('th', null, h)); });
    add(t, add(el('thead'), tr));
    var tb = el('tbody');
    rows.forEach(function (r) {
      var row = el('tr');
      r.forEach(function (c) { var td = el('td', typeof c === 'number' ? 'n' : null); if (c && c.nodeType) td.appendChild(c); else td.textContent = c === undefined || c === null ? '' : String(c); row.appendChild(td); });
      tb.appendChild(row);
    });
    return add(t, tb);
  }
  var LABEL = { passed: 'PASSED', failed: 'FAILED', 'wip-passed': 'WIP: would pass', 'wip-failed': 'WIP: would fail', skipped: 'SKIPPED', 'not-run': 'NOT RUN', 'negative-passed': 'NEGATIVE: passed', 'negative-failed': 'NEGATIVE: failed', 'skipped-no-longer-fits': "SKIPPED: no longer fits, the consumer's to fix" };
  function badge(status) { return el('span', 'badge s-' + status, LABEL[status] || status); }

  // An XML or text body as numbered lines; lines a mismatch concerns are marked, with the mismatch below.
  function bodyView(body, marks) {
    var box = el('div', 'code');
    if (!body) { box.appendChild(el('div', 'ln empty', '(no body)')); return box; }
    var notes = {};
    (marks || []).forEach(function (m) { if (m.line !== undefined && m.line !== null) (notes[m.line] = notes[m.line] || []).push(m); });
    body.lines.forEach(function (l, i) {
      var line = el('div', 'ln');
      add(line, el('span', 'num', i + 1));
      line.appendChild(document.createTextNode(new Array(l[0] + 1).join('  ') + l[1]));
      if (notes[i]) {
        line.className = 'ln marked';
        line.setAttribute('data-marked', 'true');
        box.appendChild(line);
        notes[i].forEach(function (m) { box.appendChild(el('div', 'note', '\u25b2 ' + m.path + ': expected ' + m.expected + ', found ' + m.actual)); });
      } else box.appendChild(line);
    });
    if (body.cut) box.appendChild(el('div', 'cut', body.cut));
    return box;
  }
  function headersView(first, headers) {
    var box = el('div', 'code');
    box.appendChild(el('div', 'ln hdr', first));
    (headers || []).forEach(function (h) { box.appendChild(el('div', 'ln hdr', h[0] + ': ' + h[1])); });
    return box;
  }
  function exchangeView(t) {
    var d = el('div', 'detail');
    var x = t.exchange;
    // With an exchange the failure text says the same again: it stays folded, one click away.
    if (t.message && x) add(d, add(el('details'), el('summary', null, 'failure text as Jest shows it'), el('div', 'msg', t.message)));
    else if (t.message) add(d, el('div', 'msg', t.message));
    if (!x) return d;
    if (x.error) add(d, el('div', 'mm', x.error));
    (x.mismatches || []).forEach(function (m) { d.appendChild(el('div', 'mm', m.path + ': expected ' + m.expected + ', found ' + m.actual)); });
    var panes = el('div', 'panes');
    var req = el('div', 'pane'), res = el('div', 'pane');
    add(req, el('h3', null, 'Request sent'));
    if (x.request) add(req, headersView(x.request.line, x.request.headers), bodyView(x.request.body, x.mismatches.filter(function (m) { return m.side === 'request'; })));
    else add(req, el('div', 'empty', 'no request was sent'));
    add(res, el('h3', null, 'Response received'));
    if (x.response) add(res, headersView(String(x.response.status), x.response.headers), bodyView(x.response.body, x.mismatches.filter(function (m) { return m.side === 'response'; })));
    else add(res, el('div', 'empty', 'no response'));
    return add(d, add(panes, req, res));
  }

  function summary(items) {
    var s = el('div', 'summary');
    items.forEach(function (i) { if (i[1] || i[2]) s.appendChild(el('span', 'chip ' + (i[3] || ''), i[0] + ': ' + i[1])); });
    return s;
  }

  // Rows that can be hidden by the filters: each knows its contract and whether it failed.
  var rows = [];
  var failedOnly, contractSel;
  function applyFilters() {
    var f = failedOnly.checked, c = contractSel.value;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      r.node.hidden = (f && !r.failed) || (c !== '' && r.contract !== c);
    }
    groups.forEach(function (g) { g.node.hidden = (c !== '' && g.contract !== c) || (f && !g.failed); });
  }
  var groups = [];
  function controls(contracts, failedLabel) {
    var bar = el('div', 'controls');
    var l1 = el('label');
    failedOnly = el('input'); failedOnly.type = 'checkbox'; failedOnly.id = 'failed-only';
    add(l1, failedOnly, document.createTextNode(' ' + failedLabel));
    var l2 = el('label', null, 'Contract ');
    contractSel = el('select'); contractSel.id = 'contract-filter';
    var all = el('option', null, 'all contracts'); all.value = ''; contractSel.appendChild(all);
    contracts.forEach(function (c) { var o = el('option', null, c); o.value = c; contractSel.appendChild(o); });
    l2.appendChild(contractSel);
    failedOnly.addEventListener('change', applyFilters);
    contractSel.addEventListener('change', applyFilters);
    return add(bar, l1, l2);
  }
  function expandable(head, build) {
    var row = el('div', 'row');
    var h = el('div', 'head');
    h.tabIndex = 0;
    add(row, h);
    head(h);
    var open = null;
    function toggle() {
      if (open) { open.remove(); open = null; return; }
      open = build(); row.appendChild(open);
    }
    h.addEventListener('click', toggle);
    h.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(); } });
    return row;
  }

  // Replayed consumer examples are tests of their own, not scenarios: the summary counts them apart.
  function consumerChips() {
    var list = data.consumers || [];
    if (!list.length) return [];
    var count = function (st) { return list.filter(function (e) { return e.status === st; }).length; };
    return [['consumer examples', list.length, 1], ['consumer examples failed', count('failed'), 0, 's-failed'], ['no longer fit', count('skipped-no-longer-fits'), 0, 's-skipped']];
  }

  function tests() {
    var t = data.totals;
    add(app, el('h1', null, data.title || 'accord contract tests'));
    add(app, summary([['contracts', data.contracts.length, 1], ['passed', t.passed, 0, 's-passed'], ['failed', t.failed, 1, 's-failed'], ['WIP', t.wip, 0, 's-wip-failed'], ['skipped', t.skipped, 0, 's-skipped'], ['not run', t.notRun, 0, 's-not-run'], ['negative passed', t.negativePassed, 0, 's-passed'], ['negative failed', t.negativeFailed, 0, 's-failed']].concat(consumerChips())));
    if (data.partial) add(app, el('p', 'empty', 'A partial run: ' + data.partial));
    add(app, controls(data.contracts.map(function (c) { return c.file; }), 'failed only'));

    add(app, el('h2', null, 'Coverage'));
    add(app, table(['contract', 'scenarios', 'passed', 'failed', 'WIP', 'skipped', 'not run', 'negative (passed/failed)', 'chart'], data.contracts.map(function (c) {
      var v = c.coverage;
      return [c.file, v.scenarios, v.passed, v.failed, v.wip, v.skipped, v.notRun, v.negative.passed + '/' + v.negative.failed, bar([['passed', v.passed], ['failed', v.failed], ['wip', v.wip], ['skipped', v.skipped], ['notRun', v.notRun]], 160)];
    })));
    var ops = data.contracts.filter(function (c) { return c.wsdl; });
    if (ops.length) {
      add(app, el('h2', null, 'WSDL operations'));
      ops.forEach(function (c) {
        var covered = c.wsdl.operations.filter(function (o) { return o.status === 'passed'; }).length;
        var partial = c.wsdl.partial || [];
        add(app, el('h3', null, c.file + ' \u2192 ' + c.wsdl.file + ' (' + covered + ' of ' + c.wsdl.operations.length + ' passed' + (partial.length ? '; WSDL read in part' : '') + ')'));
        // What the WSDL imports and could not be read: its nodes were typed (anything), so part of the contract went untested.
        partial.forEach(function (l) { add(app, el('div', 'note partial', 'not read: ' + l)); });
        add(app, bar([['passed', covered], ['failed', c.wsdl.operations.filter(function (o) { return o.status === 'failed'; }).length], ['notRun', c.wsdl.operations.length - covered - c.wsdl.operations.filter(function (o) { return o.status === 'failed'; }).length]], 320));
        add(app, table(['operation', 'status', 'faults'], c.wsdl.operations.map(function (o) { return [o.name, badge(o.status === 'no scenario' ? 'not-run' : o.status === 'wip' ? 'wip-failed' : o.status === 'not run' ? 'not-run' : o.status), o.faults]; })));
      });
    }
    if (data.consumers && data.consumers.length) {
      add(app, el('h2', null, 'Consumer examples'));
      add(app, table(['consumer', 'example', 'file', 'contract', 'scenario', 'status'], data.consumers.map(function (e) { return [e.consumer, e.example, e.file || '', e.contract, e.scenario, badge(e.status)]; })));
    }

    add(app, el('h2', null, 'Scenarios'));
    var list = el('div', 'list');
    data.contracts.forEach(function (c) {
      var g = el('div', 'group');
      var failed = c.tests.some(function (x) { return x.status === 'failed' || x.status === 'negative-failed'; }) || !!c.error;
      groups.push({ node: g, contract: c.file, failed: failed });
      add(g, el('div', 'ghead', c.file + (c.feature ? ' \u2014 ' + c.feature : '')));
      if (c.error) add(g, el('div', 'msg', c.error));
      c.tests.forEach(function (x) {
        var row = expandable(function (h) { add(h, badge(x.status), document.createTextNode(x.title)); }, function () { return exchangeView(x); });
        row.setAttribute('data-status', x.status);
        rows.push({ node: row, contract: c.file, failed: x.status === 'failed' || x.status === 'negative-failed' });
        g.appendChild(row);
      });
      list.appendChild(g);
    });
    add(app, list);
  }

  function sourceView(lines, marks, label) {
    var box = el('div', 'code');
    if (!lines) { box.appendChild(el('div', 'ln empty', label)); return box; }
    var at = {};
    marks.forEach(function (m) { (at[m.line] = at[m.line] || []).push(m); });
    lines.forEach(function (text, i) {
      var n = i + 1, line = el('div', 'ln');
      add(line, el('span', 'num', n), document.createTextNode(text));
      box.appendChild(line);
      if (at[n]) {
        line.className = 'ln marked';
        line.setAttribute('data-marked', 'true');
        at[n].forEach(function (f) { box.appendChild(el('div', 'note', '[' + f.rule + '] ' + f.message + '\nWhy: ' + f.reason + (f.consumers ? '\n' + f.consumers : ''))); });
      }
    });
    return box;
  }
  function compat() {
    add(app, el('h1', null, data.title || 'accord compatible'));
    add(app, el('p', data.compatible ? 's-passed' : 's-failed', data.verdict));
    add(app, summary([['files', data.files.length, 1], ['scenarios checked', data.totals.testsRun, 1], ['compatible', data.totals.passed, 0, 's-passed'], ['breaking', data.totals.failed, 1, 's-failed']]));
    add(app, controls(data.files.map(function (f) { return f.file; }), 'breaking only'));
    data.files.forEach(function (f) {
      var g = el('div', 'group');
      groups.push({ node: g, contract: f.file, failed: !f.compatible });
      add(g, el('div', 'ghead', f.file + ': ' + (f.compatible ? 'compatible' : 'NOT compatible') + (f.status !== 'compared' ? ' (' + f.status + ')' : '')));
      if (f.note) add(g, el('p', 'empty', f.note));
      f.findings.forEach(function (x) { add(g, el('div', 'mm', '[' + x.rule + '] ' + x.message + ' \u2014 ' + x.where)); if (x.consumers) add(g, el('div', 'mm who', x.consumers)); });
      if (f.consumers) add(g, el('p', 'consumers', f.consumers));
      if (f.hint) add(g, el('p', null, f.hint));
      if (!f.olderLines && !f.newerLines) { app.appendChild(g); return; }
      var older = [], newer = [];
      f.findings.forEach(function (x) {
        if (x.newerLine) newer.push({ line: x.newerLine, rule: x.rule, message: x.message, reason: x.reason, consumers: x.consumers });
        if (x.olderLine) older.push({ line: x.olderLine, rule: x.rule, message: x.message, reason: x.reason, consumers: x.consumers });
      });
      var panes = el('div', 'panes');
      add(panes, add(el('div', 'pane'), el('h3', null, 'older: ' + (f.older || '(none)')), sourceView(f.olderLines, older, 'no older version')));
      add(panes, add(el('div', 'pane'), el('h3', null, 'newer: ' + (f.newer || '(none)')), sourceView(f.newerLines, newer, 'no newer version')));
      g.appendChild(panes);
      // The other files findings are in (an imported XSD), each finding on its line there.
      (f.others || []).forEach(function (o) {
        var marks = [];
        f.findings.forEach(function (x) {
          if (x.file === o.file && x.fileLine) marks.push({ line: x.fileLine, rule: x.rule, message: x.message, reason: x.reason, consumers: x.consumers });
          if (x.olderFileName === o.file && x.olderFileLine) marks.push({ line: x.olderFileLine, rule: x.rule, message: x.message, reason: x.reason, consumers: x.consumers });
        });
        add(g, add(el('div', 'pane'), el('h3', null, o.version + ': ' + o.file), sourceView(o.lines, marks, 'not readable')));
      });
      if (f.sourceCut) add(g, el('div', 'cut', f.sourceCut));
      app.appendChild(g);
    });
  }

  try {
    if (data.kind === 'compat') compat(); else tests();
    document.title = data.title || 'accord report';
    document.body.setAttribute('data-ready', 'true');
  } catch (e) {
    app.appendChild(el('p', 's-failed', 'This report could not be shown: ' + (e && e.message)));
  }
})();
`;
