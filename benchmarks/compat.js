#!/usr/bin/env node
'use strict';
// Compatibility check of a 1,000-scenario SOAP contract against itself (target: under 1 s).
// Every scenario shares POST /ws, as SOAP contracts do, so finding the newer
// scenario each older one is held to is part of what is measured.
const { performance } = require('node:perf_hooks');
const { parseContract } = require('../dist/contract/load');
const { checkCompatibility } = require('../dist/compat');

const SCENARIOS = 1000;

function scenario(i) {
  return `
  Scenario: Operation ${i}
    Given type Item${i} <ns:item><ns:code>(string)</ns:code><ns:qty>(number)</ns:qty></ns:item>
    And type Request${i}
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Header specmatic_occurs="optional"/>
      <soapenv:Body>
        <ns:operation${i}Request xmlns:ns="http://example.com/ops">
          <ns:id>(number)</ns:id>
          <ns:name specmatic_occurs="optional">(string)</ns:name>
          <ns:when>(datetime)</ns:when>
          (Item${i}*)
        </ns:operation${i}Request>
      </soapenv:Body>
    </soapenv:Envelope>
    """
    And type Response${i}
    """
    <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">
      <soapenv:Header specmatic_occurs="optional"/>
      <soapenv:Body>
        <ns:operation${i}Response xmlns:ns="http://example.com/ops">
          <ns:id>(number)</ns:id>
          <ns:status>(Status)</ns:status>
          <ns:total specmatic_nillable="true">(number)</ns:total>
          (Item${i}*)
        </ns:operation${i}Response>
      </soapenv:Body>
    </soapenv:Envelope>
    """
    When POST /ws
    And request-header SOAPAction (SoapAction)
    And request-body (Request${i})
    Then status 200
    And response-body (Response${i})
`;
}

function contract() {
  const head = `Feature: A large SOAP service

  Background:
    Given enum Status (string) values open,closed,pending
    And enum SoapAction (string) values "urn:op",urn:op
`;
  return head + Array.from({ length: SCENARIOS }, (_, i) => scenario(i)).join('');
}

const text = contract();
const tp = performance.now();
const older = parseContract(text, 'older.spec');
const newer = parseContract(text, 'newer.spec');
const parseMs = (performance.now() - tp) / 2;
if (older.scenarios.length !== SCENARIOS) throw new Error(`expected ${SCENARIOS} scenarios, parsed ${older.scenarios.length}`);

checkCompatibility(older, newer); // warm-up
const runs = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  const v = checkCompatibility(older, newer);
  runs.push(performance.now() - t0);
  if (!v.compatible || v.testsRun !== SCENARIOS) throw new Error('a contract must be compatible with itself');
}
runs.sort((a, b) => a - b);
const median = runs[Math.floor(runs.length / 2)];
console.log(
  `compat: ${SCENARIOS} SOAP scenarios (${(text.length / 1024).toFixed(0)} KB) against themselves: median ${median.toFixed(1)} ms, best ${runs[0].toFixed(1)} ms (target < 1000 ms)`,
);
console.log(`compat: parsing one version takes ${parseMs.toFixed(0)} ms (the CLI parses both, then checks)`);

// One scenario broken at the end: the failing one is compared with every POST /ws candidate before it is reported.
const broken = parseContract(text.replace('<ns:id>(number)</ns:id>\n          <ns:status>', '<ns:id>(string)</ns:id>\n          <ns:status>'), 'broken.spec');
const t1 = performance.now();
const v = checkCompatibility(older, broken);
console.log(`compat: same, one response broken: ${(performance.now() - t1).toFixed(1)} ms, failed ${v.failed}`);

// The whole command as a user runs it: start Node, parse both versions (the newer differs by a
// comment, so both are parsed), check, print. Cold: a fresh AST cache; warm: the same files again.
const { mkdtempSync, writeFileSync, rmSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const dir = mkdtempSync(path.join(require('node:os').tmpdir(), 'accord-bench-compat-'));
writeFileSync(path.join(dir, 'api_ops_v1.spec'), text);
writeFileSync(path.join(dir, 'api_ops_v2.spec'), `# v2\n${text}`);
const cli = () => {
  const t = performance.now();
  const r = spawnSync(process.execPath, [path.join(__dirname, '..', 'bin', 'accord.js'), 'compatible', 'api_ops_v1.spec', 'api_ops_v2.spec'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ACCORD_CACHE_DIR: path.join(dir, 'cache') },
  });
  if (r.status !== 0) throw new Error(`accord compatible exited ${r.status}: ${r.stderr}`);
  return performance.now() - t;
};
const cold = cli();
const warm = cli();
rmSync(dir, { recursive: true, force: true });
console.log(
  `compat: the whole CLI run (accord compatible v1 v2, 1000 scenarios each): ${cold.toFixed(0)} ms with a cold cache (no parsed contracts, no compiled code), ${warm.toFixed(0)} ms warm`,
);
process.exit(median < 1000 ? 0 : 1);
