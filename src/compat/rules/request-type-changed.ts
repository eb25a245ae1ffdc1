import { changeRule } from '../rule';

export const requestTypeChanged = changeRule({
  id: 'request-type-changed',
  side: 'request',
  kind: 'type',
  targets: ['value'],
  direction: 'other',
});
