import { changeRule } from '../rule';

export const responseTypeWidened = changeRule({
  id: 'response-type-widened',
  side: 'response',
  kind: 'type',
  targets: ['value'],
  direction: 'widened',
  noMirror: {
    'request-type-widened': 'older requests still fit: compatible',
    'response-type-narrowed': 'older clients accept every value of a narrower type: compatible',
  },
});
