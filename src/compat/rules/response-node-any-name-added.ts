import { changeRule } from '../rule';

export const responseNodeAnyNameAdded = changeRule({
  id: 'response-node-any-name-added',
  side: 'response',
  kind: 'name',
  targets: ['node'],
  noMirror: {
    'request-node-any-name-added': 'older requests still fit: compatible',
    'response-node-any-name-removed': 'older clients read the node by the name it keeps: compatible',
  },
});
