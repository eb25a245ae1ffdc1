import { changeRule } from '../rule';

export const requestNodeAnyNameRemoved = changeRule({
  id: 'request-node-any-name-removed',
  side: 'request',
  kind: 'name',
  targets: ['node'],
  noMirror: {
    'response-node-any-name-removed': 'older clients read the node by the name it keeps: compatible',
    'request-node-any-name-added': 'older requests still fit: compatible',
  },
});
