import { changeRule } from '../rule';

export const requestDerivedTypeRemoved = changeRule({
  id: 'request-derived-type-removed',
  side: 'request',
  kind: 'derived',
  targets: ['node'],
  noMirror: {
    'response-derived-type-removed': 'older clients read every type that remains: compatible',
    'request-derived-type-added': 'older requests still fit: compatible',
  },
});
