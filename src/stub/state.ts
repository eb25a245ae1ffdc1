import { Expectations, type Expectation } from './expectations';
import { Journal } from './journal';
import { DispatchMemo } from './memo';
import type { RouteTable } from './route';

/** What a running stub holds: the contracts' route table (swapped on reload), the expectations set at run time, the journal. */
export class StubState {
  readonly expectations = new Expectations();
  readonly journal = new Journal();

  private serving: { table: RouteTable; memo: DispatchMemo };

  constructor(table: RouteTable) {
    this.serving = { table, memo: new DispatchMemo(table) };
  }

  get table(): RouteTable {
    return this.serving.table;
  }

  /** A reload: the new table, with a new memo of its choices. */
  set table(table: RouteTable) {
    this.serving = { table, memo: new DispatchMemo(table) };
  }

  /** The memo of this table's choices (a request that arrived before a reload keeps the table it arrived with). */
  memoFor(table: RouteTable): DispatchMemo {
    return this.serving.table === table ? this.serving.memo : new DispatchMemo(table);
  }

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
