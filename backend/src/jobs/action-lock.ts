// On the embedded database a job action runs in committed steps (jobs/control.ts), so a second
// action on the same job could start between them: a cancel under way and a re-price would each
// undo the other's rows. One action at a time per job; the other answers 409. In-process is enough:
// the embedded database has one process.
import { HttpError } from '../lib/http-errors.ts';

const running = new WeakMap<object, Set<number>>();

/** Runs `action` unless another action on the job (on this database) is still running: then 409. */
export async function oneActionAtATime<T>(db: object, jobId: number, action: () => Promise<T>): Promise<T> {
  let jobs = running.get(db);
  if (!jobs) {
    jobs = new Set();
    running.set(db, jobs);
  }
  if (jobs.has(jobId)) throw new HttpError(409, 'Another action on this job is still running. Please try again when it has finished.');
  jobs.add(jobId);
  try {
    return await action();
  } finally {
    jobs.delete(jobId);
  }
}
