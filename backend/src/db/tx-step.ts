// One more write an action runs inside its own transaction (its audit event): the step sees what the
// action wrote, and both commit or neither does.
import type { Tx } from './client.ts';

export type TxStep<T> = (tx: Tx, result: T) => Promise<void>;

/** Several steps as one, run in order in the same transaction. */
export const allSteps =
  <T>(...steps: TxStep<T>[]): TxStep<T> =>
  async (tx, result) => {
    for (const step of steps) await step(tx, result);
  };
