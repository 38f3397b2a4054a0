// Polls a URL every `intervalMs` from its own process (the server under test keeps its event loop to
// itself) and prints one line per answer: "<epoch ms at start> <latency ms> <status>" (status 0: no answer).
// Stops when its stdin closes (the benchmark ended or died).
export {};
const [url, interval] = process.argv.slice(2);
if (url === undefined) throw new Error('usage: health-poller.ts <url> <intervalMs>');
const intervalMs = Number(interval ?? 50);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
for (;;) {
  const startedAt = Date.now();
  const start = performance.now();
  let status = 0;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
    await res.arrayBuffer();
    status = res.status;
  } catch {
    // No answer within the timeout (or the server went away): status 0.
  }
  const ms = performance.now() - start;
  process.stdout.write(`${startedAt} ${ms.toFixed(1)} ${status}\n`);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, intervalMs - ms)));
}
