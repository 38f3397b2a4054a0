// Polls several requests, each on its own loop every `intervalMs`, from one process of its own (the
// server under test keeps its event loop and the bench's to itself), and prints one line per answer:
// "<name> <epoch ms at start> <latency ms> <status>" (status 0: no answer). A target is
// "name|method|url|token|body|interval" (token and body may be empty; interval, in ms, defaults to the
// first argument). Stops when its stdin closes.
import http from 'node:http';

const [interval, ...targets] = process.argv.slice(2);
if (interval === undefined || targets.length === 0) throw new Error('usage: page-poller.ts <intervalMs> <name|method|url|token|body>…');
const intervalMs = Number(interval);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
// One kept-alive socket per loop: a browser tab's way, and no connection set-up in the figure.
const agent = new http.Agent({ keepAlive: true });

function send(method: string, url: string, token: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const req = http.request(url, { method, agent, headers, timeout: 120_000 }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body || undefined);
  });
}

await Promise.all(
  targets.map(async (target) => {
    const [name = '', method = 'GET', url = '', token = '', body = '', every = ''] = target.split('|');
    const loopMs = every ? Number(every) : intervalMs;
    for (;;) {
      const startedAt = Date.now();
      const start = performance.now();
      const status = await send(method, url, token, body);
      const ms = performance.now() - start;
      process.stdout.write(`${name} ${startedAt} ${ms.toFixed(1)} ${status}\n`);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, loopMs - ms)));
    }
  }),
);
