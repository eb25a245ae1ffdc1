import type { Scenario } from '../../contract/model';
import { AccordError } from '../../errors';
import { readStateRule, type StateRule } from './state-rule';
import { fitExample, isObject, readExampleShape, type Fit, type RawExample } from './fit-example';
import { compileTemplate, hasTemplate, withoutTemplate } from './response-template';

/**
 * A consumer's example (an expectation its tests set, exported by stub/client/export-examples.ts)
 * fitted to a contract as the stub fitted the expectation: the same reading of typed placeholders
 * and of `{{…}}` templates, the scenario it names tried first (a fault example names the fault
 * scenario that answered), its state rule kept. The provider's replay (runner/consumers.ts) and
 * `accord compatible --consumers` both read examples through here, so what the stub accepted
 * they accept, and what it refused they call stale.
 */
export interface FittedConsumerExample {
  raw: RawExample;
  fit: Fit;
  /** `state` of the expectation: the provider must be in `requires` of machine `name` for the answer. */
  state?: StateRule;
}

export function fitConsumerExample(json: unknown, scenarios: readonly Scenario[], of: string, shape: (message: string) => Error): FittedConsumerExample {
  const raw = readExampleShape(json, shape, false);
  const named = isObject(json) && typeof json.scenario === 'string' ? json.scenario : undefined;
  const state = isObject(json) && json.state !== undefined ? readStateRule(json.state, (m) => shape(m)) : undefined;
  const templated = hasTemplate(raw);
  let fit = fitExample(templated ? withoutTemplate(raw) : raw, scenarios, of, named);
  if (fit.ok && templated) {
    try {
      compileTemplate(raw, fit.owner, fit.scenario, 'example');
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      fit = { ok: false, why: e.message, mismatches: [] };
    }
  }
  return { raw, fit, state };
}
