import { contractStem } from '../../src/contract/stem';

/** One stem for the folders beside a contract: the stub's example files, its watcher, the runner's consumers' examples and the export. */
test.each([
  ['pets/api.spec', 'pets/api'],
  ['pets/API.SPEC', 'pets/API'],
  ['svc/orders.wsdl', 'svc/orders'],
  ['svc/orders.Wsdl', 'svc/orders'],
  ['notes.txt', 'notes.txt'],
  ['api.spec.bak', 'api.spec.bak'],
  ['spec', 'spec'],
])('%s → %s', (file, stem) => {
  expect(contractStem(file)).toBe(stem);
});
