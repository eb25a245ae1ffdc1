import { changeRule } from '../rule';

export const requestNodeOrderChanged = changeRule({
  id: 'request-node-order-changed',
  side: 'request',
  kind: 'order',
  targets: ['node'],
});
