/**
 * One SQLite transaction around several repository calls: every write in it lands, or none does.
 */
import type { Database } from './database.js';

export interface TransactionOptions {
  /**
   * Take the write lock at the start (BEGIN IMMEDIATE), for work that reads and then writes on what it
   * read: no other process can write in between, and a lock wait happens at the start, not halfway.
   */
  immediate?: boolean;
}

/**
 * Runs `work` in one transaction and returns what it returns; a throw rolls everything back. The work is
 * synchronous on purpose (a promise is refused): an await inside would hold the transaction open while
 * other work of this process interleaves with it. Nested calls become savepoints.
 */
export type Transaction = <Result>(work: () => Result, options?: TransactionOptions) => Result;

export function transactionOn(database: Database): Transaction {
  return <Result>(work: () => Result, options: TransactionOptions = {}): Result => {
    const transaction = database.transaction(work);
    return options.immediate === true ? transaction.immediate() : transaction();
  };
}
