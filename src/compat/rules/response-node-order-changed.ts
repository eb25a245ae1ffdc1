import { changeRule } from '../rule';

export const responseNodeOrderChanged = changeRule({
  id: 'response-node-order-changed',
  side: 'response',
  kind: 'order',
  targets: ['node'],
});
