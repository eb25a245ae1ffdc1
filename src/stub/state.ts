import { Expectations, type Expectation } from './expectations';
import { Journal } from './journal';
import type { RouteTable } from './route';

/** What a running stub holds: the contracts' route table (swapped on reload), the expectations set at run time, the journal. */
export class StubState {
  readonly expectations = new Expectations();
  readonly journal = new Journal();

  constructor(public table: RouteTable) {}

  /** Checked against the table serving now; see Expectations.add. */
  expect(input: unknown): Expectation {
    return this.expectations.add(input, this.table);
  }

  /** Between tests: no expectations, an empty journal. */
  reset(): void {
    this.expectations.clear();
    this.journal.clear();
  }
}
