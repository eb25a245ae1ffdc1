import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../helpers/child-env';
import { runJestApp } from '../helpers/jest-app';
import { startServer, type Running } from '../helpers/servers';

/**
 * Negative tests send a scenario's operation again, once per mutation: a delete
 * was re-sent six times, once without its confirm flag. `@no-negative` on a
 * scenario, a Rule or a Feature keeps it out. A real server counts what
 * arrives, per method, while Jest runs the contracts with ACCORD_NEGATIVE=1.
 */

const DELETE = `  Scenario: Delete an order
    When DELETE /orders/(id:number)
    And request-body {"confirm": "(boolean)", "reason": "(number)"}
    Then status 200
`;
const CREATE = `  Scenario: Create an order
    When POST /orders
    And request-body {"item": "(number)"}
    Then status 200
`;

let dir: string;
let server: Running;
let seen: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'accord-no-negative-'));
  mkdirSync(path.join(dir, 'contracts'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "app", "private": true }');
  // A lax service: it accepts everything, as a real one might accept a delete without its flag.
  server = await startServer((req) => {
    seen.push(`${req.method} ${req.body.includes('confirm') ? 'with confirm' : 'without confirm'}`);
    return { type: 'application/json', body: '{}' };
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function jest(contract: string, env: Record<string, string> = { ACCORD_NEGATIVE: '1' }): Promise<string> {
  writeFileSync(path.join(dir, 'contracts', 'orders.spec'), contract);
  seen = [];
  return runJestApp(dir, { baseUrl: server.url }, childEnv(env)).then((run) => run.output);
}

const count = (what: string) => seen.filter((s) => s === what).length;

test('without the tag, the delete is sent again for every mutation, once without its confirm flag', async () => {
  const output = await jest(`Feature: Orders\n\n${DELETE}\n${CREATE}`);
  expect(output).toContain('[negative: missing confirm]');
  expect(count('DELETE with confirm') + count('DELETE without confirm')).toBeGreaterThan(1);
  expect(count('DELETE without confirm')).toBeGreaterThanOrEqual(1);
}, 120_000);

test('@no-negative on the scenario: the delete is sent once (its own test); the other scenario keeps its negative tests', async () => {
  const output = await jest(`Feature: Orders\n\n  @no-negative\n${DELETE}\n${CREATE}`);
  expect(seen.filter((s) => s.startsWith('DELETE'))).toEqual(['DELETE with confirm']);
  expect(output).not.toContain('Delete an order [negative:');
  expect(output).toContain('Create an order [negative: missing item]');
  expect(count('POST without confirm')).toBeGreaterThan(1);
}, 120_000);

test('@No-Negative on the Feature (any case) or on a Rule: none of its scenarios has negative tests', async () => {
  const feature = await jest(`@No-Negative\nFeature: Orders\n\n${DELETE}\n${CREATE}`);
  expect(seen.sort()).toEqual(['DELETE with confirm', 'POST without confirm']);
  expect(feature).not.toContain('[negative:');
  const rule = await jest(`Feature: Orders\n\n  @no-negative\n  Rule: destructive\n\n${DELETE}\n  Rule: safe\n\n${CREATE}`);
  expect(seen.filter((s) => s.startsWith('DELETE'))).toEqual(['DELETE with confirm']);
  expect(rule).toContain('Create an order [negative: missing item]');
}, 120_000);
