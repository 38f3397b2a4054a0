// One more write an action runs inside its own transaction (its audit event): the step sees what the
// action wrote, and both commit or neither does.
import type { Tx } from './client.ts';

export type TxStep<T> = (tx: Tx, result: T) => Promise<void>;
