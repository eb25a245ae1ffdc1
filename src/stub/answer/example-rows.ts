/**
 * A scenario narrowed to one Examples row, for the stub's choice of the row a request matches,
 * and a response narrowed to values, for the provider's run: one narrowing, in the contract layer
 * (contract/narrow-row.ts), so the stub and the runner read a row alike.
 */
export { narrowResponse, narrowToRow } from '../../contract/narrow-row';
