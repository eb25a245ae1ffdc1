import { changeRule } from '../rule';

export const responseDerivedTypeAdded = changeRule({
  id: 'response-derived-type-added',
  side: 'response',
  kind: 'derived',
  targets: ['node'],
  noMirror: {
    'request-derived-type-added': 'older requests still fit: compatible',
    'response-derived-type-removed': 'older clients read every type that remains: compatible',
  },
});
