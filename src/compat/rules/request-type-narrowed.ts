import { changeRule } from '../rule';

export const requestTypeNarrowed = changeRule({
  id: 'request-type-narrowed',
  side: 'request',
  kind: 'type',
  targets: ['value'],
  direction: 'narrowed',
  noMirror: {
    'response-type-narrowed': 'older clients accept every value of a narrower type: compatible',
    'request-type-widened': 'older requests still fit: compatible',
  },
});
