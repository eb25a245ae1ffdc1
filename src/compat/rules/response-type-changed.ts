import { changeRule } from '../rule';

export const responseTypeChanged = changeRule({
  id: 'response-type-changed',
  side: 'response',
  kind: 'type',
  targets: ['value'],
  direction: 'other',
});
