// Worker-thread entry for parse-off-thread.ts when running from the sources (dev, tests, benchmarks;
// the build emits its own compiled file under this name). Threads do not inherit tsx's loader, and
// registering it in each thread cost about a second per upload; Node 24 strips the types itself, so
// the thread's modules (uploads/ and the domain files they import) keep to erasable syntax: no
// parameter properties, no enums. parse-off-thread.test.ts fails when one creeps in.
await import('./parse-worker.ts');
