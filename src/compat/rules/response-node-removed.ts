import { changeRule } from '../rule';

export const responseNodeRemoved = changeRule({
  id: 'response-node-removed',
  side: 'response',
  kind: 'missing',
  targets: ['node'],
});
