import { parseContract } from '../../src/contract/load';
import { isStepWord, STEP_KEYWORDS } from '../../src/contract/keywords';
import { STEP_KEYWORDS as READ_BY_STEPS } from '../../src/contract/steps';
import { AccordError } from '../../src/errors';

/** The keyword list the did-you-mean hints use is the step readers' own (steps.ts): it cannot drift from what the builder reads. */

function errorOf(text: string): string {
  try {
    parseContract(text, 'k.spec');
  } catch (e) {
    if (e instanceof AccordError) return e.describe();
    throw e;
  }
  return '';
}

const contract = (step: string) => `Feature: k\n  Scenario: s\n    Given ${step}\n    When GET /x\n    Then status 200\n`;

test('the hints suggest from the step readers themselves', () => {
  expect(STEP_KEYWORDS).toBe(READ_BY_STEPS);
  expect(STEP_KEYWORDS.length).toBeGreaterThanOrEqual(11);
});

test.each(STEP_KEYWORDS.map((k) => [k]))('"%s" is read by the builder (never "not recognised") and known to the hints', (keyword) => {
  expect(isStepWord(keyword)).toBe(true);
  expect(isStepWord(keyword.toUpperCase())).toBe(true);
  expect(errorOf(contract(`${keyword} ???`))).not.toMatch(/not recognised/);
});

test('an unknown word names every keyword a reader reads, and suggests the nearest', () => {
  const message = errorOf(contract('respons-body (string)'));
  expect(message).toMatch(/keyword "respons-body" not recognised \(did you mean "response-body"\?\)/);
  for (const k of STEP_KEYWORDS) expect(message).toContain(k);
});
